import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { processState } from './process-state.js';

/**
 * Process-group bookkeeping. Every hook (and every shell-tool command) runs as the leader of
 * its own process group, so one signal reaches the whole tree. Because detached children do
 * not receive the terminal's Ctrl-C and are not killed when Codewhale exits, live groups are
 * tracked here and killed when the process exits.
 */
// One table per process, shared by every copy of this package the process has loaded (see
// process-state.ts): whichever copy handles the exit or a signal ends every group.
const state = processState();
const live = state.liveGroups;

function installExitHook(): void {
  if (state.exitHookInstalled) return;
  state.exitHookInstalled = true;
  process.once('exit', () => killAllProcessGroups());
}

/** Record a live group (its leader's pid). */
export function trackProcessGroup(pid: number): void {
  installExitHook();
  live.add(pid);
}

/** Forget a group once it has been killed and its leader reaped. */
export function untrackProcessGroup(pid: number): void {
  live.delete(pid);
}

/** The groups still tracked (for tests and diagnostics). */
export function liveProcessGroups(): number[] {
  return [...live];
}

/**
 * Signal a whole group. On Unix `kill(-pgid)`; if that fails with anything but ESRCH (no such
 * group), the leader alone is signalled. On Windows the tree is ended with `taskkill /T /F`
 * (best-effort; untested in CI). Returns whether the signal was delivered to anything.
 */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals): boolean {
  if (process.platform === 'win32') {
    try {
      const killer = spawn('taskkill', ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore', windowsHide: true });
      killer.on('error', () => {});
      const t = setTimeout(() => killer.kill(), 2_000);
      killer.on('exit', () => clearTimeout(t));
      return true;
    } catch {
      return false;
    }
  }
  const sig = constants.signals[signal];
  const r = rawKill(-pid, sig);
  if (r === 0) return true;
  if (r === ESRCH) return false;
  return rawKill(pid, sig) === 0;
}

const ESRCH = -constants.errno.ESRCH;

/**
 * `kill(2)` returning 0 or a negative errno instead of throwing: a group that is already gone
 * (ESRCH) is the normal case after a run ends, not an error.
 */
export function rawKill(pid: number, signal: number): number {
  try {
    process.kill(pid, signal);
    return 0;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ESRCH' ? ESRCH : code === 'EPERM' ? -constants.errno.EPERM : -1;
  }
}

/**
 * Wait for a launch while it is in flight, so that {@link endAllProcessGroups} can wait for it
 * too. The process may run (and be seen by others) before the launch's answer reaches this
 * thread; `track` records its group as soon as the answer is there, before the caller's code
 * runs.
 */
export function whileStarting<T>(launching: Promise<T>, track: (result: T) => void): Promise<T> {
  const tracked = launching.then((result) => {
    track(result);
    return result;
  });
  state.starting.add(tracked);
  const forget = () => state.starting.delete(tracked);
  tracked.then(forget, forget);
  return tracked;
}

/**
 * End every group, including those of processes still being started: wait for the launches in
 * flight (at most `waitMs`), then {@link killAllProcessGroups}. The signal handlers of the
 * command line call this: a signal that arrives while a hook starts must not leave it running.
 */
export async function endAllProcessGroups(waitMs = 1_000): Promise<void> {
  if (state.starting.size > 0) {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    await Promise.race([Promise.allSettled([...state.starting]), limit]);
    clearTimeout(timer);
  }
  killAllProcessGroups();
}

/** Kill every tracked group at once (SIGKILL). Surfaces call this from their own signal handlers. */
export function killAllProcessGroups(): void {
  for (const pid of live) signalProcessGroup(pid, 'SIGKILL');
  live.clear();
}
