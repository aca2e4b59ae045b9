// A host started by another host (the `h` request): the agent forks nothing for it, it talks
// to the agent over a socket, and every rule of a host this process spawned holds for it.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveProcessGroups } from './process-group.js';
import { HOST_NODE_OPTIONS, PROCESS_HOST_SOURCE } from './process-host-source.js';
import { overflowProcessHost, ProcessHost, sharedProcessHost, type HostRequest } from './process-host.js';
import { hostLaunch, type HostLaunch } from './sched-slice.js';
import { hostHookRequest, procTable, rawHost, until } from '../test/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cw-host-sib-'));
const alive = (pid: number) => procTable().some((p) => p.pid === pid && p.state !== 'Z' && p.state !== 'X');
const ppidOf = (pid: number) => procTable().find((p) => p.pid === pid)?.ppid;
/** The `connect=` path on a host's command line (where it was told to connect). */
const connectPath = (pid: number) =>
  readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .split('\0')
    .find((a) => a.startsWith('connect='))
    ?.slice('connect='.length);

const req = (cmd: string): HostRequest => hostHookRequest(cmd, dir, 60_000);

const hosts: ProcessHost[] = [];
/** A pair as the shared hosts are: `second` is started by `first` while that one is up. */
function pair(over: ConstructorParameters<typeof ProcessHost>[0] = {}): { first: ProcessHost; second: ProcessHost } {
  const first = new ProcessHost();
  const second = new ProcessHost({ starter: () => first, ...over });
  hosts.push(first, second);
  return { first, second };
}

afterEach(async () => {
  const pids = hosts.map((h) => h.pid).filter((p): p is number => p !== undefined);
  for (const h of hosts.splice(0)) h.close();
  expect(await until(() => pids.every((p) => !alive(p)), 10_000)).toBe(true);
});

describe('a host started by another host', () => {
  it('is the child of the host that started it, not of this process, and runs hooks as any host', async () => {
    const { first, second } = pair();
    await first.start();
    await second.start();
    expect(second.byHost).toBe(true);
    expect(second.startedByHost).toBe(1);
    expect(ppidOf(second.pid!)).toBe(first.pid);
    // This process forked no second host.
    expect(procTable().filter((p) => p.ppid === process.pid && p.comm === 'node').map((p) => p.pid)).not.toContain(second.pid);
    // The starter's slice comes by inheritance.
    expect(second.sliced).toBe(first.sliced);
    const reply = await second.run(req('printf "$PPID"')).done;
    expect(reply).toMatchObject({ exitCode: 0, stdout: String(second.pid) });
    // Its listener's directory went as soon as the host connected.
    const path = connectPath(second.pid!)!;
    expect(path).toMatch(/cw-hostlink-/);
    expect(existsSync(dirname(path))).toBe(false);
  });

  it('is spawned from this process when no starter is up', async () => {
    const { second } = pair();
    await second.start();
    expect(second.byHost).toBe(false);
    expect(second.startedByHost).toBe(0);
    expect(ppidOf(second.pid!)).toBe(process.pid);
  });

  it('starts a grown host\'s replacement from the grown host', async () => {
    const h = new ProcessHost({ collectAfterBytes: 0, growthLimitBytes: -(2 ** 40) });
    hosts.push(h);
    await h.start();
    const grown = h.pid!;
    await h.run(req('printf x')).done;
    await new Promise((r) => setTimeout(r, 300));
    await h.run(req('printf x')).done;
    // Nothing in flight: the replacement takes over the moment it is ready.
    expect(await until(() => h.replaced === 1, 10_000)).toBe(true);
    expect(h.pid).not.toBe(grown);
    expect(h.byHost).toBe(true);
    expect(h.startedByHost).toBe(1);
    // Its parent was the grown host, which has exited since: it is not this process's child.
    expect(ppidOf(h.pid!)).not.toBe(process.pid);
    expect(await until(() => !alive(grown), 10_000)).toBe(true);
    expect(await h.run(req('printf again')).done).toMatchObject({ stdout: 'again' });
  });

  it('closed on purpose while it starts: no failure, so the next one is started by a host again', async () => {
    const { first, second } = pair();
    await first.start();
    for (let i = 0; i < 3; i++) {
      const starting = second.start();
      second.close();
      await starting;
      expect(await until(() => second.pid === undefined && !second.ready)).toBe(true);
    }
    await second.start();
    expect(second.byHost).toBe(true);
    expect(second.startedByHost).toBe(4);
    // And a host spawned from here, closed as it starts three times, is no sandbox that forbids hosts.
    const alone = new ProcessHost();
    hosts.push(alone);
    for (let i = 0; i < 3; i++) {
      const starting = alone.start();
      alone.close();
      await starting;
    }
    expect(alone.unavailable).toBe(false);
  });

  it('lives on when its starter dies, and its starter\'s death costs it nothing', async () => {
    const { first, second } = pair();
    await first.start();
    await second.start();
    process.kill(first.pid!, 'SIGKILL');
    expect(await until(() => first.pid === undefined)).toBe(true);
    expect(await second.run(req('printf still')).done).toMatchObject({ stdout: 'still' });
    expect(second.byHost).toBe(true);
  });

  it('killed with SIGKILL: its groups are killed from here, its runs have no result, and the next run gets a new host', async () => {
    const { first, second } = pair();
    await first.start();
    await second.start();
    const victim = second.pid!;
    let pid = 0;
    const run = second.run(req('sleep 60'), (p) => (pid = p));
    expect(await until(() => pid > 0)).toBe(true);
    expect(liveProcessGroups()).toContain(pid);
    process.kill(victim, 'SIGKILL');
    expect(await run.done).toEqual({ lost: true });
    expect(await until(() => !alive(pid))).toBe(true);
    expect(liveProcessGroups()).not.toContain(pid);
    expect(await second.run(req('printf next')).done).toMatchObject({ stdout: 'next' });
    expect(second.pid).not.toBe(victim);
    expect(second.startedByHost).toBe(2);
  });

  it('ends with the agent, and so does everything it runs', async () => {
    const dist = join(import.meta.dirname, '..', 'dist', 'index.js');
    expect(existsSync(dist), 'build the package first (pnpm test does)').toBe(true);
    const script = `const m = await import(${JSON.stringify(dist)});
const a = new m.ProcessHost();
const b = new m.ProcessHost({ starter: () => a });
await a.start();
await b.start();
let pid = 0;
b.run(${JSON.stringify(req('sleep 60'))}, (p) => { pid = p; console.log(JSON.stringify({ a: a.pid, b: b.pid, byHost: b.byHost, run: pid })); });
await new Promise(() => {});`;
    const agent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    agent.stdout.on('data', (c: Buffer) => (out += c.toString()));
    expect(await until(() => out.includes('\n'), 15_000)).toBe(true);
    const seen = JSON.parse(out) as { a: number; b: number; byHost: boolean; run: number };
    expect(seen.byHost).toBe(true);
    expect([seen.a, seen.b, seen.run].every(alive)).toBe(true);
    agent.kill('SIGKILL');
    expect(await until(() => ![seen.a, seen.b, seen.run].some(alive), 10_000)).toBe(true);
  });
});

describe('a host started by another host that fails', () => {
  /** Hosts started by a host run `program` instead of the host; hosts spawned from here are real. */
  const failingByHost = (program: string) => (sliceAllowed: boolean): HostLaunch =>
    sliceAllowed ? hostLaunch(process.execPath, PROCESS_HOST_SOURCE, true) : { file: process.execPath, args: ['-e', program], sliced: false };

  it('that cannot be started: the run sent to it goes to a host spawned from here, and later hosts are spawned from here', async () => {
    const { first, second } = pair({ launch: (sliceAllowed) => (sliceAllowed ? hostLaunch(process.execPath, PROCESS_HOST_SOURCE, true) : { file: join(dir, 'no-such-node'), args: [], sliced: false }) });
    await first.start();
    // Sent before any host of `second` exists: it waits for the one being started.
    const reply = await second.run(req('printf saved')).done;
    expect(reply).toMatchObject({ exitCode: 0, stdout: 'saved' });
    expect(second.byHost).toBe(false);
    expect(ppidOf(second.pid!)).toBe(process.pid);
    expect(second.unavailable).toBe(false);
  });

  it('that never connects: after the connect timeout, the same', async () => {
    const { first, second } = pair({ launch: failingByHost('setTimeout(() => {}, 5000)'), connectTimeoutMs: 300 });
    await first.start();
    const reply = await second.run(req('printf late')).done;
    expect(reply).toMatchObject({ stdout: 'late' });
    expect(second.byHost).toBe(false);
  });

  it('that connects and never says it is ready: cut off after the timeout, the same', async () => {
    const program = `const at = process.argv.find((a) => a.startsWith('connect=')).slice(8);
const s = require('node:net').connect(at); s.on('close', () => process.exit(0)); setTimeout(() => {}, 5000);`;
    const { first, second } = pair({ launch: failingByHost(program), connectTimeoutMs: 300 });
    await first.start();
    expect(await second.run(req('printf patient')).done).toMatchObject({ stdout: 'patient' });
    expect(second.byHost).toBe(false);
  });

  it('that says another pid: it is cut off and sent nothing, and the run goes to a host spawned from here', async () => {
    // An impostor: connects where a host would, says it is ready with a pid that is not its
    // own, and writes down what it is sent and the mode of the directory it found.
    const log = join(dir, 'impostor.log');
    const program = `const fs = require('node:fs'); const path = require('node:path');
const at = process.argv.find((a) => a.startsWith('connect=')).slice(8);
fs.writeFileSync(${JSON.stringify(log)}, 'mode ' + (fs.statSync(path.dirname(at)).mode & 0o777).toString(8) + '\\n');
const s = require('node:net').connect(at, () => s.write(JSON.stringify({ t: 'ready', spawner: 'child_process', pid: 1 }) + '\\n'));
s.on('data', (d) => fs.appendFileSync(${JSON.stringify(log)}, 'got ' + d));
s.on('close', () => { fs.appendFileSync(${JSON.stringify(log)}, 'closed\\n'); process.exit(0); });`;
    const { first, second } = pair({ launch: failingByHost(program) });
    await first.start();
    const reply = await second.run(req('printf honest')).done;
    expect(reply).toMatchObject({ stdout: 'honest' });
    expect(second.byHost).toBe(false);
    expect(await until(() => existsSync(log) && readFileSync(log, 'utf8').includes('closed'))).toBe(true);
    // A directory only this user can enter, and not one byte of a request sent.
    expect(readFileSync(log, 'utf8')).toBe('mode 700\nclosed\n');
  });
});

describe('the h request', () => {
  it('answers a malformed or failing request with a spawn error and starts nothing', async () => {
    const { child: host, output } = rawHost();
    try {
      expect(await until(() => output().includes('"ready"'))).toBe(true);
      const bad = [
        { t: 'h', id: 1, file: 5, args: [] },
        { t: 'h', id: 2, file: process.execPath, args: 'x' },
        { t: 'h', id: 3, file: process.execPath, args: ['-e', 'a\0b'] },
        { t: 'h', id: 4, file: join(dir, 'no-such-program'), args: [] },
      ];
      for (const q of bad) host.stdin.write(JSON.stringify(q) + '\n');
      expect(await until(() => output().split('\n').filter((l) => l.includes('"t":"d"')).length === 4)).toBe(true);
      const replies = output().trim().split('\n').slice(1).map((l) => JSON.parse(l) as { id: number; spawnError?: string; pid?: number });
      expect(replies.sort((a, b) => a.id - b.id)).toEqual([
        { t: 'd', id: 1, spawnError: 'Other' },
        { t: 'd', id: 2, spawnError: 'Other' },
        { t: 'd', id: 3, spawnError: 'Other' },
        { t: 'd', id: 4, spawnError: 'ENOENT' },
      ]);
      expect(procTable().filter((p) => p.ppid === host.pid && p.state !== 'Z')).toEqual([]);
    } finally {
      host.stdin.end();
    }
  });
});

describe('the shared hosts', () => {
  it('start each other: the second host for overlapping runs is started by the first', async () => {
    const primary = sharedProcessHost();
    const overflow = overflowProcessHost();
    await primary.start();
    await overflow.start();
    try {
      expect(overflow.byHost).toBe(true);
      expect(ppidOf(overflow.pid!)).toBe(primary.pid);
      // The first host's own program is what both run.
      expect(readFileSync(`/proc/${overflow.pid}/cmdline`, 'utf8')).toContain(PROCESS_HOST_SOURCE.slice(0, 200));
      expect(readFileSync(`/proc/${overflow.pid}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining([...HOST_NODE_OPTIONS]));
    } finally {
      const pids = [primary.pid!, overflow.pid!];
      overflow.close();
      primary.close();
      expect(await until(() => pids.every((p) => !alive(p)), 10_000)).toBe(true);
    }
  });
});
