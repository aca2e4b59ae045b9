// Small helpers shared by the benchmarks.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

export function time(fn, { minMs = 300, minRuns = 3 } = {}) {
  const runs = [];
  const start = performance.now();
  while (runs.length < minRuns || performance.now() - start < minMs) {
    const t = performance.now();
    fn();
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)];
}

export async function timeAsync(fn, { runs = 20, warmup = 3 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], p90: samples[Math.floor(samples.length * 0.9)] };
}

export const round = (n, d = 2) => Number(n.toFixed(d));

/**
 * One busy process per core, each in a session of its own unless `ownSession` is false (then
 * in this process's session: its scheduling group, under sched_autogroup). A burner outside
 * our session gets no SIGHUP or Ctrl-C from our terminal, so each one also ends itself once
 * its parent is gone. Returns the processes; kill them with SIGKILL.
 */
export function cpuBurners(ownSession = true) {
  const burn = 'const parent = process.ppid; for (;;) { for (let i = 0; i < 1e7; i++); if (process.ppid !== parent) process.exit(0); }';
  return Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', burn], { stdio: 'ignore', detached: ownSession }));
}

/** A home and a workspace for one `codewhale exec` conversation, and the `[hooks]` text of `gates` `true` gates. */
export function execSandbox(gates, prefix = 'cw-bench-e2e-') {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(dir, 'home');
  const ws = join(dir, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  const hooks = gates === 0 ? '' : `[hooks]\n${Array.from({ length: gates }, (_, i) => `[[hooks.hooks]]\nname = "gate${i}"\nevent = "tool_call_before"\ncommand = "true"\n`).join('\n')}`;
  return { home, ws, hooks };
}
