import type { Readable } from 'node:stream';
import { signalProcessGroup, trackProcessGroup, untrackProcessGroup, whileStarting } from '../process-group.js';
import { markSessionActive, scheduleSessionSweep } from '../session-sweep.js';
import { launch, type ExitStatus } from './launch.js';

const MAX_TIMER_MS = 2 ** 31 - 1;

/** Where a captured stream's bytes go (a bounded capture: it keeps what it can afford). */
export interface Sink {
  push(chunk: Uint8Array): void;
}

/**
 * One process run to its end, whatever happens: what hooks and the shell tool both start.
 * Times are milliseconds.
 */
export interface ProcessSpec {
  /** The program, by absolute path, and its arguments after its name. */
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The complete environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Written to stdin, which is then closed; `null`: stdin is `/dev/null`. */
  readonly input: string | null;
  /** Where stdout and stderr go; `null`: `/dev/null`. */
  readonly stdout: Sink | null;
  readonly stderr: Sink | null;
  /** Run time allowed before the process group is stopped. */
  readonly timeoutMs: number;
  /** After SIGTERM to the group, how long before SIGKILL. */
  readonly graceMs: number;
  /** After a stop, how long (beyond the grace) the exit is waited for. */
  readonly reapMs: number;
  /** After a normal exit, how long the pipes may stay open (a child that escaped the group can hold them). */
  readonly drainMs: number;
  /** After a stop, how long the pipes may stay open. */
  readonly shutdownMs: number;
  /** Aborting stops the run as a timeout does. */
  readonly signal?: AbortSignal;
  /** Called with the pid (= the process group's id) once it started. */
  readonly onSpawn?: (pid: number) => void;
  /** Windows only: pass the arguments unquoted (`cmd /C`). */
  readonly verbatim?: boolean;
  /** Test seam: the exit is never seen after a stop, as if the process could not be reaped. */
  readonly simulateUnreapable?: boolean;
}

/**
 * How a run ended:
 * - `not_started`: the process could not be started (`code`: `ENOENT`, `EACCES`, …);
 * - `exited`: it exited by itself; `complete` is false when its pipes stayed open past
 *   `drainMs` (the output may be cut);
 * - `stopped`: its timeout ran out or the signal aborted, and the group was killed; `exit`
 *   is null when it was not reaped within the window.
 */
export type ProcessResult =
  | { readonly kind: 'not_started'; readonly code: string }
  | { readonly kind: 'exited'; readonly exit: ExitStatus; readonly complete: boolean }
  | { readonly kind: 'stopped'; readonly by: 'timeout' | 'abort'; readonly exit: ExitStatus | null };

/**
 * Run one process: start it as the leader of its own process group (launch.ts), write its
 * input without blocking (a process that never reads still times out; EPIPE is not an error),
 * capture its output into the sinks (reading on to the end, so a flood never blocks it), and
 * end it in one of two ways:
 * - it exits: whatever it left in its group gets SIGTERM, then SIGKILL after the grace (so a
 *   `cmd &` does not outlive it), and its pipes get `drainMs` to close; a group already empty
 *   is left alone (no process can join a group that has none);
 * - the timeout or the signal comes first: the group gets SIGTERM, then SIGKILL after the
 *   grace, the exit is waited for at most `graceMs + reapMs`, and the pipes get `shutdownMs`.
 * Either way a group still there gets a last SIGKILL, and on Linux the processes still in its session
 * are swept (session-sweep.ts). A process that escapes with `setsid` is beyond all of this.
 */
export async function runProcess(spec: ProcessSpec): Promise<ProcessResult> {
  if (spec.signal?.aborted) return { kind: 'stopped', by: 'abort', exit: null };
  const launching = launch({
    file: spec.file,
    args: spec.args,
    cwd: spec.cwd,
    env: spec.env,
    input: spec.input === null ? null : Buffer.from(spec.input),
    stdout: spec.stdout !== null,
    stderr: spec.stderr !== null,
    ...(spec.verbatim ? { verbatim: true } : {}),
  });
  const launched = await whileStarting(launching, (l) => {
    if (l.ok) trackProcessGroup(l.child.pid);
  });
  if (!launched.ok) return { kind: 'not_started', code: launched.code };
  const child = launched.child;
  const pid = child.pid;
  markSessionActive(pid);
  spec.onSpawn?.(pid);

  const streams: Readable[] = [];
  const closed: Promise<void>[] = [];
  for (const [stream, sink] of [
    [child.stdout, spec.stdout],
    [child.stderr, spec.stderr],
  ] as const) {
    if (!stream || !sink) continue;
    streams.push(stream);
    stream.on('data', (chunk: Uint8Array) => sink.push(chunk));
    closed.push(
      new Promise<void>((resolve) => {
        stream.once('close', () => resolve());
        stream.once('error', () => resolve());
      }),
    );
  }

  let stopTimer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<'timeout' | 'abort'>((resolve) => {
    // Node's timers hold at most 2^31 - 1 ms; a longer delay would fire at once.
    stopTimer = setTimeout(() => resolve('timeout'), Math.min(MAX_TIMER_MS, Math.max(0, spec.timeoutMs)));
    onAbort = () => resolve('abort');
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    // An abort while the process was being started has fired already: no event will come.
    if (spec.signal?.aborted) onAbort();
  });
  const first = await Promise.race([child.exit, stop]);
  clearTimeout(stopTimer);
  if (onAbort) spec.signal?.removeEventListener('abort', onAbort);

  if (first === 'timeout' || first === 'abort') {
    signalProcessGroup(pid, 'SIGTERM');
    const killTimer = setTimeout(() => signalProcessGroup(pid, 'SIGKILL'), spec.graceMs);
    const window = delay(spec.graceMs + spec.reapMs);
    const exit = spec.simulateUnreapable ? await window.promise.then(() => null) : await Promise.race([child.exit, window.promise.then(() => null)]);
    window.cancel();
    clearTimeout(killTimer);
    signalProcessGroup(pid, 'SIGKILL');
    await drain(closed, streams, spec.shutdownMs);
    // Unwritten input is dropped: a process that escaped the group must not hold it.
    child.stdin?.destroy();
    untrackProcessGroup(pid);
    // A pid that was not reaped may still be this process's: its session is not swept.
    if (exit !== null) scheduleSessionSweep(pid);
    return { kind: 'stopped', by: first, exit };
  }

  // A group with no process left in it (the usual case) can never gain one: nothing to kill later.
  const lingering = signalProcessGroup(pid, 'SIGTERM');
  const killTimer = lingering ? setTimeout(() => signalProcessGroup(pid, 'SIGKILL'), spec.graceMs) : undefined;
  const complete = await drain(closed, streams, spec.drainMs);
  clearTimeout(killTimer);
  if (lingering) signalProcessGroup(pid, 'SIGKILL');
  child.stdin?.destroy();
  untrackProcessGroup(pid);
  scheduleSessionSweep(pid);
  return { kind: 'exited', exit: first, complete };
}

/** A timer as a promise, cancellable so a settled race leaves nothing keeping the process alive. */
function delay(ms: number): { promise: Promise<void>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** Wait for the pipes to close, at most `ms`; then destroy them. True when they closed in time. */
async function drain(closed: Promise<void>[], streams: Readable[], ms: number): Promise<boolean> {
  if (closed.length === 0) return true;
  const window = delay(ms);
  const ok = await Promise.race([Promise.all(closed).then(() => true), window.promise.then(() => false)]);
  window.cancel();
  if (!ok) for (const s of streams) s.destroy();
  return ok;
}
