import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HookDefinition } from '@codewhale/hooks-config';
import { HookRuntime, type HookRuntimeOptions, type RevocationCheck } from './hook-runtime.js';
import { ObserverChainJob, ObserverDispatcher } from './observer-dispatcher.js';
import { overflowProcessHost, setSpawnMode, sharedProcessHost, type ProcessHost } from './process-host.js';
import { HookChain, HOST_LOST, type RunSpec } from './run-hook.js';
import { WorkQueue, type JobStaging } from './work-queue.js';
import { baseEnv, hookDef, hookSet, identity, until } from '../test/helpers.js';

// Staged observer events: a busy observer worker begins the next waiting event behind the one
// it runs, and the process host starts it the moment that one ends (HookChain.stageBehind,
// WorkQueue's staging). What runs, how often, how many at once and in which order inside an
// event must not change; a free worker must not wait behind a slow event.

const dir = mkdtempSync(join(tmpdir(), 'cw-staging-'));
let n = 0;
const out = (name: string) => join(dir, `${++n}-${name}`);
const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []);
const nowNs = '$(date +%s%N)';

const spec = (label: string, command: string, over: Partial<RunSpec> = {}): RunSpec => ({
  hook: identity(label, { event: 'turn_end', continueOnError: true }),
  command,
  cwd: dir,
  env: baseEnv(),
  stdin: null,
  timeoutSecs: 30,
  captureOutput: false,
  ...over,
});

/**
 * Block this process's event loop until `check` holds (or `ms` pass): nothing can be read from
 * or written to the host meanwhile.
 */
function blockUntil(check: () => boolean, ms: number): void {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) {
    // spin
  }
}

/** Record every chain request the two hosts get, and every withdrawal. */
function spyOnHosts(): { chains: { after: number | undefined }[]; withdrawn: number; restore: () => void } {
  const seen = { chains: [] as { after: number | undefined }[], withdrawn: 0 };
  const hosts: ProcessHost[] = [sharedProcessHost(), overflowProcessHost()];
  const originals = hosts.map((h) => ({ chain: h.chain, withdraw: h.withdraw }));
  for (const h of hosts) {
    const { chain, withdraw } = h;
    h.chain = (env, requests, onSpawn, options = {}) => {
      seen.chains.push({ after: options.after });
      return chain.call(h, env, requests, onSpawn, options);
    };
    h.withdraw = (id) => {
      seen.withdrawn++;
      withdraw.call(h, id);
    };
  }
  return {
    get chains() {
      return seen.chains;
    },
    get withdrawn() {
      return seen.withdrawn;
    },
    restore: () => hosts.forEach((h, i) => Object.assign(h, originals[i])),
  };
}

describe('WorkQueue staging (model)', () => {
  type Step = { kind: 'submit'; begins: boolean } | { kind: 'finish'; which: number } | { kind: 'settle' };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('submit' as const), begins: fc.boolean() }),
    fc.record({ kind: fc.constant('finish' as const), which: fc.nat(3) }),
    fc.constant({ kind: 'settle' as const }),
  );

  it('keeps the capacity, the worker count and the queue order, and runs every job once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 4 }), fc.array(step, { maxLength: 60 }), async (workers, capacity, steps) => {
        interface Job {
          readonly id: number;
          readonly begins: boolean;
          beganBy: Job | null;
          withdrawn: boolean;
          runs: number;
          finish?: () => void;
        }
        const running = new Set<Job>();
        const left: number[] = []; // the order jobs leave the queue (begun or run)
        const leave = (j: Job) => {
          if (!left.includes(j.id)) left.push(j.id);
        };
        let maxRunning = 0;
        const staging: JobStaging<Job> = {
          begin: (next, current) => {
            expect(running.has(current)).toBe(true);
            if (!next.begins) return false;
            next.beganBy = current;
            leave(next);
            return true;
          },
          withdraw: (job) => {
            job.withdrawn = true;
          },
        };
        const q = new WorkQueue<Job>({
          capacity,
          workers,
          staging,
          run: (job) => {
            job.runs++;
            leave(job);
            running.add(job);
            maxRunning = Math.max(maxRunning, running.size);
            return new Promise<void>((resolve) => {
              job.finish = () => {
                running.delete(job);
                resolve();
              };
            });
          },
        });
        const jobs: Job[] = [];
        const settle = () => new Promise((r) => setImmediate(r));
        for (const s of steps) {
          if (s.kind === 'submit') {
            const job: Job = { id: jobs.length, begins: s.begins, beganBy: null, withdrawn: false, runs: 0 };
            const waiting = jobs.filter((j) => j.runs === 0).length;
            const status = q.trySubmit(job);
            expect(status).toBe(waiting >= capacity ? 'full' : 'accepted');
            if (status === 'accepted') jobs.push(job);
          } else if (s.kind === 'finish') {
            const r = [...running];
            r[s.which % Math.max(1, r.length)]?.finish?.();
          }
          await settle();
          expect(q.pending).toBe(jobs.filter((j) => j.runs === 0).length);
          expect(q.pending).toBeLessThanOrEqual(capacity);
        }
        // Drain: finish whatever runs until every job has run.
        for (let guard = 0; guard < 1000 && jobs.some((j) => j.runs === 0 || running.has(j)); guard++) {
          for (const j of [...running]) j.finish?.();
          await settle();
        }
        await q.idle();
        expect(maxRunning).toBeLessThanOrEqual(workers);
        for (const j of jobs) expect(j.runs).toBe(1);
        // Jobs leave the queue in submission order, whether begun or taken.
        expect(left).toEqual(jobs.map((j) => j.id));
        await q.close();
      }),
      { numRuns: 150 },
    );
  });

  it('withdraws a begun job that a free worker takes over, and every begun job on close with drop', async () => {
    const withdrawn: [number, boolean][] = [];
    const finish = new Map<number, () => void>();
    const ran: number[] = [];
    const q = new WorkQueue<number>({
      capacity: 8,
      workers: 2,
      staging: { begin: () => true, withdraw: (job, drop) => withdrawn.push([job, drop]) },
      run: (job) => {
        ran.push(job);
        return new Promise<void>((resolve) => finish.set(job, resolve));
      },
    });
    const settle = () => new Promise((r) => setImmediate(r));
    q.trySubmit(0);
    q.trySubmit(1);
    await settle();
    q.trySubmit(2); // begun behind job 0 (the first busy worker)
    await settle();
    expect(ran).toEqual([0, 1]);
    finish.get(1)!(); // the other worker is free and nothing else waits: it takes job 2 over
    await settle();
    expect(withdrawn).toEqual([[2, false]]);
    expect(ran).toEqual([0, 1, 2]);
    q.trySubmit(3);
    q.trySubmit(4);
    await settle();
    expect(q.pending).toBe(2); // 3 and 4, begun behind 0 and 2
    const closed = q.close({ drop: true });
    expect(withdrawn.slice(1).sort()).toEqual([
      [3, true],
      [4, true],
    ]);
    // A withdrawn job still goes to its worker's `run`, which settles whatever had started.
    finish.get(0)!();
    finish.get(2)!();
    await settle();
    finish.get(3)?.();
    finish.get(4)?.();
    await closed;
    expect(ran.sort()).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('HookChain.stageBehind (through the host)', () => {
  beforeAll(async () => {
    setSpawnMode('host');
    await sharedProcessHost().start();
  });
  afterAll(() => setSpawnMode(null));

  it('the host starts a staged chain when the one ahead ends, with this process unable to answer', async () => {
    const file = out('order');
    const ahead = new HookChain([spec('ahead', `sleep 0.2; echo ahead-end ${nowNs} >> ${file}`)]);
    const first = ahead.next();
    const staged = new HookChain([spec('staged', `echo staged-start ${nowNs} >> ${file}`)]);
    expect(staged.stageBehind(ahead)).toBe(true);
    // While this event loop is blocked, only the host can start the staged hook.
    blockUntil(() => lines(file).length === 2, 10_000);
    const recorded = lines(file).map((l) => l.split(' '));
    expect(recorded.map((r) => r[0])).toEqual(['ahead-end', 'staged-start']);
    expect(Number(recorded[1]![1])).toBeGreaterThanOrEqual(Number(recorded[0]![1]));
    expect(await first).toMatchObject({ success: true });
    expect(await staged.next()).toMatchObject({ success: true, hook: { name: 'staged' } });
    expect(await staged.next()).toBeNull();
    expect(lines(file)).toHaveLength(2);
  });

  it('a strict failure ahead, which skips the rest of that chain, still lets the staged chain start', async () => {
    const never = out('never');
    const ran = out('ran');
    const ahead = new HookChain([spec('strict', 'exit 1', { hook: identity('strict', { event: 'turn_end', continueOnError: false }) }), spec('skipped', `touch ${never}`)], { stopAfter: 'always' });
    const first = ahead.next();
    const staged = new HookChain([spec('staged', `touch ${ran}`)]);
    expect(staged.stageBehind(ahead)).toBe(true);
    expect(await first).toMatchObject({ success: false, strict: true });
    expect(await ahead.next()).toBeNull();
    expect(await staged.next()).toMatchObject({ success: true });
    expect(existsSync(ran)).toBe(true);
    expect(existsSync(never)).toBe(false);
  });

  it('is refused, sending nothing, whenever the order could not be the host’s to keep', async () => {
    const ran = out('refused');
    const make = () => new HookChain([spec('staged', `echo x >> ${ran}`)]);
    // Ahead has not begun.
    expect(make().stageBehind(new HookChain([spec('idle', 'true')]))).toBe(false);
    // Ahead may send its rest again after a stop (a stop rule that can say go on).
    const consulting = new HookChain([spec('a', 'sleep 0.2')], { stopAfter: () => false });
    const c1 = consulting.next();
    expect(make().stageBehind(consulting)).toBe(false);
    // A hook of the staged chain has a revocation check, which must be asked right before it starts.
    const plain = new HookChain([spec('b', 'sleep 0.2')]);
    const c2 = plain.next();
    expect(new HookChain([spec('checked', 'true', { authorize: () => null })]).stageBehind(plain)).toBe(false);
    // Ahead has a check of its own later on: its rest is not one request.
    const split = new HookChain([spec('c', 'sleep 0.2'), spec('d', 'true', { authorize: () => null })]);
    const c3 = split.next();
    expect(make().stageBehind(split)).toBe(false);
    await Promise.all([c1, c2, c3]);
    expect(await split.next()).toMatchObject({ success: true });
    // Ahead has ended: there is nothing to wait behind.
    expect(make().stageBehind(plain)).toBe(false);
    // Ahead is a staged chain that was withdrawn (taken over by another worker): the host may
    // have dropped it, and would start a chain staged behind it at once.
    const slow = new HookChain([spec('f', 'sleep 0.3')]);
    const c5 = slow.next();
    const taken = new HookChain([spec('g', 'true')]);
    expect(taken.stageBehind(slow)).toBe(true);
    taken.withdraw();
    expect(make().stageBehind(taken)).toBe(false);
    expect(await taken.next()).toMatchObject({ success: true });
    await c5;
    // In process there is no host to keep the order.
    setSpawnMode('in-process');
    try {
      const local = new HookChain([spec('e', 'sleep 0.2')]);
      const c4 = local.next();
      expect(make().stageBehind(local)).toBe(false);
      await c4;
    } finally {
      setSpawnMode('host');
    }
    expect(lines(ran)).toEqual([]);
  });

  it('a staged chain withdrawn before it started is started afresh by next(), once, without waiting', async () => {
    const ran = out('withdrawn');
    const ahead = new HookChain([spec('slow', 'sleep 1')]);
    const first = ahead.next();
    const staged = new HookChain([spec('staged', `echo ran >> ${ran}`)]);
    expect(staged.stageBehind(ahead)).toBe(true);
    const spy = spyOnHosts();
    try {
      staged.withdraw();
      const outcome = await staged.next();
      expect(outcome).toMatchObject({ success: true });
      // It ran as a request of its own, while the slow one still runs.
      expect(spy.chains).toEqual([{ after: undefined }]);
      expect(spy.withdrawn).toBe(1);
    } finally {
      spy.restore();
    }
    let aheadDone = false;
    void first.then(() => (aheadDone = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(aheadDone).toBe(false);
    await first;
    expect(lines(ran)).toEqual(['ran']);
  });

  it('a staged chain withdrawn after it started runs once, and next() hands out its outcome', async () => {
    const ran = out('started');
    const ahead = new HookChain([spec('quick', 'true')]);
    const first = ahead.next();
    const staged = new HookChain([spec('staged', `echo ran >> ${ran}; sleep 0.2`)]);
    expect(staged.stageBehind(ahead)).toBe(true);
    await first;
    expect(await until(() => lines(ran).length === 1)).toBe(true);
    staged.withdraw();
    expect(await staged.next()).toMatchObject({ success: true, hook: { name: 'staged' } });
    await new Promise((r) => setTimeout(r, 100));
    expect(lines(ran)).toEqual(['ran']);
  });

  it('a staged chain dropped before it started never starts', async () => {
    const ran = out('dropped');
    const ahead = new HookChain([spec('slow', 'sleep 0.3')]);
    const first = ahead.next();
    const staged = new HookChain([spec('staged', `touch ${ran}`), spec('staged2', `touch ${ran}-2`)]);
    expect(staged.stageBehind(ahead)).toBe(true);
    staged.withdraw({ drop: true });
    expect(await staged.next()).toBeNull();
    expect(await staged.next()).toBeNull();
    await first;
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(ran)).toBe(false);
    expect(existsSync(`${ran}-2`)).toBe(false);
  });

  it('when the host dies while the chain ahead runs, the staged chain had not started: it runs once, in a new host', async () => {
    const pids = out('pids');
    const ran = out('after-loss');
    const ahead = new HookChain([spec('sleeper', `echo $PPID > ${pids}; sleep 60`)]);
    const first = ahead.next();
    const staged = new HookChain([spec('staged', `echo $PPID >> ${ran}`)]);
    expect(staged.stageBehind(ahead)).toBe(true);
    expect(await until(() => lines(pids).length === 1)).toBe(true);
    const dead = Number(lines(pids)[0]);
    process.kill(dead, 'SIGKILL');
    expect(await first).toMatchObject({ success: false, error: HOST_LOST });
    expect(await staged.next()).toMatchObject({ success: true, hook: { name: 'staged' } });
    const [hostOfStaged] = lines(ran).map(Number);
    expect(lines(ran)).toHaveLength(1);
    expect(hostOfStaged).not.toBe(dead);
  });
});

describe('the observer dispatcher stages events (HookRuntime, through the host)', () => {
  const runtimes: HookRuntime[] = [];
  const runtime = (hooks: HookDefinition[], over: Partial<HookRuntimeOptions> = {}) => {
    const r = new HookRuntime({ hooks: hookSet(hooks), workspace: dir, parentEnv: { PATH: process.env.PATH ?? '', HOME: dir }, ...over });
    runtimes.push(r);
    return r;
  };
  beforeAll(async () => {
    setSpawnMode('host');
    await sharedProcessHost().start();
    await overflowProcessHost().start();
  });
  afterEach(async () => {
    for (const r of runtimes.splice(0)) {
      await r.idle();
      await r.close();
    }
  });
  afterAll(() => setSpawnMode(null));

  it('a burst: each event once, its hooks in config order, 32 waiting at most, and events were staged', async () => {
    const file = out('burst');
    const hook = (tag: string) => hookDef('turn_end', `read -r line; echo "$line ${tag}" >> ${file}`, { name: tag });
    const r = runtime([hook('a'), hook('b')]);
    const spy = spyOnHosts();
    const accepted: number[] = [];
    try {
      // A 32-slot queue: 32 of a synchronous burst are accepted, the next is not (the workers
      // take theirs only once this code yields).
      for (let i = 0; i < 33; i++) if (r.fire('turn_end', {}, String(i)).ok) accepted.push(i);
      expect(accepted).toEqual([...Array(32).keys()]);
      // Then more as slots free up: a begun event holds its slot until its worker takes it.
      for (let i = 33; i < 70; i++) {
        while (!r.fire('turn_end', {}, String(i)).ok) await new Promise((res) => setTimeout(res, 2));
        accepted.push(i);
      }
      await r.idle();
    } finally {
      spy.restore();
    }
    const got = lines(file);
    expect(got).toHaveLength(accepted.length * 2);
    for (const i of accepted) {
      const a = got.indexOf(`${i} a`);
      const b = got.indexOf(`${i} b`);
      expect(a).toBeGreaterThanOrEqual(0);
      expect(b).toBeGreaterThan(a);
      expect(got.filter((l) => l.startsWith(`${i} `))).toHaveLength(2);
    }
    // The path under test was taken: some events went to the host behind another.
    expect(spy.chains.filter((c) => c.after !== undefined).length).toBeGreaterThan(0);
  });

  it('a free worker takes over an event begun behind a slow one', async () => {
    const file = out('hol');
    const r = runtime([hookDef('turn_end', `read -r line; case "$line" in slow) sleep 1.5;; esac; echo "$line" >> ${file}`, { name: 'o' })]);
    await overflowProcessHost().start();
    const spy = spyOnHosts();
    try {
      r.fire('turn_end', {}, 'slow');
      r.fire('turn_end', {}, 'fast1');
      r.fire('turn_end', {}, 'fast2');
      await r.idle();
      // fast2 was begun behind one of the running events; when it was the slow one, the worker
      // that ran fast1 took it over and it did not wait.
      expect(lines(file)).toEqual(['fast1', 'fast2', 'slow']);
      expect(spy.chains.filter((c) => c.after !== undefined)).toHaveLength(1);
      expect(spy.withdrawn).toBe(1);
    } finally {
      spy.restore();
    }
  });

  it('closing with drop withdraws a staged event: it never starts', async () => {
    const ran = out('drop');
    const d = new ObserverDispatcher({ workers: 1 });
    const done: string[] = [];
    const job = (label: string, command: string) => new ObserverChainJob([spec(label, command)], null, (o) => done.push(o.hook.label));
    expect(d.trySubmit('turn_end', job('slow', 'sleep 0.3')).ok).toBe(true);
    await new Promise((r) => setImmediate(r));
    const spy = spyOnHosts();
    try {
      expect(d.trySubmit('turn_end', job('staged', `touch ${ran}`)).ok).toBe(true);
      expect(spy.chains).toEqual([{ after: expect.any(Number) }]);
      await d.close({ drop: true });
    } finally {
      spy.restore();
    }
    await new Promise((r) => setTimeout(r, 150));
    expect(done).toEqual(['slow']);
    expect(existsSync(ran)).toBe(false);
  });

  it('project hooks under a revocation check are never staged, and a revoke stops the queued ones', async () => {
    const flag = out('revoked');
    const file = out('project');
    const check: RevocationCheck = Object.assign(() => (existsSync(flag) ? 'approval revoked' : null), { appliesTo: () => true });
    const r = runtime([hookDef('turn_end', `read -r line; echo "$line" >> ${file}; sleep 0.3`, { name: 'p' })], { isRevoked: check });
    const spy = spyOnHosts();
    try {
      for (let i = 0; i < 6; i++) r.fire('turn_end', {}, String(i));
      // Both workers busy, four events waiting: none of them may be begun in the host.
      expect(await until(() => lines(file).length === 2)).toBe(true);
      writeFileSync(flag, '');
      await r.idle();
    } finally {
      spy.restore();
    }
    expect(spy.chains).toHaveLength(2);
    expect(spy.chains.every((c) => c.after === undefined)).toBe(true);
    // The revoke came while 0 and 1 ran: the four queued before it never start.
    expect(lines(file).sort()).toEqual(['0', '1']);
  });
});
