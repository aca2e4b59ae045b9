import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { foldToolCallBefore } from '@codewhale/hooks-payloads';
import { HOST_LOST, runHook, type RunSpec } from './run-hook.js';
import { liveProcessGroups, rawKill, signalProcessGroup } from './process-group.js';
import { HOST_ENV_BASES, noteEnvComposition, overflowProcessHost, ProcessHost, setSpawnMode, sharedProcessHost, spawnMode } from './process-host.js';
import { HOST_PROTOCOL, PROCESS_HOST_SOURCE } from './process-host-source.js';
import { baseEnv, defaultHostSpawner, expectNoLeftovers, identity, procTable, until } from '../test/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cw-host-'));
const spawned: number[] = [];

function spec(command: string, over: Partial<RunSpec> = {}): RunSpec {
  return { hook: identity(), command, cwd: dir, env: baseEnv(), stdin: null, timeoutSecs: 30, onSpawn: (pid) => spawned.push(pid), ...over };
}

const alive = (pid: number) => procTable().some((p) => p.pid === pid && p.state !== 'Z' && p.state !== 'X');


async function waitForFile(path: string): Promise<string> {
  await until(() => existsSync(path) && readFileSync(path, 'utf8').trim().split('\n').length >= 2);
  return readFileSync(path, 'utf8');
}

beforeAll(async () => {
  setSpawnMode('host');
  await sharedProcessHost().start();
});
afterAll(() => setSpawnMode(null));
afterEach(async () => {
  await expectNoLeftovers(spawned);
  spawned.length = 0;
});

describe('the process host', () => {
  it('is one shared child, started lazily, that outlives single runs', async () => {
    const host = sharedProcessHost();
    await runHook(spec('true'));
    const pid = host.pid;
    expect(pid).toBeGreaterThan(0);
    await runHook(spec('true'));
    expect(host.pid).toBe(pid);
    // The hook is the host's child, not ours.
    const o = await runHook(spec('printf %s "$PPID"'));
    expect(Number(o.stdout)).toBe(pid);
  });

  it('killed with SIGKILL: the agent kills the groups it was told about, in-flight gates get no verdict, the next run starts a new host', async () => {
    const host = sharedProcessHost();
    await runHook(spec('true'));
    const hostPid = host.pid!;
    const startedBefore = host.started;
    const pids = join(dir, 'lost.pids');
    const gate = spec(`echo $$ > ${pids}; sleep 60 & echo $! >> ${pids}; wait`, { hook: identity('strict-gate', { continueOnError: false }) });
    const running = runHook(gate);
    const [leader, grandchild] = (await waitForFile(pids)).trim().split('\n').map(Number);
    // The rule covers the groups the agent was told about. On a loaded machine the child can
    // write both lines before the host's "spawned" message is read, so wait for that message.
    expect(await until(() => spawned.includes(leader!))).toBe(true);
    expect(liveProcessGroups()).toContain(leader);
    process.kill(hostPid, 'SIGKILL');
    const o = await running;
    expect(o).toMatchObject({ success: false, exitCode: null, timedOut: false, error: HOST_LOST, strict: true });
    expect(foldToolCallBefore({ tool: 'bash', originalInput: {}, outcomes: [o] }).decision).toBe('deny');
    // The agent ended the whole group itself: leader and grandchild.
    expect(await until(() => !alive(leader!) && !alive(grandchild!))).toBe(true);
    expect(liveProcessGroups()).not.toContain(leader);
    // The next spawn does not wait for a new host: it runs in process while one starts.
    expect(host.ready).toBe(false);
    const next = await runHook(spec('echo again'));
    expect(next).toMatchObject({ success: true, stdout: 'again\n' });
    expect(host.started).toBe(startedBefore + 1);
    expect(host.pid).not.toBe(hostPid);
    await host.start();
    expect(host.ready).toBe(true);
    expect(await runHook(spec('echo through the new host'))).toMatchObject({ success: true, stdout: 'through the new host\n' });
  });

  it('ends every group it started and exits when the agent dies', async () => {
    const dist = join(import.meta.dirname, '..', 'dist', 'index.js');
    expect(existsSync(dist), 'build the package first (pnpm test does)').toBe(true);
    const pids = join(dir, 'orphaned.pids');
    const script = `const m = await import(${JSON.stringify(dist)});
m.setSpawnMode('host');
await m.sharedProcessHost().start();
const run = m.runHook({ hook: { index: 0, name: 'h', label: 'h', event: 'turn_end', source: 'global', continueOnError: true, background: false }, command: ${JSON.stringify(`echo $$ > ${pids}; sleep 60 & echo $! >> ${pids}; wait`)}, cwd: ${JSON.stringify(dir)}, env: { PATH: process.env.PATH }, stdin: null, timeoutSecs: 60 });
setTimeout(() => console.log(String(m.sharedProcessHost().pid)), 50);
await run;`;
    const agent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    agent.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const [leader, grandchild] = (await waitForFile(pids)).trim().split('\n').map(Number);
    await until(() => out.trim() !== '');
    const hostPid = Number(out.trim());
    expect(alive(hostPid)).toBe(true);
    agent.kill('SIGKILL');
    expect(await until(() => !alive(hostPid) && !alive(leader!) && !alive(grandchild!))).toBe(true);
  });

  it('sends a run that overlaps another to a second host once it is up, and an idle first host takes the next', async () => {
    const primary = sharedProcessHost();
    await primary.start();
    const overflow = overflowProcessHost();
    const flag = join(dir, `release-${Date.now()}`);
    const parentOf = async (o: Promise<{ stdout: string }>) => Number((await o).stdout);
    // A: holds the first host's slot until released.
    const a = runHook(spec(`while [ ! -e ${flag} ]; do sleep 0.01; done; printf %s "$PPID"`));
    try {
      await until(() => primary.inFlight === 1);
      // B overlaps A before the second host exists: it runs on the first (no run waits for a
      // host to start) and the second one starts in the background.
      expect(await parentOf(runHook(spec('printf %s "$PPID"')))).toBe(primary.pid);
      await overflow.start();
      expect(overflow.ready).toBe(true);
      expect(overflow.pid).not.toBe(primary.pid);
      // C overlaps A with the second host up: it runs there, in parallel with A.
      expect(await parentOf(runHook(spec('printf %s "$PPID"')))).toBe(overflow.pid);
    } finally {
      writeFileSync(flag, '');
    }
    expect(await parentOf(a)).toBe(primary.pid);
    // D: nothing in flight, so the first host.
    expect(await parentOf(runHook(spec('printf %s "$PPID"')))).toBe(primary.pid);
  });

  it('the second host, killed with SIGKILL mid-run: its groups are killed, the run gets no verdict, the next overlap starts a new one', async () => {
    const primary = sharedProcessHost();
    const overflow = overflowProcessHost();
    await primary.start();
    await overflow.start();
    const flag = join(dir, `hold-${Date.now()}`);
    const pids = join(dir, 'overflow-lost.pids');
    const holder = runHook(spec(`while [ ! -e ${flag} ]; do sleep 0.01; done`));
    const startedBefore = overflow.started;
    let leader: number | undefined;
    try {
      await until(() => primary.inFlight === 1);
      const gate = runHook(spec(`echo $$ > ${pids}; sleep 60 & echo $! >> ${pids}; wait`, { hook: identity('strict-gate', { continueOnError: false }) }));
      let grandchild: number | undefined;
      [leader, grandchild] = (await waitForFile(pids)).trim().split('\n').map(Number);
      expect(overflow.inFlight).toBe(1);
      // As above: the rule covers the groups the agent was told about.
      expect(await until(() => spawned.includes(leader!))).toBe(true);
      process.kill(overflow.pid!, 'SIGKILL');
      expect(await gate).toMatchObject({ success: false, error: HOST_LOST, strict: true });
      expect(await until(() => !alive(leader!) && !alive(grandchild!))).toBe(true);
    } finally {
      writeFileSync(flag, '');
      if (leader !== undefined) signalProcessGroup(leader, 'SIGKILL');
    }
    // The first host and its run are untouched.
    expect(await holder).toMatchObject({ success: true });
    await overflow.start();
    expect(overflow.started).toBe(startedBefore + 1);
  });

  it('lets a host with retireAfterIdleMs exit once idle (never with a run in flight) and start afresh on the next run', async () => {
    const host = new ProcessHost({ retireAfterIdleMs: 150 });
    await host.start();
    const first = host.pid!;
    const { done } = host.run({ mode: 'hook', file: '/bin/sh', args: ['-c', 'sleep 0.4; printf %s "$PPID"'], cwd: dir, env: baseEnv(), stdio: ['pipe', 'pipe', 'pipe'], input: null, stdoutMax: 1024, stderrMax: 1024, timeoutMs: 10_000, graceMs: 1_000, reapMs: 1_000, drainMs: 1_000, shutdownMs: 1_000 });
    // Longer than the idle window, but a run is in flight: the host stays.
    expect(Number((await done).stdout)).toBe(first);
    expect(alive(first)).toBe(true);
    expect(await until(() => !alive(first))).toBe(true);
    expect(host.ready).toBe(false);
    expect(host.pid).toBeUndefined();
    const again = host.run({ mode: 'hook', file: '/bin/sh', args: ['-c', 'printf %s "$PPID"'], cwd: dir, env: baseEnv(), stdio: ['pipe', 'pipe', 'pipe'], input: null, stdoutMax: 1024, stderrMax: 1024, timeoutMs: 10_000, graceMs: 1_000, reapMs: 1_000, drainMs: 1_000, shutdownMs: 1_000 });
    const second = Number((await again.done).stdout);
    expect(second).not.toBe(first);
    expect(host.started).toBe(2);
    host.close();
    expect(await until(() => !alive(second))).toBe(true);
  });

  it('keeps its own message type and id over any a request carries, for a run and for a chain', async () => {
    const host = new ProcessHost();
    const req = (cmd: string) => ({ mode: 'hook' as const, file: '/bin/sh', args: ['-c', cmd], cwd: dir, stdio: ['pipe', 'pipe', 'pipe'], input: null, stdoutMax: 1024, stderrMax: 1024, timeoutMs: 10_000, graceMs: 1_000, reapMs: 1_000, drainMs: 1_000, shutdownMs: 1_000 });
    // A forged `t` / `id` would make the host read a chain as a run, or answer the wrong id.
    const run = host.run({ ...req('printf one'), env: baseEnv(), t: 'x', id: 424242 });
    expect(await run.done).toMatchObject({ exitCode: 0, stdout: 'one' });
    const chain = host.chain(baseEnv(), [{ ...req('printf two'), stopIfFailed: false, id: 424242 }, { ...req('printf three'), stopIfFailed: false, id: 424242 }]);
    expect(new Set(chain.ids).size).toBe(2);
    expect(await Promise.all(chain.replies)).toMatchObject([{ stdout: 'two' }, { stdout: 'three' }]);
    host.close();
  });

  describe('environment bases', () => {
    const req = (cmd: string) => ({ mode: 'hook' as const, file: '/bin/sh', args: ['-c', cmd], cwd: dir, stdio: ['pipe', 'pipe', 'pipe'], input: null, stdoutMax: 1024, stderrMax: 1024, timeoutMs: 10_000, graceMs: 1_000, reapMs: 1_000, drainMs: 1_000, shutdownMs: 1_000, stopIfFailed: false });
    /** A frozen base and an event's environment on top of it, noted as such. */
    const composed = (base: Readonly<Record<string, string>>, vars: Record<string, string>) => {
      const env = Object.freeze({ ...base, ...vars });
      noteEnvComposition(env, base, vars);
      return env;
    };
    const show = 'printf "%s %s %s" "$SHARED" "$OWN" "${STALE:-none}"';

    it('sends a fixed part once per host; each chain carries only its variables, and a new host gets the part again', async () => {
      const host = new ProcessHost();
      const base = Object.freeze({ ...baseEnv(), SHARED: 'one' });
      const other = Object.freeze({ ...baseEnv(), SHARED: 'two', STALE: 'x' });
      for (let i = 0; i < 3; i++) {
        const a = host.chain(composed(base, { OWN: `a${i}` }), [req(show)]);
        const b = host.chain(composed(other, { OWN: `b${i}` }), [req(show)]);
        expect(await Promise.all([...a.replies, ...b.replies])).toMatchObject([{ stdout: `one a${i} none` }, { stdout: `two b${i} x` }]);
      }
      expect(host.basesSent).toBe(2);
      // An environment not noted as composed goes whole, as before.
      expect(await host.chain(Object.freeze({ ...baseEnv(), SHARED: 'whole', OWN: 'w' }), [req(show)]).replies[0]).toMatchObject({ stdout: 'whole w none' });
      expect(host.basesSent).toBe(2);
      const first = host.pid!;
      process.kill(first, 'SIGKILL');
      expect(await until(() => host.pid === undefined)).toBe(true);
      expect(await host.chain(composed(base, { OWN: 'after' }), [req(show)]).replies[0]).toMatchObject({ stdout: 'one after none' });
      expect(host.pid).not.toBe(first);
      expect(host.basesSent).toBe(3);
      host.close();
    });

    it(`keeps at most ${HOST_ENV_BASES} parts per host, the most recently used, and resends one it dropped`, async () => {
      const host = new ProcessHost();
      const bases = Array.from({ length: HOST_ENV_BASES + 2 }, (_, i) => Object.freeze({ ...baseEnv(), SHARED: `s${i}` }));
      const round = async (list: readonly Readonly<Record<string, string>>[]) => {
        for (const [i, base] of list.entries()) {
          expect(await host.chain(composed(base, { OWN: String(i) }), [req(show)]).replies[0]).toMatchObject({ stdout: `${base['SHARED']} ${i} none` });
        }
      };
      const held = bases.slice(0, HOST_ENV_BASES);
      await round(held);
      await round(held);
      expect(host.basesSent).toBe(HOST_ENV_BASES);
      // The first part, used again, is the newest: a new part drops the second, not the first.
      await round([bases[0]!, bases[HOST_ENV_BASES]!, bases[0]!]);
      expect(host.basesSent).toBe(HOST_ENV_BASES + 1);
      await round([bases[1]!]);
      expect(host.basesSent).toBe(HOST_ENV_BASES + 2);
      host.close();
    });

    it(`drops parts beyond ${HOST_ENV_BASES} and sends a dropped one again`, async () => {
      const host = new ProcessHost();
      const bases = Array.from({ length: HOST_ENV_BASES + 2 }, (_, i) => Object.freeze({ ...baseEnv(), SHARED: `s${i}` }));
      const round = async (list: readonly Readonly<Record<string, string>>[]) => {
        for (const [i, base] of list.entries()) {
          expect(await host.chain(composed(base, { OWN: String(i) }), [req(show)]).replies[0]).toMatchObject({ stdout: `${base['SHARED']} ${i} none` });
        }
      };
      await round(bases.slice(0, HOST_ENV_BASES));
      expect(host.basesSent).toBe(HOST_ENV_BASES);
      // Two more than fit: the eight held are found, and the two new ones each drop the least
      // recently used part. In the next pass every part was dropped before its turn comes.
      await round(bases);
      expect(host.basesSent).toBe(HOST_ENV_BASES + 2);
      await round(bases);
      expect(host.basesSent).toBe(HOST_ENV_BASES + 2 + bases.length);
      host.close();
    });

    it('fails each run of a chain whose base the host does not hold, rather than run it with another environment', async () => {
      const child = spawn(process.execPath, ['-e', PROCESS_HOST_SOURCE], { stdio: ['pipe', 'pipe', 'ignore'], env: {} });
      let out = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (t: string) => (out += t));
      const line = (m: object) => child.stdin.write(JSON.stringify(m) + '\n');
      const run = (id: number) => ({ ...req('printf ran'), id });
      line({ t: 'e', id: 1, env: baseEnv() });
      line({ t: 'e', id: 1, env: null });
      line({ t: 'c', base: 1, vars: {}, runs: [run(10), run(11)] });
      line({ t: 'c', base: 7, vars: {}, runs: [run(12)] });
      line({ t: 'e', id: 2, env: baseEnv() });
      line({ t: 'c', base: 2, vars: {}, runs: [run(13)] });
      expect(await until(() => out.includes('"id":13,') && out.includes('"t":"d","id":13'))).toBe(true);
      const done = out.trim().split('\n').map((l) => JSON.parse(l) as { t: string; id?: number; spawnError?: string; stdout?: string }).filter((m) => m.t === 'd');
      expect(done.filter((m) => m.id !== 13)).toEqual([10, 11, 12].map((id) => ({ t: 'd', id, spawnError: 'Other' })));
      expect(done.find((m) => m.id === 13)).toMatchObject({ stdout: 'ran' });
      child.stdin.end();
      await new Promise((r) => child.once('close', r));
    });
  });

  it('pins the host program: a change to it must decide whether HOST_PROTOCOL moves', () => {
    // Copies of the package share a host when their HOST_PROTOCOL numbers are equal. If this
    // fails, the host program changed: bump HOST_PROTOCOL (process-host-source.ts) if the
    // messages or their fields changed, then put the new hash here.
    expect({ protocol: HOST_PROTOCOL, sha256: createHash('sha256').update(PROCESS_HOST_SOURCE).digest('hex') }).toEqual({
      protocol: 8,
      sha256: '019f5e181ac08732a043b25325922eb5e766768a5a5442ddea5f1bab7b528123',
    });
  });

  it('is one per process across copies of the package: one host, one table of live groups', () => {
    // Two copies of the bundle in one process, as in a TUI process (the binary's own bundled
    // copy and the one the TUI imports from node_modules): `?copy=b` loads the file again as
    // a separate module with its own module-level state.
    const dist = join(import.meta.dirname, '..', 'dist', 'index.js');
    expect(existsSync(dist), 'build the package first (pnpm test does)').toBe(true);
    const url = pathToFileURL(dist).href;
    const script = `const a = await import(${JSON.stringify(url)});
const b = await import(${JSON.stringify(`${url}?copy=b`)});
const h = { index: 0, name: 'h', label: 'h', event: 'turn_end', source: 'global', continueOnError: true, background: false };
const run = (m, command) => m.runHook({ hook: h, command, cwd: ${JSON.stringify(dir)}, env: { PATH: process.env.PATH }, stdin: null, timeoutSecs: 60 });
const shared = a.sharedProcessHost();
const out = { distinctModules: a.runHook !== b.runHook, sameHost: shared === b.sharedProcessHost() };
a.setSpawnMode('host');
out.modeSeenByB = b.spawnMode();
await a.sharedProcessHost().start();
const parentA = (await run(a, 'printf %s "$PPID"')).stdout;
const parentB = (await run(b, 'printf %s "$PPID"')).stdout;
out.bothInTheHost = parentA === parentB && Number(parentA) === a.sharedProcessHost().pid;
out.hostsStarted = a.sharedProcessHost().started;
// A group started through copy a is ended by copy b's kill-all (a surface's signal handler).
let leader;
const long = a.runHook({ hook: h, command: 'sleep 60', cwd: ${JSON.stringify(dir)}, env: { PATH: process.env.PATH }, stdin: null, timeoutSecs: 60, onSpawn: (pid) => (leader = pid) });
const deadline = Date.now() + 5000;
while (!b.liveProcessGroups().includes(leader) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
out.trackedInB = b.liveProcessGroups().includes(leader);
const t = Date.now();
b.killAllProcessGroups();
if (!out.trackedInB) a.killAllProcessGroups();
const o = await long;
out.killedByB = out.trackedInB && o.success === false && Date.now() - t < 10000;
out.tableEmpty = a.liveProcessGroups().length === 0 && b.liveProcessGroups().length === 0;
// A copy that speaks another protocol keeps hosts of its own: file the running host under
// protocol -1, as if the first copy were another version.
const state = globalThis[Symbol.for('codewhale.hooks-supervisor.process-state.v1')];
if (state) { state.hosts.set(-1, state.hosts.get(a.HOST_PROTOCOL)); state.hosts.delete(a.HOST_PROTOCOL); }
out.otherProtocolOwnHosts = b.sharedProcessHost() !== shared && b.sharedProcessHost() === b.sharedProcessHost();
shared.close();
console.log(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(r.stdout, r.stderr).not.toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      distinctModules: true,
      sameHost: true,
      modeSeenByB: 'host',
      bothInTheHost: true,
      hostsStarted: 1,
      trackedInB: true,
      killedByB: true,
      tableEmpty: true,
      otherProtocolOwnHosts: true,
    });
    expect(r.stderr).toBe('');
  });

  it('never makes a run wait for it: a single spawn starts no host, a second starts one in the background', () => {
    const dist = join(import.meta.dirname, '..', 'dist', 'index.js');
    expect(existsSync(dist), 'build the package first (pnpm test does)').toBe(true);
    const script = `const m = await import(${JSON.stringify(dist)});
m.setSpawnMode('host');
const h = { index: 0, name: 'h', label: 'h', event: 'turn_end', source: 'global', continueOnError: true, background: false };
const run = () => m.runHook({ hook: h, command: 'true', cwd: ${JSON.stringify(dir)}, env: { PATH: process.env.PATH }, stdin: null, timeoutSecs: 5 });
const a = await run();
const afterOne = m.sharedProcessHost().started;
const b = await run();
console.log(JSON.stringify([a.success, afterOne, b.success, m.sharedProcessHost().started]));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 10_000 });
    expect(JSON.parse(r.stdout)).toEqual([true, 0, true, 1]);
  });

  it('is warmed by warmProcessHost: started at once without a spawn, ready in the background, and the first run goes through it', () => {
    const dist = join(import.meta.dirname, '..', 'dist', 'index.js');
    expect(existsSync(dist), 'build the package first (pnpm test does)').toBe(true);
    const script = `const m = await import(${JSON.stringify(dist)});
m.setSpawnMode('host');
const host = m.sharedProcessHost();
const out = { warmed: m.warmProcessHost(), started: host.started, readyAtOnce: host.ready };
const deadline = Date.now() + 10000;
while (!host.ready && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
out.readyLater = host.ready;
out.warmedAgain = m.warmProcessHost();
const h = { index: 0, name: 'h', label: 'h', event: 'turn_end', source: 'global', continueOnError: true, background: false };
const o = await m.runHook({ hook: h, command: 'printf %s "$PPID"', cwd: ${JSON.stringify(dir)}, env: { PATH: process.env.PATH }, stdin: null, timeoutSecs: 5 });
out.firstRunInHost = Number(o.stdout) === host.pid;
out.hostsStarted = host.started;
host.close();
console.log(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(r.stdout, r.stderr).not.toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ warmed: true, started: 1, readyAtOnce: false, readyLater: true, warmedAgain: true, firstRunInHost: true, hostsStarted: 1 });
  });

  it('holds nothing while it warms: a process that ends before its host is ready ends, and the host with it', async () => {
    const dist = join(import.meta.dirname, '..', 'dist', 'index.js');
    const script = `const m = await import(${JSON.stringify(dist)});
m.setSpawnMode('host');
m.warmProcessHost();
const host = m.sharedProcessHost();
process.on('exit', () => console.log(JSON.stringify({ pid: host.pid, readyAtExit: host.ready })));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    const out = JSON.parse(r.stdout) as { pid: number; readyAtExit: boolean };
    // Held until ready, the process would have ended only after its host said so.
    expect(out).toEqual({ pid: expect.any(Number), readyAtExit: false });
    expect(await until(() => !alive(out.pid))).toBe(true);
  });

  it('is not warmed where it cannot start: after three hosts died before they were ready, warm() starts none', async () => {
    const host = new ProcessHost({ launch: () => ({ file: '/bin/sh', args: ['-c', 'exit 3'], sliced: false }) });
    for (let i = 0; i < 3; i++) {
      expect(host.warm()).toBe(true);
      await host.start();
    }
    expect(host.unavailable).toBe(true);
    expect(host.started).toBe(3);
    expect(host.warm()).toBe(false);
    expect(host.started).toBe(3);
  });

  it('is not warmed in the in-process mode', () => {
    const dist = join(import.meta.dirname, '..', 'dist', 'index.js');
    const script = `const m = await import(${JSON.stringify(dist)});
m.setSpawnMode('in-process');
console.log(JSON.stringify([m.warmProcessHost(), m.sharedProcessHost().pid ?? null, m.sharedProcessHost().started]));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(JSON.parse(r.stdout)).toEqual([false, null, 0]);
  });

  it('lets an idle host keep nothing alive, and reports spawn failures by kind', async () => {
    const o = await runHook(spec('true', { cwd: join(dir, 'missing') }));
    expect(o).toMatchObject({ spawnError: 'NotFound', error: 'hook process could not be started (NotFound)' });
  });
});

describe('the spawn mode setting', () => {
  it('reads CODEWHALE_PROCESS_HOST when no mode is forced', () => {
    const saved = process.env.CODEWHALE_PROCESS_HOST;
    setSpawnMode(null);
    try {
      for (const [value, mode] of [
        ['off', 'in-process'],
        ['0', 'in-process'],
        ['FALSE', 'in-process'],
        ['in-process', 'in-process'],
        ['on', 'host'],
        ['', 'host'],
      ] as const) {
        process.env.CODEWHALE_PROCESS_HOST = value;
        expect(spawnMode()).toBe(mode);
      }
      delete process.env.CODEWHALE_PROCESS_HOST;
      expect(spawnMode()).toBe('host');
      process.env.CODEWHALE_PROCESS_HOST = 'off';
      setSpawnMode('host');
      expect(spawnMode()).toBe('host');
    } finally {
      if (saved === undefined) delete process.env.CODEWHALE_PROCESS_HOST;
      else process.env.CODEWHALE_PROCESS_HOST = saved;
      setSpawnMode('host');
    }
  });
});

describe('how a host spawns', () => {
  it('uses codewhale-spawn where it was built, Node\'s handles on Node 20 otherwise or under CODEWHALE_HOST_SPAWN=handles, and child_process.spawn under CODEWHALE_HOST_SPAWN=child_process', async () => {
    const saved = process.env.CODEWHALE_HOST_SPAWN;
    const hosts: ProcessHost[] = [];
    const spawnerWith = async (value: string | undefined): Promise<string | null> => {
      if (value === undefined) delete process.env.CODEWHALE_HOST_SPAWN;
      else process.env.CODEWHALE_HOST_SPAWN = value;
      const host = new ProcessHost();
      hosts.push(host);
      expect(host.spawner).toBe(null);
      await host.start();
      // Every spawner runs the same request to the same result.
      const { done } = host.run({ mode: 'hook', file: '/bin/sh', args: ['-c', 'read x; echo "$x $0"; kill -TERM $$'], cwd: dir, env: baseEnv(), stdio: ['pipe', 'pipe', 'pipe'], input: 'doc', stdoutMax: 1024, stderrMax: 1024, timeoutMs: 10_000, graceMs: 1_000, reapMs: 1_000, drainMs: 1_000, shutdownMs: 1_000 });
      expect(await done).toMatchObject({ timedOut: false, exitCode: null, signal: 'SIGTERM', complete: true, stdout: 'doc /bin/sh\n', stderr: '' });
      return host.spawner;
    };
    const handles = process.versions.node.startsWith('20.') ? 'handles' : 'child_process';
    try {
      expect(await spawnerWith(undefined)).toBe(defaultHostSpawner());
      expect(await spawnerWith('yes')).toBe(defaultHostSpawner());
      expect(await spawnerWith('handles')).toBe(handles);
      expect(await spawnerWith(' HANDLES ')).toBe(handles);
      expect(await spawnerWith('child_process')).toBe('child_process');
      expect(await spawnerWith(' Child-Process ')).toBe('child_process');
    } finally {
      for (const h of hosts) h.close();
      if (saved === undefined) delete process.env.CODEWHALE_HOST_SPAWN;
      else process.env.CODEWHALE_HOST_SPAWN = saved;
    }
  });
});

describe('signalling a group that is gone', () => {
  it('reports ESRCH as a value, not a thrown error', () => {
    const child = spawn('true');
    return new Promise<void>((resolve) => {
      child.once('exit', () => {
        const gone = child.pid!;
        expect(rawKill(-gone, 0)).toBeLessThan(0);
        expect(signalProcessGroup(gone, 'SIGKILL')).toBe(false);
        expect(rawKill(process.pid, 0)).toBe(0);
        resolve();
      });
    });
  });
});
