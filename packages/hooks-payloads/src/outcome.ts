import type { HookEventName } from './events.js';
import type { HookProtocol } from './peer-tool-names.js';
import { genericDetail, OVERSIZED_OUTPUT_DETAIL } from './generic-detail.js';
import { isStrict } from './is-strict.js';

/** Where a hook came from. */
export type HookSource = 'global' | 'project';

/** What steering code needs to know about the hook that produced an outcome. */
export interface HookIdentity {
  /** Position in the merged, validated hook set (config order). */
  readonly index: number;
  readonly name: string | null;
  /** The sanitized label (`sanitizeLabel(name)`). */
  readonly label: string;
  readonly event: HookEventName;
  readonly source: HookSource;
  readonly continueOnError: boolean;
  readonly background: boolean;
  /** How the hook talks to its command; absent means `codewhale`. */
  readonly protocol?: HookProtocol;
}

/** Error kinds a spawn failure is reported by (never by path or command line). */
export type SpawnErrorKind = 'NotFound' | 'PermissionDenied' | 'InvalidInput' | 'ResourceBusy' | 'OutOfMemory' | 'Interrupted' | 'Other';

/**
 * One hook run, the same shape for success and failure (foreground, or a background
 * submission). Steering parsers and folds read this record, never a process.
 */
export interface HookOutcome {
  readonly hook: HookIdentity;
  /** `true` for a background submission: never awaited, no exit code, no output. */
  readonly background: boolean;
  /** `!continue_on_error`, for a foreground run only; a background result is never strict. */
  readonly strict: boolean;
  /** Exit status 0 (foreground), or the submission was accepted (background). */
  readonly success: boolean;
  /** The observed exit code; `null` for a signal, timeout, spawn failure or background run. */
  readonly exitCode: number | null;
  /** The terminating signal, when the hook was killed by one. */
  readonly signal: string | null;
  readonly durationMs: number;
  readonly timedOut: boolean;
  /** Spawn failure by error kind, never by path. */
  readonly spawnError: SpawnErrorKind | null;
  /** The contract's error string (`Hook timed out after 1s`, …), or `null`. */
  readonly error: string | null;
  /** Captured stdout (≤ the capture cap, decoded as a stream; never contains a marker). */
  readonly stdout: string;
  readonly stderr: string;
  /** Bytes were dropped past the capture cap: a steering parser must not read this stdout (D16). */
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
}

/**
 * The exit code steering may read: `null` for a background result (it never observed one)
 * and for a run with no exit (signal, timeout, spawn failure).
 */
export function observedExitCode(outcome: HookOutcome): number | null {
  return outcome.background ? null : outcome.exitCode;
}

/**
 * A fixed, safe one-line detail for why a run produced no verdict: timeout, spawn failure
 * by kind, oversized output, termination by signal, or `hook returned no verdict`.
 */
export function outcomeDetail(outcome: HookOutcome): string {
  if (outcome.error) return genericDetail(outcome.error);
  if (outcome.stdoutTruncated && !outcome.background) return OVERSIZED_OUTPUT_DETAIL;
  if (outcome.signal && outcome.exitCode === null) return `hook was terminated by ${/^[A-Z0-9]+$/.test(outcome.signal) ? outcome.signal : 'a signal'}`;
  return genericDetail(null);
}

/** A background submission's outcome: accepted (`success`) or failed with the supervisor's message. */
export function backgroundOutcome(hook: HookIdentity, accepted: boolean, error: string | null = null): HookOutcome {
  return {
    hook,
    background: true,
    strict: false,
    success: accepted,
    exitCode: null,
    signal: null,
    durationMs: 0,
    timedOut: false,
    spawnError: null,
    error: accepted ? null : error,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
  };
}

/** A foreground outcome for a hook that was never started (executor lost, approval revoked…). */
export function notRunOutcome(hook: HookIdentity, error: string): HookOutcome {
  return {
    hook,
    background: false,
    strict: isStrict(hook),
    success: false,
    exitCode: null,
    signal: null,
    durationMs: 0,
    timedOut: false,
    spawnError: null,
    error,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
  };
}
