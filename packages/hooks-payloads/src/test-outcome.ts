/**
 * Test fixture (not exported): a foreground hook outcome as the supervisor would report it.
 */
import type { HookEventName } from './events.js';
import type { HookOutcome } from './outcome.js';
import { sanitizeLabel } from './sanitize.js';

export interface Run {
  readonly exit?: number | null;
  readonly stdout?: string;
  readonly stderr?: string;
  readonly strict?: boolean;
  readonly name?: string | null;
  readonly error?: string | null;
  readonly signal?: string | null;
  readonly truncated?: boolean;
  readonly index?: number;
}

/** A foreground outcome of a hook on `event` (exit 0 and empty output unless given). */
export function outcomeOf(event: HookEventName, defaultName: string, r: Run = {}): HookOutcome {
  const strict = r.strict ?? false;
  const exitCode = r.exit === undefined ? 0 : r.exit;
  const name = r.name === undefined ? defaultName : r.name;
  return {
    hook: { index: r.index ?? 0, name, label: sanitizeLabel(name), event, source: 'global', continueOnError: !strict, background: false },
    background: false,
    strict,
    success: exitCode === 0,
    exitCode,
    signal: r.signal ?? null,
    durationMs: 2,
    timedOut: (r.error ?? '').startsWith('Hook timed out'),
    spawnError: null,
    error: r.error ?? null,
    stdout: r.stdout ?? '',
    stderr: r.stderr ?? '',
    stdoutTruncated: r.truncated ?? false,
    stderrTruncated: false,
  };
}
