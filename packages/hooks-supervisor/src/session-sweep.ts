import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rawKill } from './process-group.js';

/**
 * Linux: a process that called `setpgid` has left its hook's process group but not the hook's
 * session (every hook and shell command starts as a session leader, so its pid is the session
 * id). After a run ends, every process still in that session is killed. Sessions are swept
 * together once spawning has been quiet for a moment (at most {@link SWEEP_MAX_DELAY_MS} after
 * the run ended), off the path of the next spawn.
 *
 * The sweep reads only the processes that can be in those sessions: a session's members were
 * all forked after its leader, so their pids were allocated after the leader's, in the cyclic
 * window from the leader's pid to the newest pid of the pid namespace (the last field of
 * `/proc/loadavg`). Reading every `/proc/<pid>/stat` costs ~50 µs a process (4 ms with 70
 * processes, far more on a desktop); the window is usually a handful. When the window cannot
 * be trusted the whole table is read: the newest pid is unreadable, or a session's leader
 * started more than {@link SWEEP_WINDOW_MAX_AGE_MS} ago (time enough, in principle, for pids
 * to wrap all the way around).
 *
 * Not covered: a process that calls `setsid` (a new session and group, usually after a double
 * fork) cannot be found by session id; see the package README.
 */
export const SWEEP_IDLE_MS = 15;
export const SWEEP_MAX_DELAY_MS = 200;
export const SWEEP_WINDOW_MAX_AGE_MS = 1000;
const SIGKILL = 9;

/** Sessions waiting for a sweep, with the time their leader started. */
const pending = new Map<number, number>();
let timer: NodeJS.Timeout | null = null;
let deadline = 0;
/** Sessions whose leader is running right now (a reused pid must never be swept), with its start time. */
const active = new Map<number, number>();

/** A run's leader started (its pid is its session id). */
export function markSessionActive(sid: number): void {
  active.set(sid, Date.now());
}

/** After a run ended: sweep its session soon. No-op except on Linux. */
export function scheduleSessionSweep(sid: number): void {
  const started = active.get(sid) ?? 0;
  active.delete(sid);
  if (process.platform !== 'linux') return;
  pending.set(sid, Math.min(started, pending.get(sid) ?? started));
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
  const sids = new Map<number, number>();
  // A live process with the leader's pid means the pid was reused: not the session that ended.
  for (const [sid, started] of pending) if (!active.has(sid) && !existsSync(`/proc/${sid}`)) sids.set(sid, started);
  pending.clear();
  killSessions(sids);
}

// The two functions below use only their parameters, so the property tests can drive them
// with any process table.

/** The newest pid allocated in this pid namespace (the last field of /proc/loadavg), or null. */
export function newestPid(loadavg: string): number | null {
  const last = Number(loadavg.trim().split(/\s+/)[4]);
  return Number.isSafeInteger(last) && last > 0 ? last : null;
}

/**
 * Which entries of /proc a sweep of `sids` (session id → its leader's start time) must read:
 * the cyclic windows after each session id, or every pid when `newest` is null or a leader is
 * older than `maxAgeMs` ({@link SWEEP_WINDOW_MAX_AGE_MS}).
 */
export function sweepCandidates(entries: readonly string[], sids: ReadonlyMap<number, number>, newest: number | null, now: number, maxAgeMs: number): number[] {
  // Whether pid was allocated after sid, up to top, counting a wrap of the pid space.
  const after = (pid: number, sid: number, top: number): boolean => (sid <= top ? pid > sid && pid <= top : pid > sid || pid <= top);
  let whole = newest === null;
  for (const started of sids.values()) if (now - started > maxAgeMs) whole = true;
  const out: number[] = [];
  for (const e of entries) {
    const c = e.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const pid = Number(e);
    if (whole) {
      out.push(pid);
      continue;
    }
    for (const sid of sids.keys()) {
      if (after(pid, sid, newest!)) {
        out.push(pid);
        break;
      }
    }
  }
  return out;
}

/** SIGKILL every process whose session id is in `sids` (Linux, from /proc/<pid>/stat). */
export function killSessions(sids: ReadonlyMap<number, number>): void {
  if (sids.size === 0 || process.platform !== 'linux') return;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return;
  }
  // Read after the listing, so every listed pid is at most the newest.
  let newest: number | null = null;
  try {
    newest = newestPid(readFileSync('/proc/loadavg', 'latin1'));
  } catch {
    newest = null;
  }
  for (const pid of sweepCandidates(entries, sids, newest, Date.now(), SWEEP_WINDOW_MAX_AGE_MS)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    } catch {
      continue; // it exited meanwhile
    }
    // Fields after the command name: state ppid pgrp session …
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (sids.has(Number(fields[3]))) rawKill(pid, SIGKILL);
  }
}
