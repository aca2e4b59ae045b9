import { isStrict, LIMITS, type HookIdentity, type HookOutcome, type SpawnErrorKind } from '@codewhale/hooks-payloads';
import { BoundedCapture } from './bounded-capture.js';
import { runProcess } from './spawn/run-process.js';
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
  /** Aborting stops the run as a timeout does (its group is killed); the outcome is `hook was cancelled`. */
  readonly signal?: AbortSignal;
  /** Called with the hook's pid (= its process group id) right after spawn. */
  readonly onSpawn?: (pid: number) => void;
  /** Test seam: pretend the reaper never confirms the exit after a timeout. */
  readonly simulateUnreapable?: boolean;
  /** Test seam: the Unix shell (default `/bin/sh`, by absolute path: no `PATH` search per spawn). */
  readonly shell?: string;
}

const MAX_TIMER_MS = LIMITS.maxTimeoutSecs * 1000;

/** The error of a run whose output pipes stayed open after the hook exited. */
export const OUTPUT_LEFT_OPEN = 'hook output stayed open after the hook exited';

/** The error of a run stopped by its caller's signal: no verdict. */
export const CANCELLED = 'hook was cancelled';

/** The Unix shell hooks and shell commands run in, by absolute path. */
export const UNIX_SHELL = '/bin/sh';

function shellInvocation(command: string, shell: string = UNIX_SHELL): { file: string; args: string[]; verbatim: boolean } {
  if (process.platform === 'win32') {
    return { file: process.env['ComSpec'] ?? 'cmd.exe', args: ['/d', '/s', '/c', `"${command}"`], verbatim: true };
  }
  return { file: shell, args: ['-c', command], verbatim: false };
}

function strictOf(spec: RunSpec): boolean {
  return isStrict({ continueOnError: spec.hook.continueOnError, background: spec.background === true });
}

function elapsedMs(started: number): number {
  return Math.max(0, Math.round(performance.now() - started));
}

/** An outcome with no exit: the run failed before or instead of one. */
function failed(spec: RunSpec, started: number, error: string, extra: { spawnError?: SpawnErrorKind; timedOut?: boolean } = {}): HookOutcome {
  return {
    hook: spec.hook,
    background: false,
    strict: strictOf(spec),
    durationMs: elapsedMs(started),
    success: false,
    exitCode: null,
    signal: null,
    timedOut: extra.timedOut === true,
    spawnError: extra.spawnError ?? null,
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
 * The hook runs as `sh -c <command>` (`cmd /C` on Windows) through the one spawner
 * (spawn/run-process.ts): the leader of its own process group; stdin gets the payload and one
 * `\n` without blocking the caller, or EOF at once, so it never inherits the terminal; stdout
 * and stderr are captured separately up to their caps and the rest is drained and discarded;
 * on timeout the whole group gets SIGTERM, then SIGKILL after a grace, and the exit is awaited
 * for a bounded reap window; when the hook exits normally its group is killed too, so a
 * `cmd &` it left behind does not outlive it. Children that escape with `setsid` are outside
 * any guarantee.
 */
export async function runHook(spec: RunSpec): Promise<HookOutcome> {
  const started = performance.now();
  const refusal = spec.authorize?.() ?? null;
  if (refusal) return failed(spec, started, refusal);
  const capture = spec.background !== true && spec.captureOutput !== false;
  const out = capture ? new BoundedCapture(spec.stdoutMaxBytes ?? LIMITS.captureMaxBytes) : null;
  const err = capture ? new BoundedCapture(spec.stderrMaxBytes ?? LIMITS.captureMaxBytes) : null;
  const { file, args, verbatim } = shellInvocation(spec.command, spec.shell);
  const result = await runProcess({
    file,
    args,
    cwd: spec.cwd,
    env: spec.env,
    input: spec.stdin === null ? null : `${spec.stdin}\n`,
    stdout: out,
    stderr: err,
    timeoutMs: Math.min(MAX_TIMER_MS, Math.max(0, spec.timeoutMs ?? spec.timeoutSecs * 1000)),
    graceMs: spec.killGraceMs ?? LIMITS.killGraceMs,
    reapMs: spec.reapWindowMs ?? LIMITS.reapWindowMs,
    drainMs: LIMITS.pipeDrainMs,
    shutdownMs: LIMITS.pipeShutdownMs,
    verbatim,
    ...(spec.onSpawn ? { onSpawn: spec.onSpawn } : {}),
    ...(spec.signal ? { signal: spec.signal } : {}),
    ...(spec.simulateUnreapable ? { simulateUnreapable: true } : {}),
  });
  if (result.kind === 'not_started') {
    const kind = spawnErrorKind(result.code);
    return failed(spec, started, spawnFailureMessage(kind), { spawnError: kind });
  }
  if (result.kind === 'stopped') {
    if (result.by === 'abort') return failed(spec, started, CANCELLED);
    const error = result.exit !== null ? `Hook timed out after ${formatSecs(spec.timeoutSecs)}s` : 'hook could not be reaped after its timeout';
    return failed(spec, started, error, { timedOut: true });
  }
  const { code, signal } = result.exit;
  return {
    hook: spec.hook,
    background: false,
    strict: strictOf(spec),
    durationMs: elapsedMs(started),
    success: code === 0,
    exitCode: code,
    signal: code === null ? signal : null,
    timedOut: false,
    spawnError: null,
    // A child that escaped the group (setsid) can hold the pipes open: the output cannot be
    // trusted to be complete, so steering treats it as no verdict, with this detail.
    error: result.complete ? null : OUTPUT_LEFT_OPEN,
    stdout: out?.text() ?? '',
    stderr: err?.text() ?? '',
    // Output that could not be drained completely is as untrustworthy as output over the cap.
    stdoutTruncated: (out?.truncated ?? false) || !result.complete,
    stderrTruncated: (err?.truncated ?? false) || !result.complete,
  };
}

/**
 * When a chain ends after a strict hook failed: a function consulted for that outcome, or
 * `'always'` (every strict failure ends it, the rule of the observer events that stop).
 */
export type ChainStopRule = ((outcome: HookOutcome) => boolean) | 'always';

function formatSecs(secs: number): string {
  return Number.isInteger(secs) ? String(secs) : String(Number(secs.toFixed(3)));
}
