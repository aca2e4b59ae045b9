import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { HOST_COLLECT_AFTER_BYTES, HOST_GROWTH_LIMIT_BYTES, HOST_NODE_OPTIONS, hostLimitArg, PROCESS_HOST_SOURCE } from './process-host-source.js';
import { HOST_RENEW_IDLE_MS, HOST_RENEW_MAX_TRIES, ProcessHost, type HostRequest } from './process-host.js';
import { hostHookRequest, procTable, rawHost, until } from '../test/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cw-host-mem-'));
const alive = (pid: number) => procTable().some((p) => p.pid === pid && p.state !== 'Z' && p.state !== 'X');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const req = (cmd: string): HostRequest => hostHookRequest(cmd, dir);
/** A run that prints `bytes` of output. */
const printing = (bytes: number) => req(`head -c ${bytes} /dev/zero`);
/** More than the sweep's idle wait (15 ms) and its longest delay (200 ms): a sweep has run. */
const SWEPT_MS = 300;

const hosts: ProcessHost[] = [];
function host(options: ConstructorParameters<typeof ProcessHost>[0] = {}): ProcessHost {
  const h = new ProcessHost(options);
  hosts.push(h);
  return h;
}
afterEach(() => {
  for (const h of hosts.splice(0)) h.close();
});

describe('hostLimitArg: the memory limits on the host command line', () => {
  it('reads the decimal text of any safe integer, negative ones too', () => {
    fc.assert(
      fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), fc.integer(), (n, fallback) => {
        expect(hostLimitArg(String(n), fallback)).toBe(n);
      }),
    );
  });

  it('falls back for anything else: missing, empty, fractions, exponents, spaces, words, unsafe integers', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer(), (s, fallback) => {
        const expected = /^-?\d{1,16}$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : fallback;
        expect(hostLimitArg(s, fallback)).toBe(expected);
      }),
    );
    for (const s of [undefined, '', ' 5', '5 ', '1.5', '1e6', '0x10', '+5', 'NaN', '9007199254740993', '-']) expect(hostLimitArg(s, 7)).toBe(7);
  });

  it('is the rule the host program applies (its source text is in it)', () => {
    expect(PROCESS_HOST_SOURCE).toContain(hostLimitArg.toString());
    expect(PROCESS_HOST_SOURCE).toContain(`hostLimitArg(process.argv[1], ${HOST_GROWTH_LIMIT_BYTES})`);
    expect(PROCESS_HOST_SOURCE).toContain(`hostLimitArg(process.argv[2], ${HOST_COLLECT_AFTER_BYTES})`);
  });

  it('must be integers when given to a ProcessHost', () => {
    expect(() => new ProcessHost({ growthLimitBytes: 1.5 })).toThrow(RangeError);
    expect(() => new ProcessHost({ collectAfterBytes: Number.NaN })).toThrow(/collectAfterBytes/);
  });
});

describe('the host warms up before it is ready', () => {
  it('does one run of its own first, and not one message of it reaches the agent', async () => {
    const { child, output } = rawHost();
    // The warm-up's child is the host's: seen in the process table before `ready`, or not at
    // all when it was quick; either way the first line the host writes is `ready`.
    expect(await until(() => output().includes('\n'))).toBe(true);
    expect(output().split('\n')).toHaveLength(2);
    expect(JSON.parse(output())).toMatchObject({ t: 'ready' });
    // By then the host has reaped a child: the page faults of waited-for children (cminflt,
    // the 10th field after the name in /proc/<pid>/stat) count its warm-up run, and nothing
    // else, since nothing was asked of it yet.
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'latin1');
    expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[8])).toBeGreaterThan(0);
    child.stdin.write(JSON.stringify({ t: 'r', id: 1, ...req('printf one') }) + '\n');
    expect(await until(() => output().includes('"t":"d","id":1'))).toBe(true);
    const lines = output().trim().split('\n').map((l) => JSON.parse(l) as { t: string; id?: number });
    expect(lines.map((m) => [m.t, m.id])).toEqual([['ready', undefined], ['s', 1], ['d', 1]]);
    // Nothing of the warm-up is left running under the host.
    expect(procTable().filter((p) => p.ppid === child.pid && p.state !== 'Z')).toEqual([]);
    child.stdin.end();
    await new Promise((r) => child.once('close', r));
  });
});

describe('asking a host what it holds', () => {
  it('gets null when the host goes before it answers', async () => {
    // A host that says it is ready, reads one line and exits without answering it.
    const h = host({ launch: () => ({ file: '/bin/sh', args: ['-c', `echo '{"t":"ready"}'; read line; exit 0`], sliced: false }) });
    await h.start();
    expect(h.ready).toBe(true);
    expect(await h.status()).toBeNull();
    expect(await until(() => !h.ready)).toBe(true);
  });
});

describe.runIf(process.platform === 'linux')('the host keeps itself small (Linux)', () => {
  it('says what it holds: its anonymous memory, no baseline before its first collection, none done', async () => {
    const h = host();
    expect(await h.status()).toBeNull();
    await h.start();
    const s = await h.status();
    expect(s).toMatchObject({ baseline: null, collections: 0, grown: false });
    // RssAnon of a Node process: megabytes, not bytes, and not gigabytes.
    expect(s!.anon).toBeGreaterThan(1024 * 1024);
    expect(s!.anon).toBeLessThan(1024 * 1024 * 1024);
  });

  it('does a full collection at a sweep once it has read its threshold of output, not before', async () => {
    const h = host({ collectAfterBytes: 300_000 });
    await h.start();
    expect(await h.run(printing(200_000)).done).toMatchObject({ exitCode: 0 });
    await sleep(SWEPT_MS);
    expect((await h.status())!.collections).toBe(0);
    // 200,000 + 200,000 read: past the threshold, so the next sweep collects, and its result
    // is the baseline. The counter starts again at zero.
    await h.run(printing(200_000)).done;
    await sleep(SWEPT_MS);
    const first = (await h.status())!;
    expect(first.collections).toBe(1);
    expect(first.baseline).toBeGreaterThan(0);
    await h.run(printing(200_000)).done;
    await sleep(SWEPT_MS);
    expect((await h.status())!.collections).toBe(1);
  });

  it('does not collect while a run is in flight until it has read four times the threshold', async () => {
    const h = host({ collectAfterBytes: 150_000 });
    await h.start();
    const long = h.run(req('sleep 2'));
    // 2 × 200,000 read while another run is in flight: past the threshold, short of four times.
    for (let i = 0; i < 2; i++) await h.run(printing(200_000)).done;
    await sleep(SWEPT_MS);
    expect((await h.status())!.collections).toBe(0);
    // Past four times it: collected though never idle.
    for (let i = 0; i < 2; i++) await h.run(printing(200_000)).done;
    await sleep(SWEPT_MS);
    expect((await h.status())!.collections).toBe(1);
    await long.done;
  });

  it('collects nothing for runs that print nothing', async () => {
    const h = host({ collectAfterBytes: 1 });
    await h.start();
    for (let i = 0; i < 3; i++) await h.run(req('true')).done;
    await sleep(SWEPT_MS);
    expect((await h.status())!.collections).toBe(0);
  });
});

describe.runIf(process.platform === 'linux')('a host that has grown is replaced', () => {
  // Collect at every sweep after any output; "grown" at the second collection, whatever it finds.
  const growing = { collectAfterBytes: 0, growthLimitBytes: -(2 ** 40) };

  /**
   * Two runs with output, a sweep after each: the second collection reports the host grown,
   * and with nothing in flight its replacement starts soon after. Resolves once it is starting.
   */
  async function grow(h: ProcessHost): Promise<void> {
    await h.run(printing(10)).done;
    await sleep(SWEPT_MS);
    await h.run(printing(10)).done;
    expect(await until(() => h.replacement === 'starting')).toBe(true);
  }

  it('by a fresh host started in the background, which takes over once nothing is in flight', async () => {
    const h = host(growing);
    await h.start();
    const grown = h.pid!;
    await grow(h);
    expect(h.started).toBe(2);
    // A run sent while the replacement starts still goes to the grown host, which serves on;
    // the replacement, ready meanwhile, waits for the run to end.
    const during = h.run(req('sleep 1; printf %s "$PPID"'));
    expect(await until(() => h.replacement === 'ready')).toBe(true);
    expect(h.pid).toBe(grown);
    expect(h.replaced).toBe(0);
    expect(await during.done).toMatchObject({ exitCode: 0, stdout: String(grown) });
    // The run ended: the fresh host took over, and the grown one exited.
    expect(h.replaced).toBe(1);
    expect(h.replacement).toBe('none');
    const fresh = h.pid!;
    expect(fresh).not.toBe(grown);
    expect(await until(() => !alive(grown))).toBe(true);
    expect(await h.run(req('printf %s "$PPID"')).done).toMatchObject({ exitCode: 0, stdout: String(fresh) });
    expect((await h.status())!.grown).toBe(false);
    expect(h.started).toBe(2);
  });

  it('starts the replacement only once no run has been in flight for a while', async () => {
    const h = host(growing);
    await h.start();
    await h.run(printing(10)).done;
    await sleep(SWEPT_MS);
    // The second collection (and "grown") comes at the sweep after this short run, while the
    // long one is in flight.
    const long = h.run(req('sleep 1'));
    await h.run(printing(10)).done;
    await sleep(SWEPT_MS);
    expect((await h.status())!.grown).toBe(true);
    expect(h.replacement).toBe('none');
    expect(h.started).toBe(1);
    await long.done;
    expect(await until(() => h.replaced === 1)).toBe(true);
    expect(h.started).toBe(2);
  });

  it('starts the replacement anyway when the host is never idle, and still waits for its runs to end', async () => {
    const h = host(growing);
    await h.start();
    const grown = h.pid!;
    await h.run(printing(10)).done;
    await sleep(SWEPT_MS);
    // Grown at the sweep after the short run, while a run that outlasts every wait is in flight.
    const long = h.run(req(`sleep ${(HOST_RENEW_IDLE_MS * HOST_RENEW_MAX_TRIES) / 1000 + 1.5}`));
    await h.run(printing(10)).done;
    await sleep(SWEPT_MS);
    expect((await h.status())!.grown).toBe(true);
    const grownAt = Date.now();
    expect(h.replacement).toBe('none');
    expect(await until(() => h.replacement === 'ready', HOST_RENEW_IDLE_MS * HOST_RENEW_MAX_TRIES + 3_000)).toBe(true);
    // It waited all its tries (less the wait the first sweep took), not one.
    expect(Date.now() - grownAt).toBeGreaterThan(HOST_RENEW_IDLE_MS * (HOST_RENEW_MAX_TRIES - 5));
    expect(h.pid).toBe(grown);
    expect(await long.done).toMatchObject({ exitCode: 0 });
    expect(h.replaced).toBe(1);
    expect(h.pid).not.toBe(grown);
  }, 15_000);

  it('starts no replacement for a host below its limit', async () => {
    const h = host({ collectAfterBytes: 0 });
    await h.start();
    for (let i = 0; i < 2; i++) {
      await h.run(printing(10)).done;
      await sleep(SWEPT_MS);
    }
    const s = (await h.status())!;
    expect(s.collections).toBe(2);
    expect(s.grown).toBe(false);
    await sleep(300);
    expect(h.replacement).toBe('none');
    expect(h.started).toBe(1);
  });

  it('killed while its replacement waits: runs in flight are lost as ever, and the next run goes to the replacement', async () => {
    const h = host(growing);
    await h.start();
    const grown = h.pid!;
    await grow(h);
    const during = h.run(req('sleep 30'));
    expect(await until(() => h.replacement === 'ready')).toBe(true);
    process.kill(grown, 'SIGKILL');
    expect(await during.done).toEqual({ lost: true });
    const next = await h.run(req('printf %s "$PPID"')).done;
    expect(next).toMatchObject({ exitCode: 0 });
    expect(Number(next['stdout'])).not.toBe(grown);
    expect(Number(next['stdout'])).toBe(h.pid);
    expect(h.started).toBe(2);
  });

  it('exits with its replacement when the agent dies', async () => {
    const dist = join(import.meta.dirname, '..', 'dist', 'index.js');
    expect(existsSync(dist), 'build the package first (pnpm test does)').toBe(true);
    const script = `const m = await import(${JSON.stringify(dist)});
const h = new m.ProcessHost(${JSON.stringify(growing)});
await h.start();
const r = (cmd) => ({ mode: 'hook', file: '/bin/sh', args: ['-c', cmd], cwd: ${JSON.stringify(dir)}, env: { PATH: process.env.PATH }, stdio: ['pipe', 'pipe', 'pipe'], input: null, stdoutMax: 1024, stderrMax: 1024, timeoutMs: 60000, graceMs: 1000, reapMs: 1000, drainMs: 1000, shutdownMs: 1000 });
const wait = async (ok) => { while (!ok()) await new Promise((res) => setTimeout(res, 10)); };
await h.run(r('printf x')).done;
await new Promise((res) => setTimeout(res, ${SWEPT_MS}));
await h.run(r('printf x')).done;
await wait(() => h.replacement === 'starting');
const held = h.run(r('sleep 60'));
await wait(() => h.replacement === 'ready');
console.log(String(h.pid));
await held.done;`;
    const agent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    agent.stdout.on('data', (c: Buffer) => (out += c.toString()));
    expect(await until(() => out.trim() !== '', 10_000)).toBe(true);
    const grown = Number(out.trim());
    // The grown host started the replacement (the agent forked no second host), and the
    // replacement lives on its own link to the agent.
    const table = procTable();
    const spare = table.find((p) => p.ppid === grown && p.comm === 'node');
    expect(spare, 'the replacement host, a child of the grown one').toBeDefined();
    expect(table.filter((p) => p.ppid === agent.pid && p.comm === 'node').map((p) => p.pid)).toEqual([grown]);
    expect(alive(grown) && alive(spare!.pid)).toBe(true);
    agent.kill('SIGKILL');
    expect(await until(() => !alive(grown) && !alive(spare!.pid))).toBe(true);
  });
});

it('reads RssAnon from /proc the way the host does', () => {
  // The host's pattern against this kernel's status file: a number of kB.
  const status = readFileSync('/proc/self/status', 'latin1');
  expect(/RssAnon:\s+(\d+) kB/.exec(status)?.[1]).toMatch(/^\d+$/);
  expect(PROCESS_HOST_SOURCE).toContain(String.raw`/RssAnon:\s+(\d+) kB/`);
});
