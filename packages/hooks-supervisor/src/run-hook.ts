import { spawn, type ChildProcess } from 'node:child_process';
import { isStrict, LIMITS, type HookIdentity, type HookOutcome, type SpawnErrorKind } from '@codewhale/hooks-payloads';
import { BoundedCapture } from './bounded-capture.js';
import { signalProcessGroup, trackProcessGroup, untrackProcessGroup } from './process-group.js';
import { processHostForRun, useProcessHost } from './process-host.js';
import { markSessionActive, scheduleSessionSweep } from './session-sweep.js';
import { spawnErrorKind, spawnFailureMessage } from './spawn-error-kind.js';

/** Everything needed to run one hook process. */
export interface RunSpec {
  readonly hook: HookIdentity;
  /** The hook's command, run as `sh -c <command>` (Unix) or `cmd /C <command>` (Windows). */
  readonly command: string;
  readonly cwd: string;
  /** The complete environment of the hook process. */
  readonly env: Readonly<Record<string, string>>;
  /** The stdin document; one `\n` is appended. `null` means EOF at once. */
  readonly stdin: string | null;
  /** The effective timeout in seconds (the error text names it). */
  readonly timeoutSecs: number;
  /** Overrides the timeout in milliseconds (fine-grained tests); the error still names `timeoutSecs`. */
  readonly timeoutMs?: number;
  /** Foreground capture cap per stream (64 KiB; `shell_env` reads 256 KiB of stdout). */
  readonly stdoutMaxBytes?: number;
  readonly stderrMaxBytes?: number;
  /** Background: stdout and stderr go to /dev/null and nothing is captured. */
  readonly background?: boolean;
  /**
   * `false`: stdout and stderr go to /dev/null (observers, whose output is discarded anyway:
   * two fewer pipes per run). Default `true` for a foreground run.
   */
  readonly captureOutput?: boolean;
  /** Checked just before spawn; a string is the reason not to start (e.g. approval revoked). */
  readonly authorize?: () => string | null;
  /** SIGTERM → SIGKILL grace and reap window, in milliseconds (defaults from LIMITS). */
  readonly killGraceMs?: number;
  readonly reapWindowMs?: number;
  /** Called with the hook's pid (= its process group id) right after spawn. */
  readonly onSpawn?: (pid: number) => void;
  /** Test seam: pretend the reaper never confirms the exit after a timeout. */
  readonly simulateUnreapable?: boolean;
  /** Test seam: the Unix shell (default `/bin/sh`, by absolute path: no `PATH` search per spawn). */
  readonly shell?: string;
}

/** The outcome error of a run whose process host died while it ran (no verdict: strict gates deny). */
export const HOST_LOST = 'hook process host exited unexpectedly; the hook was killed';

const MAX_TIMER_MS = LIMITS.maxTimeoutSecs * 1000;

/** The error of a run whose output pipes stayed open after the hook exited. */
export const OUTPUT_LEFT_OPEN = 'hook output stayed open after the hook exited';

/** The Unix shell hooks and shell commands run in, by absolute path. */
export const UNIX_SHELL = '/bin/sh';

function shellInvocation(command: string, shell: string = UNIX_SHELL): { file: string; args: string[]; verbatim: boolean } {
  if (process.platform === 'win32') {
    return { file: process.env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c', `"${command}"`], verbatim: true };
  }
  return { file: shell, args: ['-c', command], verbatim: false };
}

function outcomeBase(spec: RunSpec, started: number): Omit<HookOutcome, 'success' | 'exitCode' | 'signal' | 'timedOut' | 'spawnError' | 'error' | 'stdout' | 'stderr' | 'stdoutTruncated' | 'stderrTruncated'> {
  return {
    hook: spec.hook,
    background: false,
    strict: isStrict({ continueOnError: spec.hook.continueOnError, background: spec.background === true }),
    durationMs: Math.max(0, Math.round(performance.now() - started)),
  };
}

function failed(spec: RunSpec, started: number, error: string, spawnError: SpawnErrorKind | null): HookOutcome {
  return {
    ...outcomeBase(spec, started),
    success: false,
    exitCode: null,
    signal: null,
    timedOut: false,
    spawnError,
    error,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
  };
}

/**
 * Run one hook as a real process and settle on exactly one outcome record, whatever happens.
 *
 * Guarantees: the hook is the leader of its own process group; stdin gets the payload and
 * one `\n` without blocking the caller (a hook that never reads still times out; EPIPE is not
 * an error), or EOF at once, so it never inherits the terminal; stdout and stderr are captured
 * separately up to their caps and the rest is drained and discarded; on timeout the whole
 * group gets SIGTERM, then SIGKILL after a grace, and the exit is awaited for a bounded reap
 * window; when the hook exits normally its group is killed too (D15), so a `cmd &` it left
 * behind does not outlive it. Children that escape with `setsid` are outside any guarantee.
 */
export async function runHook(spec: RunSpec): Promise<HookOutcome> {
  const started = performance.now();
  const refusal = spec.authorize?.() ?? null;
  if (refusal) return failed(spec, started, refusal, null);

  if (useProcessHost()) return runHookInHost(spec, started);

  const background = spec.background === true;
  const capture = !background && spec.captureOutput !== false;
  const { file, args, verbatim } = shellInvocation(spec.command, spec.shell);
  // node:child_process rather than execa: execa adds ~2 ms to every spawn (measured: 4.8–5.2 ms
  // against 2.9 ms for a bare spawn), which sits on the tool-call path, and its own timeout and
  // cleanup do not cover process groups anyway (D30). See docs/design-notes.md.
  let sub: ChildProcess;
  try {
    sub = spawn(file, args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: process.platform !== 'win32',
      stdio: ['pipe', capture ? 'pipe' : 'ignore', capture ? 'pipe' : 'ignore'],
      windowsHide: true,
      windowsVerbatimArguments: verbatim,
    });
  } catch (e) {
    const kind = spawnErrorKind((e as NodeJS.ErrnoException).code);
    return failed(spec, started, spawnFailureMessage(kind), kind);
  }

  if (sub.pid === undefined) {
    const err = await new Promise<NodeJS.ErrnoException>((resolve) => sub.once('error', (e) => resolve(e as NodeJS.ErrnoException)));
    const kind = spawnErrorKind(err.code);
    return failed(spec, started, spawnFailureMessage(kind), kind);
  }
  const pid = sub.pid;
  trackProcessGroup(pid);
  markSessionActive(pid);
  spec.onSpawn?.(pid);
  sub.on('error', () => {});

  // stdin: written asynchronously; a hook that exits or closes stdin early is not an error.
  const stdin = sub.stdin;
  if (stdin) {
    stdin.on('error', () => {});
    if (spec.stdin === null) stdin.end();
    else stdin.end(spec.stdin + '\n');
  }

  const out = new BoundedCapture(spec.stdoutMaxBytes ?? LIMITS.captureMaxBytes);
  const err = new BoundedCapture(spec.stderrMaxBytes ?? LIMITS.captureMaxBytes);
  const streams: NodeJS.ReadableStream[] = [];
  const streamDone: Promise<void>[] = [];
  for (const [stream, capture] of [
    [sub.stdout, out],
    [sub.stderr, err],
  ] as const) {
    if (!stream) continue;
    streams.push(stream);
    stream.on('data', (chunk: Uint8Array) => capture.push(chunk));
    streamDone.push(
      new Promise<void>((resolve) => {
        stream.once('close', resolve);
        stream.once('end', resolve);
        stream.once('error', () => resolve());
      }),
    );
  }

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    sub.once('exit', (code, signal) => resolve({ code, signal }));
  });

  const timeoutMs = Math.min(MAX_TIMER_MS, Math.max(0, spec.timeoutMs ?? spec.timeoutSecs * 1000));
  const grace = spec.killGraceMs ?? LIMITS.killGraceMs;
  const reapWindow = spec.reapWindowMs ?? LIMITS.reapWindowMs;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });

  const first = await Promise.race([exited, timedOut]);
  clearTimeout(timer);

  if (first === 'timeout') {
    signalProcessGroup(pid, 'SIGTERM');
    const killTimer = setTimeout(() => signalProcessGroup(pid, 'SIGKILL'), grace);
    const window = delay(grace + reapWindow);
    const reaped = spec.simulateUnreapable ? await window.promise.then(() => false) : await Promise.race([exited.then(() => true), window.promise.then(() => false)]);
    window.cancel();
    clearTimeout(killTimer);
    // Release containment: the group gets a final SIGKILL whatever happened above.
    signalProcessGroup(pid, 'SIGKILL');
    await drain(streamDone, streams, LIMITS.pipeShutdownMs);
    untrackProcessGroup(pid);
    if (reaped) scheduleSessionSweep(pid);
    return timedOutOutcome(spec, started, reaped);
  }

  // A normal exit: whatever the hook left in its group goes with it (D15).
  signalProcessGroup(pid, 'SIGTERM');
  const killTimer = setTimeout(() => signalProcessGroup(pid, 'SIGKILL'), grace);
  const complete = await drain(streamDone, streams, LIMITS.pipeDrainMs);
  clearTimeout(killTimer);
  signalProcessGroup(pid, 'SIGKILL');
  untrackProcessGroup(pid);
  scheduleSessionSweep(pid);
  const { code, signal } = first;
  return exitedOutcome(spec, started, { exitCode: code, signal: code === null ? signal : null, complete, stdout: out.text(), stderr: err.text(), stdoutTruncated: out.truncated, stderrTruncated: err.truncated });
}

function timedOutOutcome(spec: RunSpec, started: number, reaped: boolean): HookOutcome {
  return {
    ...outcomeBase(spec, started),
    success: false,
    exitCode: null,
    signal: null,
    timedOut: true,
    spawnError: null,
    error: reaped ? `Hook timed out after ${formatSecs(spec.timeoutSecs)}s` : 'hook could not be reaped after its timeout',
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
  };
}

interface Exited {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly complete: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
}

function exitedOutcome(spec: RunSpec, started: number, r: Exited): HookOutcome {
  return {
    ...outcomeBase(spec, started),
    success: r.exitCode === 0,
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: false,
    spawnError: null,
    // A child that escaped the group (setsid) can hold the pipes open: the output cannot be
    // trusted to be complete, so steering treats it as no verdict, with this detail.
    error: r.complete ? null : OUTPUT_LEFT_OPEN,
    stdout: r.stdout,
    stderr: r.stderr,
    // Output that could not be drained completely is as untrustworthy as output over the cap.
    stdoutTruncated: r.stdoutTruncated || !r.complete,
    stderrTruncated: r.stderrTruncated || !r.complete,
  };
}

/**
 * The same run, done by the shared process host (see process-host.ts): the host spawns,
 * captures, times out, kills and reaps with exactly the rules above and returns the facts;
 * this side only builds the outcome record. A host that dies mid-run yields {@link HOST_LOST}.
 */
async function runHookInHost(spec: RunSpec, started: number): Promise<HookOutcome> {
  const capture = spec.background !== true && spec.captureOutput !== false;
  const { file, args } = shellInvocation(spec.command, spec.shell);
  const { done } = processHostForRun().run(
    {
      mode: 'hook',
      file,
      args,
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['pipe', capture ? 'pipe' : 'ignore', capture ? 'pipe' : 'ignore'],
      input: spec.stdin,
      stdoutMax: spec.stdoutMaxBytes ?? LIMITS.captureMaxBytes,
      stderrMax: spec.stderrMaxBytes ?? LIMITS.captureMaxBytes,
      timeoutMs: Math.min(MAX_TIMER_MS, Math.max(0, spec.timeoutMs ?? spec.timeoutSecs * 1000)),
      graceMs: spec.killGraceMs ?? LIMITS.killGraceMs,
      reapMs: spec.reapWindowMs ?? LIMITS.reapWindowMs,
      drainMs: LIMITS.pipeDrainMs,
      shutdownMs: LIMITS.pipeShutdownMs,
      simulateUnreapable: spec.simulateUnreapable === true,
    },
    spec.onSpawn,
  );
  const r = await done;
  if (r.lost) return failed(spec, started, HOST_LOST, null);
  if (r.spawnError !== undefined) {
    const kind = spawnErrorKind(r.spawnError);
    return failed(spec, started, spawnFailureMessage(kind), kind);
  }
  if (r.timedOut === true) return timedOutOutcome(spec, started, r.reaped === true);
  return exitedOutcome(spec, started, r as unknown as Exited);
}

function formatSecs(secs: number): string {
  return Number.isInteger(secs) ? String(secs) : String(Number(secs.toFixed(3)));
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
async function drain(done: Promise<void>[], streams: NodeJS.ReadableStream[], ms: number): Promise<boolean> {
  let t: NodeJS.Timeout | undefined;
  const ok = await Promise.race([
    Promise.all(done).then(() => true),
    new Promise<boolean>((resolve) => {
      t = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(t);
  if (!ok) for (const s of streams) (s as unknown as { destroy(): void }).destroy();
  return ok;
}
