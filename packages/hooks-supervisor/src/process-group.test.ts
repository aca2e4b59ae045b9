import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { endAllProcessGroups, killAllProcessGroups, liveProcessGroups } from './process-group.js';
import { runProcess } from './spawn/run-process.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** A `sleep 60` that writes its pid first, started and not yet awaited. */
function startSleeper() {
  const dir = mkdtempSync(join(tmpdir(), 'cw-pgroup-'));
  dirs.push(dir);
  const pidFile = join(dir, 'pid');
  const run = runProcess({
    file: '/bin/sh',
    args: ['-c', `echo $$ > "${pidFile}"; exec sleep 60`],
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    input: null,
    stdout: null,
    stderr: null,
    timeoutMs: 60_000,
    graceMs: 100,
    reapMs: 1_000,
    drainMs: 1_000,
    shutdownMs: 1_000,
  });
  return { run, pidFile };
}

describe.runIf(process.platform === 'linux')('ending every process group at a signal', () => {
  it('ends a process whose launch is still in flight when the signal comes', async () => {
    const { run, pidFile } = startSleeper();
    // At once, as a signal handler would: the launch has not answered yet, so no group is tracked.
    expect(liveProcessGroups()).toEqual([]);
    await endAllProcessGroups();
    const result = await run;
    expect(result.kind).toBe('exited');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(false);
  });

  it('kills nothing but what is tracked when nothing is starting, and does not wait', async () => {
    const { run, pidFile } = startSleeper();
    for (let i = 0; i < 200 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(liveProcessGroups()).toContain(pid);
    const t = Date.now();
    await endAllProcessGroups(30_000);
    expect(Date.now() - t).toBeLessThan(10_000);
    expect((await run).kind).toBe('exited');
    expect(alive(pid)).toBe(false);
    killAllProcessGroups();
  });
});
