import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { foldToolCallBefore } from '@codewhale/hooks-payloads';
import { runHook, type RunSpec } from './run-hook.js';
import { liveProcessGroups } from './process-group.js';
import { spawnerInUse } from './spawn/launch.js';
import { baseEnv, expectNoLeftovers, identity, liveInGroups, procTable, SPAWNERS, useSpawner } from '../test/helpers.js';

const spawned: number[] = [];
const dir = mkdtempSync(join(tmpdir(), 'cw-run-hook-'));

function spec(command: string, over: Partial<RunSpec> = {}): RunSpec {
  return {
    hook: identity(),
    command,
    cwd: dir,
    env: baseEnv(),
    stdin: null,
    timeoutSecs: 5,
    onSpawn: (pid) => spawned.push(pid),
    ...over,
  };
}

afterEach(async () => {
  await expectNoLeftovers(spawned);
  spawned.length = 0;
});

// Every rule holds on both ways of starting a process: posix_spawn through codewhale-spawn
// (the default where it loads) and child_process.
describe.each(SPAWNERS)('runHook (%s)', (spawner) => {
  beforeAll(() => {
    useSpawner(spawner);
    expect(spawnerInUse()).toBe(spawner);
  });
  afterAll(() => useSpawner(null));

  it('captures stdout and stderr separately and reports the exit code', async () => {
    const o = await runHook(spec('printf out; printf err >&2; exit 3'));
    expect(o).toMatchObject({ success: false, exitCode: 3, signal: null, timedOut: false, spawnError: null, error: null, stdout: 'out', stderr: 'err' });
    expect(o.stdoutTruncated).toBe(false);
  });

  it('captures nothing (and opens no output pipes) for a run whose output is discarded', async () => {
    const o = await runHook(spec('echo out; echo err >&2; exit 0', { captureOutput: false }));
    expect(o).toMatchObject({ success: true, exitCode: 0, stdout: '', stderr: '', stdoutTruncated: false });
  });

  it('gives the hook EOF on stdin when there is no payload, never the terminal', async () => {
    const o = await runHook(spec('printf "stdin-bytes=%s" "$(wc -c | tr -d " ")"'));
    expect(o.stdout).toBe('stdin-bytes=0');
  });

  it('writes the payload and exactly one newline to stdin', async () => {
    const o = await runHook(spec('od -An -c | tr -s " " | tr -d "\\n"', { stdin: '{"a":1}' }));
    expect(o.stdout.trim()).toBe('{ " a " : 1 } \\n');
  });

  it('gives the payload through a pipe, and no payload as /dev/null', async () => {
    const probe = 'stat -L -c "%F" /proc/self/fd/0; cat';
    const withDoc = await runHook(spec(probe, { stdin: '{"secret":"s3"}' }));
    const [kind, body] = withDoc.stdout.split('\n');
    expect(kind).toMatch(/^(socket|fifo)$/);
    expect(body).toBe('{"secret":"s3"}');
    const none = await runHook(spec('stat -L -c "%F" /proc/self/fd/0; readlink /proc/self/fd/0'));
    expect(none.stdout.split('\n').slice(0, 2)).toEqual([expect.stringMatching(/character special file$/), '/dev/null']);
  });

  it('sends a 4 MiB payload whole', async () => {
    const o = await runHook(spec('wc -c', { stdin: 'x'.repeat(4 * 1024 * 1024) }));
    expect(o.stdout.trim()).toBe(String(4 * 1024 * 1024 + 1));
  });

  it('keeps no descriptor of a run open after it ends', async () => {
    const count = () => readdirSync('/proc/self/fd').length;
    await runHook(spec('cat >/dev/null', { stdin: '{}' }));
    const before = count();
    for (let i = 0; i < 40; i++) await runHook(spec('cat >/dev/null; echo out; echo err >&2', { stdin: `{"i":${i}}` }));
    expect(count()).toBeLessThan(before + 5);
  });

  it('gives the hook no descriptor of this process but its three, even with other runs in flight', async () => {
    // Descriptors this process holds without close-on-exec (inherited from whoever started it)
    // reach any child; everything this package opens is close-on-exec.
    const inheritable = () =>
      readdirSync('/proc/self/fd')
        .map(Number)
        .filter(
          (fd) =>
            fd > 2 &&
            (() => {
              try {
                return (Number.parseInt(/^flags:\s+(\d+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1] ?? '0', 8) & 0o2000000) === 0;
              } catch {
                return false;
              }
            })(),
        );
    const others = Array.from({ length: 3 }, () => runHook(spec('sleep 0.5', { stdin: '{}' })));
    await new Promise((r) => setTimeout(r, 100));
    const allowed = new Set(inheritable());
    const o = await runHook(spec('ls /proc/$$/fd', { stdin: '{}' }));
    const fds = o.stdout
      .trim()
      .split('\n')
      .map(Number)
      .sort((a, b) => a - b);
    expect(fds.slice(0, 3)).toEqual([0, 1, 2]);
    expect(fds.filter((fd) => fd > 2 && !allowed.has(fd))).toEqual([]);
    await Promise.all(others);
  });

  it('lets go of unwritten input that a process which escaped the group holds open', async () => {
    const pidFile = join(dir, `holds-stdin-${spawner}.pid`);
    const sockets = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:');
        } catch {
          return false;
        }
      }).length;
    const before = sockets();
    // The escaped child keeps stdin open and never reads it, so 4 MiB can never be written.
    await runHook(
      spec(`exec 3<&0; setsid sh -c 'echo $$ > ${pidFile}; exec sleep 30' 0<&3 3<&- & while [ ! -s ${pidFile} ]; do sleep 0.01; done`, { stdin: 'x'.repeat(4 * 1024 * 1024), captureOutput: false }),
    );
    try {
      expect(sockets()).toBeLessThanOrEqual(before);
    } finally {
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    }
  });

  it('runs with the given cwd and only the given environment', async () => {
    const o = await runHook(spec('printf "%s|%s|%s" "$PWD" "$ONLY_THIS" "${NOT_THIS:-unset}"', { env: baseEnv({ ONLY_THIS: 'yes' }) }));
    expect(o.stdout).toBe(`${dir}|yes|unset`);
  });

  it('times out with the exact error, empty output, and kills the whole group including a grandchild', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    const started = Date.now();
    const o = await runHook(spec(`sleep 30 & echo $! > ${pidFile}; echo partial; sleep 30`, { timeoutSecs: 1 }));
    const elapsed = Date.now() - started;
    expect(o).toMatchObject({ success: false, exitCode: null, timedOut: true, error: 'Hook timed out after 1s', stdout: '', stderr: '' });
    // A liveness bound, not a speed check: the timeout, the grace and the reap window, with room.
    expect(elapsed).toBeLessThan(15_000);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(liveInGroups(spawned).map((p) => p.pid)).not.toContain(grandchild);
  });

  it('leaves nothing behind after a timeout that keeps the calling process alive', async () => {
    // A separate Node process runs one timed-out hook through the built package and exits
    // when nothing is pending. A forgotten 2 s reap-window timer would hold it for > 2 s.
    const dist = join(import.meta.dirname, '..', 'dist', 'index.js');
    expect(existsSync(dist), 'build the package first (pnpm test does)').toBe(true);
    const script = `const m = await import(${JSON.stringify(dist)});
const o = await m.runHook({ hook: { index: 0, name: 'h', label: 'h', event: 'turn_end', source: 'global', continueOnError: true, background: false }, command: 'sleep 30', cwd: ${JSON.stringify(dir)}, env: { PATH: process.env.PATH }, stdin: null, timeoutSecs: 1, timeoutMs: 100, killGraceMs: 50 });
console.log(o.error);
const ended = performance.now();
process.on('exit', () => console.log('lingered ' + Math.round(performance.now() - ended)));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 10_000 });
    const [error, lingered] = r.stdout.trim().split('\n');
    expect(error).toBe('Hook timed out after 1s');
    // How long the process stayed up after the hook's outcome (start-up and load do not count).
    expect(Number(/^lingered (\d+)$/.exec(lingered ?? '')?.[1] ?? Infinity)).toBeLessThan(1_000);
  });

  it('escalates to SIGKILL for a hook that traps SIGTERM', async () => {
    const o = await runHook(spec(`trap '' TERM; sleep 30 & wait; sleep 30`, { timeoutMs: 300, timeoutSecs: 1, killGraceMs: 200 }));
    expect(o.timedOut).toBe(true);
    expect(o.error).toBe('Hook timed out after 1s');
    // SIGTERM was ignored, so only the SIGKILL after the grace ended it.
    expect(o.durationMs).toBeGreaterThanOrEqual(300 + 200 - 20);
  });

  it('reports a hook whose exit cannot be confirmed after the kill', async () => {
    const o = await runHook(spec('sleep 30', { timeoutMs: 100, timeoutSecs: 1, killGraceMs: 50, reapWindowMs: 100, simulateUnreapable: true }));
    expect(o.error).toBe('hook could not be reaped after its timeout');
    expect(o.timedOut).toBe(true);
  });

  it('kills what a hook left behind in its group when it exits normally (D15)', async () => {
    const pidFile = join(dir, 'left.pid');
    const o = await runHook(spec(`sleep 30 >/dev/null 2>&1 & echo $! > ${pidFile}; echo done`));
    expect(o).toMatchObject({ success: true, exitCode: 0, stdout: 'done\n' });
    // expectNoLeftovers (afterEach) checks that the backgrounded sleep did not survive.
    expect(Number(readFileSync(pidFile, 'utf8'))).toBeGreaterThan(0);
  });

  it('does not wait for a backgrounded child that holds the stdout pipe', async () => {
    const started = Date.now();
    const o = await runHook(spec('sleep 30 & echo quick'));
    expect(o.stdout).toBe('quick\n');
    // The 5 s drain window would be reached if it waited for the child.
    expect(Date.now() - started).toBeLessThan(4_500);
  });

  it('reports output held open by a child that escaped the group (setsid) as no verdict, after the drain window', async () => {
    const pidFile = join(dir, `escaped-${spawner}.pid`);
    const started = Date.now();
    // The hook waits until its child has really left the group (it writes its pid only after
    // setsid), so the group kill at exit cannot catch it first.
    const o = await runHook(
      spec(`echo '{"decision":"allow"}'; setsid sh -c 'echo $$ > ${pidFile}; exec sleep 31' & while [ ! -s ${pidFile} ]; do sleep 0.01; done; exit 0`, {
        hook: identity('gate', { continueOnError: false }),
      }),
    );
    // The escaped sleep is outside the group and outside any guarantee: end it here.
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    expect(o).toMatchObject({ exitCode: 0, strict: true, error: 'hook output stayed open after the hook exited', stdoutTruncated: true });
    const record = foldToolCallBefore({ tool: 'bash', originalInput: {}, outcomes: [o] });
    expect(record.decision).toBe('deny');
    expect(record.message).toContain('gate: hook output stayed open after the hook exited');
    // It waited for the 5 s drain window before giving up on the pipes.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
  }, 15_000);

  it.runIf(process.platform === 'linux')("ends a process that left the group with setpgid but stayed in the hook's session", async () => {
    const pidFile = join(dir, `setpgid-${spawner}.pid`);
    // The child leaves the hook's group first and only then writes its pid, so the group kill
    // at exit cannot be what ends it.
    const o = await runHook(
      spec(`perl -e 'setpgrp(0, 0); open(my $f, ">", "${pidFile}"); print $f $$; close $f; sleep 30' </dev/null >/dev/null 2>&1 & while [ ! -s ${pidFile} ]; do sleep 0.01; done; echo done`),
    );
    const pid = Number(readFileSync(pidFile, 'utf8'));
    try {
      expect(o).toMatchObject({ success: true, stdout: 'done\n' });
      const info = procTable().find((p) => p.pid === pid);
      // It really had left the hook's group (so only the session sweep can find it) …
      if (info) expect(info.pgrp).toBe(pid);
      // … and it is gone shortly after the hook ended.
      const deadline = Date.now() + 2_000;
      while (Date.now() < deadline && procTable().some((p) => p.pid === pid && p.state !== 'Z')) await new Promise((r) => setTimeout(r, 20));
      expect(procTable().some((p) => p.pid === pid && p.state !== 'Z')).toBe(false);
    } finally {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone: the expected case
      }
    }
  });

  it('bounds stdout at 64 KiB while draining a 1 GiB flood, with bounded memory', async () => {
    const before = process.memoryUsage().rss;
    const o = await runHook(spec('head -c 1073741824 /dev/zero | tr "\\0" a', { timeoutSecs: 60 }));
    const grown = process.memoryUsage().rss - before;
    expect(o.success).toBe(true);
    expect(o.stdout.length).toBe(65_536);
    expect(o.stdoutTruncated).toBe(true);
    expect(grown).toBeLessThan(200 * 1024 * 1024);
  }, 60_000);

  it('still times out a hook that never reads a 4 MiB stdin payload', async () => {
    const started = Date.now();
    const o = await runHook(spec('sleep 30', { stdin: 'x'.repeat(4 * 1024 * 1024), timeoutMs: 500, timeoutSecs: 1, killGraceMs: 100 }));
    expect(o.timedOut).toBe(true);
    // A liveness bound with a wide margin (a busy machine once took 2.5 s): it must not hang.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('does not deadlock when the hook writes 256 KiB before reading 256 KiB', async () => {
    const o = await runHook(spec('head -c 262144 /dev/zero | tr "\\0" o; cat >/dev/null; head -c 262144 /dev/zero | tr "\\0" e >&2', { stdin: 'i'.repeat(262_144) }));
    expect(o.success).toBe(true);
    expect(o.stdout.length).toBe(65_536);
    expect(o.stderr.length).toBe(65_536);
    expect(o.stdoutTruncated && o.stderrTruncated).toBe(true);
  });

  it('never splits a multi-byte character at the capture cap', async () => {
    // 3-byte characters: 65,536 is not a multiple of 3, so the cap falls inside one.
    const o = await runHook(spec(`i=0; while [ $i -lt 30000 ]; do printf '鲸'; i=$((i+1)); done`));
    expect(o.stdoutTruncated).toBe(true);
    expect(o.stdout).not.toContain('\uFFFD');
    expect([...o.stdout].every((c) => c === '鲸')).toBe(true);
    expect(o.stdout.length).toBe(Math.floor(65_536 / 3));
  });

  it('reports a missing working directory as a spawn failure by kind, never by path', async () => {
    const o = await runHook(spec('true', { cwd: join(dir, 'does-not-exist') }));
    expect(o).toMatchObject({ success: false, exitCode: null, spawnError: 'NotFound', error: 'hook process could not be started (NotFound)' });
    expect(JSON.stringify(o)).not.toContain('does-not-exist');
  });

  it('reports a missing shell interpreter as a spawn failure by kind', async () => {
    const o = await runHook(spec('true', { shell: join(dir, 'no-such-shell') }));
    expect(o).toMatchObject({ spawnError: 'NotFound', error: 'hook process could not be started (NotFound)' });
    expect(JSON.stringify(o)).not.toContain('no-such-shell');
  });

  it('reports a shell that cannot be executed as a spawn failure by kind', async () => {
    const shell = join(dir, 'not-executable');
    writeFileSync(shell, '#!/bin/sh\n');
    chmodSync(shell, 0o644);
    const o = await runHook(spec('true', { shell }));
    expect(o).toMatchObject({ success: false, exitCode: null, spawnError: 'PermissionDenied', error: 'hook process could not be started (PermissionDenied)' });
  });

  it('refuses an environment value with a NUL byte before anything starts', async () => {
    const o = await runHook(spec('true', { env: baseEnv({ BROKEN: 'a\u0000b' }) }));
    expect(o).toMatchObject({ success: false, exitCode: null, spawnError: 'InvalidInput', error: 'hook process could not be started (InvalidInput)' });
    expect(JSON.stringify(o)).not.toContain('BROKEN');
  });

  it('runs the shell by absolute path, whatever PATH says', async () => {
    const o = await runHook(spec('printf "%s" "$PATH"', { env: { PATH: join(dir, 'empty-path') } }));
    expect(o).toMatchObject({ success: true, stdout: join(dir, 'empty-path') });
  });

  it('reports a script with a missing interpreter as the exit code the shell gives', async () => {
    const script = join(dir, 'needs-missing-interpreter');
    writeFileSync(script, '#!/nonexistent/interpreter\necho never\n');
    chmodSync(script, 0o755);
    const o = await runHook(spec(script));
    expect(o.exitCode).toBe(127);
    expect(o.stdout).toBe('');
  });

  it('keeps a JSON verdict printed by a hook that exits non-zero', async () => {
    const o = await runHook(spec(`echo '{"decision":"deny","reason":"not on main"}'; exit 1`));
    expect(o.exitCode).toBe(1);
    const record = foldToolCallBefore({ tool: 'bash', originalInput: { command: 'git push' }, outcomes: [o] });
    expect(record.decision).toBe('deny');
    expect(record.message).toBe("ToolCallBefore hook denied tool 'bash': not on main");
  });

  it('reports termination by a signal with no exit code', async () => {
    const o = await runHook(spec('kill -KILL $$'));
    expect(o).toMatchObject({ exitCode: null, signal: 'SIGKILL', success: false, timedOut: false });
  });

  it('refuses to start when authorization is withdrawn (revoked approval)', async () => {
    const o = await runHook(spec('echo ran > ran.txt', { authorize: () => 'project hook approval was revoked; hook not started' }));
    expect(o).toMatchObject({ success: false, exitCode: null, error: 'project hook approval was revoked; hook not started' });
    expect(() => readFileSync(join(dir, 'ran.txt'))).toThrow();
  });

  it('runs 100 concurrent gates to completion', async () => {
    const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => runHook(spec(`echo '{"decision":"allow","reason":"${i}"}'`))));
    expect(outcomes.every((o) => o.success && o.stdout.includes(`"decision":"allow"`))).toBe(true);
    expect(new Set(outcomes.map((o) => o.stdout)).size).toBe(100);
  }, 30_000);

  it('forgets every process group it tracked', async () => {
    await runHook(spec('true'));
    await runHook(spec('sleep 5', { timeoutMs: 100, timeoutSecs: 1, killGraceMs: 50 }));
    expect(liveProcessGroups().filter((p) => spawned.includes(p))).toEqual([]);
  });
});
