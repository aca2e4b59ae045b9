import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeSpawnerPath } from './process-host-native.js';
import { ProcessHost, spawnHostNatively, type HostReply, type HostRequest, type HostSpawner } from './process-host.js';
import { baseEnv, hostHookRequest, procTable, rawHost, until } from '../test/helpers.js';

// codewhale-spawn, the host's posix_spawn (Linux). The whole supervisor suite runs through it
// (it is the host's default where it was built); these tests hold it to what the handles
// spawner gives a child, one field at a time, and check its fallbacks.
const linux = process.platform === 'linux';
const osSignals = constants.signals as Record<string, number>;
const built = nativeSpawnerPath() !== null;
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-native-')));

/** A host request with generous limits: `file` with `args`, no stdin unless `input`. */
function request(file: string, args: string[], over: Partial<HostRequest> = {}): HostRequest {
  return { ...hostHookRequest('', dir), file, args, ...over } as HostRequest;
}

describe('codewhale-spawn is built', () => {
  it.runIf(linux)('wherever this machine has a C compiler and Node\'s headers, unless CODEWHALE_NATIVE_BUILD=off', () => {
    const cc = spawnSync(process.env.CC || 'cc', ['--version'], { stdio: 'ignore' }).status === 0;
    const headers = existsSync(join(dirname(process.execPath), '..', 'include', 'node', 'node_api.h'));
    const off = (process.env.CODEWHALE_NATIVE_BUILD ?? '').trim().toLowerCase() === 'off';
    expect(built).toBe(cc && headers && !off);
  });
});

describe.runIf(built)('a host spawning through codewhale-spawn', () => {
  const hosts = new Map<HostSpawner, ProcessHost>();
  const saved = process.env.CODEWHALE_HOST_SPAWN;

  beforeAll(async () => {
    for (const [spawner, setting] of [['native', undefined], ['handles', 'handles'], ['child_process', 'child_process']] as const) {
      if (setting === undefined) delete process.env.CODEWHALE_HOST_SPAWN;
      else process.env.CODEWHALE_HOST_SPAWN = setting;
      const host = new ProcessHost();
      await host.start();
      expect(host.spawner).toBe(spawner);
      hosts.set(spawner, host);
    }
  });
  afterAll(() => {
    for (const host of hosts.values()) host.close();
    if (saved === undefined) delete process.env.CODEWHALE_HOST_SPAWN;
    else process.env.CODEWHALE_HOST_SPAWN = saved;
  });

  const run = (spawner: HostSpawner, q: HostRequest): Promise<HostReply> => hosts.get(spawner)!.run(q).done;
  /** The same request through all three spawners. */
  const everyWay = async (q: HostRequest): Promise<Record<HostSpawner, HostReply>> => ({
    native: await run('native', q),
    handles: await run('handles', q),
    child_process: await run('child_process', q),
  });

  it('gives the child what the handles give it: its own session, no blocked or ignored signal, its three descriptors, its directory', async () => {
    // Read by the shell itself: dash blocks every signal while it starts a command, so a
    // command that read the shell's mask could see that. Socket inode numbers differ from run
    // to run, and so do the names of stdin files (inode numbers); their kind does not.
    const report = [
      'while read -r l; do case $l in SigBlk*|SigIgn*) echo "$l";; esac; done < /proc/$$/status',
      'set -- $(sed "s/^.*) //" /proc/$$/stat); [ "$3" = $$ ] && [ "$4" = $$ ] && echo own-session',
      'for fd in $(ls /proc/$$/fd); do echo "$fd $(readlink /proc/$$/fd/$fd | sed "s/:\\[[0-9]*\\]//; s/#[0-9]*/#/")"; done',
      'pwd -P',
    ].join('; ');
    for (const input of [null, 'a document']) {
      const got = await everyWay(request('/bin/sh', ['-c', report], { input }));
      expect(got.native).toMatchObject({ exitCode: 0, stderr: '' });
      expect(got.native['stdout']).toBe(got.handles['stdout']);
      expect(got.native['stdout']).toBe(got.child_process['stdout']);
      const lines = String(got.native['stdout']).split('\n');
      expect(lines).toEqual(expect.arrayContaining(['SigBlk:\t0000000000000000', 'SigIgn:\t0000000000000000', 'own-session', '1 socket', '2 socket', dir]));
      expect(lines).toEqual(expect.arrayContaining([input === null ? '0 /dev/null' : expect.stringMatching(/^0 \/(dev\/shm|tmp)\/.* \(deleted\)$/)]));
    }
  });

  it('lets a child die of SIGPIPE, as a shell pipeline expects (the host itself ignores it)', async () => {
    const got = await everyWay(request('/bin/sh', ['-c', 'yes | head -c 3; echo " $?"']));
    expect(got.native).toMatchObject({ exitCode: 0, stdout: 'y\ny 0\n', stderr: '' });
    expect(got.handles).toMatchObject({ stdout: got.native['stdout'], stderr: '' });
  });

  it('passes any argument vector and any environment through unchanged', async () => {
    const text = fc.string({ unit: 'binary', maxLength: 24 }).filter((s) => !s.includes('\0'));
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { maxLength: 6 }),
        fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/), text, { maxKeys: 6 }),
        async (args, env) => {
          const printed = await run('native', request('/bin/sh', ['-c', 'printf "%s\\0" "$0" "$@"', 'sh', ...args]));
          expect(printed['stdout']).toBe(['sh', ...args].map((a) => `${Buffer.from(a, 'utf8').toString('utf8')}\0`).join(''));
          const shown = await run('native', request('/usr/bin/env', ['-0'], { env }));
          const entries = String(shown['stdout']).split('\0').filter((e) => e !== '').sort();
          expect(entries).toEqual(Object.entries(env).map(([k, v]) => `${k}=${v}`).sort());
        },
      ),
      { numRuns: 40 },
    );
  });

  it('reports every exit code and every terminating signal as the handles do', async () => {
    // Every signal from 1 to 31 whose default action ends a process, by the names Node gives.
    const stays = new Set(['SIGCHLD', 'SIGCONT', 'SIGSTOP', 'SIGTSTP', 'SIGTTIN', 'SIGTTOU', 'SIGURG', 'SIGWINCH']);
    const signals = [...new Set(Object.entries(osSignals).filter(([name, n]) => n >= 1 && n <= 31 && !stays.has(name)).map(([, n]) => n))];
    const same = async (cmd: string): Promise<HostReply> => {
      const q = request('/bin/sh', ['-c', cmd]);
      const [native, handles] = [await run('native', q), await run('handles', q)];
      expect({ exitCode: native['exitCode'], signal: native['signal'] }).toEqual({ exitCode: handles['exitCode'], signal: handles['signal'] });
      return native;
    };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 255 }), async (code) => {
        expect(await same(`exit ${code}`)).toMatchObject({ exitCode: code, signal: null });
      }),
      { numRuns: 40 },
    );
    for (const n of signals) expect(await same(`kill -${n} $$`)).toMatchObject({ exitCode: null, signal: expect.stringMatching(/^SIG[A-Z0-9]+$/) });
  });

  it('fails to start exactly where the handles fail, with the same error', async () => {
    const plainFile = join(dir, 'not-executable');
    writeFileSync(plainFile, 'echo no\n');
    chmodSync(plainFile, 0o644);
    for (const [q, code] of [
      [request('/nonexistent/program', []), 'ENOENT'],
      [request(plainFile, []), 'EACCES'],
      [request('/bin/sh', ['-c', 'true'], { cwd: join(dir, 'missing') }), 'ENOENT'],
    ] as const) {
      const got = await everyWay(q);
      expect(got.native).toMatchObject({ spawnError: code });
      expect(got.handles).toMatchObject({ spawnError: code });
    }
  });

  it('reaps every child it started', async () => {
    const host = hosts.get('native')!;
    await Promise.all(Array.from({ length: 20 }, (_, i) => host.run(request('/bin/sh', ['-c', `exit ${i % 3}`])).done));
    const zombies = () => procTable().filter((p) => p.ppid === host.pid && p.state === 'Z');
    expect(await until(() => zombies().length === 0, 2_000)).toBe(true);
  });
});

describe.runIf(built)("this process's own start of a host", () => {
  const saved = process.env.CODEWHALE_HOST_SPAWN;
  afterAll(() => {
    if (saved === undefined) delete process.env.CODEWHALE_HOST_SPAWN;
    else process.env.CODEWHALE_HOST_SPAWN = saved;
  });
  const ourZombies = () => procTable().filter((p) => p.ppid === process.pid && p.state === 'Z');

  it('uses codewhale-spawn too: the host is this process\'s child on two sockets, runs hooks, and is reaped when it dies', async () => {
    delete process.env.CODEWHALE_HOST_SPAWN;
    const host = new ProcessHost();
    try {
      await host.start();
      expect(host.startedNatively).toBe(true);
      const pid = host.pid!;
      expect(procTable().find((p) => p.pid === pid)?.ppid).toBe(process.pid);
      const fds = ['0', '1', '2'].map((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`).replace(/\[\d+\]/, ''));
      expect(fds).toEqual(['socket:', 'socket:', '/dev/null']);
      expect(await host.run(request('/bin/sh', ['-c', 'echo through'])).done).toMatchObject({ exitCode: 0, stdout: 'through\n' });
      // Killed: the run in flight is lost, the host is reaped, and the next run has a new one.
      const inFlight = host.run(request('/bin/sh', ['-c', 'sleep 5'])).done;
      await until(() => host.inFlight > 0 && procTable().some((p) => p.ppid === pid));
      process.kill(pid, 'SIGKILL');
      expect(await inFlight).toMatchObject({ lost: true });
      expect(await until(() => procTable().every((p) => p.pid !== pid), 5_000)).toBe(true);
      expect(ourZombies().filter((p) => p.pid === pid)).toEqual([]);
      expect(await host.run(request('/bin/sh', ['-c', 'echo again'])).done).toMatchObject({ exitCode: 0, stdout: 'again\n' });
      expect(host.pid).not.toBe(pid);
      expect(host.startedNatively).toBe(true);
    } finally {
      host.close();
    }
    // Closed: it exits when its stdin closes, and is reaped.
    expect(await until(() => ourZombies().length === 0 && host.pid === undefined, 5_000)).toBe(true);
  });

  it('gives a started host a kill, and reaps it with its exit code or signal once its stdout closes', async () => {
    const exited = spawnHostNatively('/bin/sh', ['-c', 'exit 3'])!;
    const killed = spawnHostNatively('/bin/sleep', ['30'])!;
    expect(killed.kill('SIGKILL')).toBe(true);
    for (const child of [exited, killed]) child.stdout!.resume();
    expect(await until(() => exited.exitCode !== null && killed.signalCode !== null, 5_000)).toBe(true);
    expect({ code: exited.exitCode, signal: exited.signalCode }).toEqual({ code: 3, signal: null });
    expect({ code: killed.exitCode, signal: killed.signalCode }).toEqual({ code: null, signal: 'SIGKILL' });
    // Reaped: gone from the process table, and a kill now is refused rather than sent.
    expect(procTable().some((p) => p.pid === exited.pid || p.pid === killed.pid)).toBe(false);
    expect(killed.kill('SIGKILL')).toBe(false);
    // A program without a path is left to child_process, and so is one that cannot start
    // (child_process then reports its error as before).
    expect(spawnHostNatively('sh', ['-c', 'true'])).toBeNull();
    expect(spawnHostNatively(join(dir, 'no-such-launcher'), [])).toBeNull();
  });

  it('forks as before under CODEWHALE_HOST_SPAWN=handles', async () => {
    process.env.CODEWHALE_HOST_SPAWN = 'handles';
    const host = new ProcessHost();
    try {
      await host.start();
      expect(host.startedNatively).toBe(false);
      expect(host.spawner).toBe('handles');
    } finally {
      host.close();
    }
  });
});

describe.runIf(built)('a host whose codewhale-spawn is missing or broken', () => {
  const readySpawner = async (arg: string): Promise<unknown> => {
    const { child, output } = rawHost([arg]);
    try {
      expect(await until(() => output().includes('"t":"ready"'), 10_000)).toBe(true);
      const ready = JSON.parse(output().split('\n').find((l) => l.includes('"t":"ready"'))!) as { spawner: string };
      // It still runs hooks.
      child.stdin.write(`${JSON.stringify({ t: 'r', id: 1, ...hostHookRequest('echo ran', dir), env: baseEnv() })}\n`);
      expect(await until(() => output().includes('"id":1,"timedOut":false,"exitCode":0'), 10_000)).toBe(true);
      expect(output()).toContain('"stdout":"ran\\n"');
      return ready.spawner;
    } finally {
      child.stdin.end();
    }
  };

  it('spawns through codewhale-spawn when it is named and loads', async () => {
    expect(await readySpawner(`native=${nativeSpawnerPath()!}`)).toBe('native');
  });

  it('spawns through the handles when the file named is not there', async () => {
    expect(await readySpawner(`native=${join(dir, 'no-such.node')}`)).toBe('handles');
  });

  it('drops a spawner that loads but cannot start its warm-up, and spawns through the handles', async () => {
    // A stand-in whose every spawn fails as a sandbox that refuses the clone would (ENOSYS).
    const fake = join(dir, 'refusing-spawner.cjs');
    writeFileSync(fake, 'exports.spawn = () => [-38]; exports.reap = () => -2;\n');
    expect(await readySpawner(`native=${fake}`)).toBe('handles');
  });
});
