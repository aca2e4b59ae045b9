import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { foldToolCallBefore } from '@codewhale/hooks-payloads';
import { HOST_LOST, runHook, type RunSpec } from './run-hook.js';
import { liveProcessGroups, rawKill, signalProcessGroup } from './process-group.js';
import { setSpawnMode, sharedProcessHost, spawnMode } from './process-host.js';
import { baseEnv, expectNoLeftovers, identity, procTable } from '../test/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cw-host-'));
const spawned: number[] = [];

function spec(command: string, over: Partial<RunSpec> = {}): RunSpec {
  return { hook: identity(), command, cwd: dir, env: baseEnv(), stdin: null, timeoutSecs: 30, onSpawn: (pid) => spawned.push(pid), ...over };
}

const alive = (pid: number) => procTable().some((p) => p.pid === pid && p.state !== 'Z' && p.state !== 'X');

async function until(check: () => boolean, ms = 4_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

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
