import { LIMITS } from '@codewhale/hooks-payloads';
import type { TimeoutSource } from './types.js';

export interface EffectiveTimeout {
  /** Seconds the runtime applies, at most {@link LIMITS.maxTimeoutSecs}. */
  readonly secs: number;
  readonly source: TimeoutSource;
  /** The configured value was above the maximum a timer can hold and was clamped (D20). */
  readonly clamped: boolean;
}

/**
 * The timeout a hook really gets: a positive `[hooks].default_timeout_secs` overrides the
 * hook's own `timeout_secs` (it is not a fallback); otherwise the hook's own value, or 30 s
 * when it set none. Values above 2,147,483 s are clamped (D20).
 */
export function effectiveTimeout(hookTimeoutSecs: number | null, overrideSecs: number | null): EffectiveTimeout {
  const source: TimeoutSource = overrideSecs !== null ? 'override' : hookTimeoutSecs !== null ? 'hook' : 'default';
  const configured = overrideSecs ?? hookTimeoutSecs ?? LIMITS.defaultTimeoutSecs;
  const clamped = configured > LIMITS.maxTimeoutSecs;
  return { secs: clamped ? LIMITS.maxTimeoutSecs : configured, source, clamped };
}
