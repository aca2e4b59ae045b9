import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rawKill } from './process-group.js';

/**
 * Linux: a process that called `setpgid` has left its hook's process group but not the hook's
 * session (every hook and shell command starts as a session leader, so its pid is the session
 * id). After a run ends, every process still in that session is killed. Sessions are swept
 * together once spawning has been quiet for a moment (at most {@link SWEEP_MAX_DELAY_MS} after
 * the run ended), off the path of the next spawn, because reading the process table costs
 * about as much as a spawn. The process host does the same for the runs it starts.
 *
 * Not covered: a process that calls `setsid` (a new session and group, usually after a double
 * fork) cannot be found by session id; see the package README.
 */
export const SWEEP_IDLE_MS = 15;
export const SWEEP_MAX_DELAY_MS = 200;
const SIGKILL = 9;

const pending = new Set<number>();
let timer: NodeJS.Timeout | null = null;
let deadline = 0;
/** Sessions whose leader is running right now (a reused pid must never be swept). */
const active = new Set<number>();

export function markSessionActive(sid: number): void {
  active.add(sid);
}

/** After a run ended: sweep its session soon. No-op except on Linux. */
export function scheduleSessionSweep(sid: number): void {
  active.delete(sid);
  if (process.platform !== 'linux') return;
  pending.add(sid);
  const now = Date.now();
  if (deadline === 0) deadline = now + SWEEP_MAX_DELAY_MS;
  if (timer) clearTimeout(timer);
  timer = setTimeout(sweepNow, Math.max(0, Math.min(SWEEP_IDLE_MS, deadline - now)));
  timer.unref();
}

/** Sweep the pending sessions at once (also called at exit). */
export function sweepNow(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  deadline = 0;
  const sids = new Set<number>();
  // A live process with the leader's pid means the pid was reused: not the session that ended.
  for (const sid of pending) if (!active.has(sid) && !existsSync(`/proc/${sid}`)) sids.add(sid);
  pending.clear();
  killSessions(sids);
}

/** SIGKILL every process whose session id is in `sids` (Linux, from /proc/<pid>/stat). */
export function killSessions(sids: ReadonlySet<number>): void {
  if (sids.size === 0 || process.platform !== 'linux') return;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return;
  }
  for (const e of entries) {
    const c = e.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${e}/stat`, 'latin1');
    } catch {
      continue; // it exited meanwhile
    }
    // Fields after the command name: state ppid pgrp session …
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (sids.has(Number(fields[3]))) rawKill(Number(e), SIGKILL);
  }
}
