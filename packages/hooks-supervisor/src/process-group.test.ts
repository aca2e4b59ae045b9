import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { endAllProcessGroups, liveProcessGroups } from './process-group.js';
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

/** A `sleep 60`, started and not yet awaited; `pid()` is its pid once the launch has answered. */
function startSleeper() {
  const dir = mkdtempSync(join(tmpdir(), 'cw-pgroup-'));
  dirs.push(dir);
  let spawned: number | null = null;
  const run = runProcess({
    file: '/bin/sh',
    args: ['-c', 'exec sleep 60'],
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
    onSpawn: (pid) => {
      spawned = pid;
    },
  });
  return { run, pid: () => spawned };
}

describe.runIf(process.platform === 'linux')('ending every process group at a signal', () => {
  it('ends a process whose launch is still in flight when the signal comes', async () => {
    const { run, pid } = startSleeper();
    // At once, as a signal handler would: the launch has not answered yet, so no group is tracked.
    expect(liveProcessGroups()).toEqual([]);
    await endAllProcessGroups();
    // Killed, maybe before its shell wrote anything: it did not run its 60 seconds.
    const result = await run;
    expect(result).toMatchObject({ kind: 'exited', exit: { signal: 'SIGKILL' } });
    expect(pid()).not.toBeNull();
    expect(alive(pid()!)).toBe(false);
  });

  it('kills what is tracked when nothing is starting, without waiting', async () => {
    const { run, pid } = startSleeper();
    for (let i = 0; i < 500 && pid() === null; i++) await new Promise((r) => setTimeout(r, 10));
    expect(liveProcessGroups()).toContain(pid());
    const t = Date.now();
    await endAllProcessGroups(30_000);
    expect(Date.now() - t).toBeLessThan(10_000);
    expect(await run).toMatchObject({ kind: 'exited', exit: { signal: 'SIGKILL' } });
    expect(alive(pid()!)).toBe(false);
  });
});
