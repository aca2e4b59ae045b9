/**
 * The engine's retry policy for model requests: exponential backoff over a provider that
 * makes one attempt per call.
 */
import { abortableSleep } from './abortable-sleep.js';
import { type ErrorCategory, type ModelProvider, type ModelRequest, type ModelStreamEvent, ProviderError } from './types.js';

/**
 * Emitted before each re-attempt. Everything streamed since the previous `retry` (or the
 * start) belonged to the failed attempt: consumers discard it.
 */
export interface RetryEvent {
  readonly type: 'retry';
  /** 1 for the first re-attempt, up to `maxRetries`. */
  readonly attempt: number;
  /** How long we wait before it. */
  readonly delayMs: number;
  /** Category of the failure that caused it. */
  readonly category: ErrorCategory;
  /** Message of that failure (already safe to show: providers keep keys out of messages). */
  readonly message: string;
  /** The HTTP status the model server answered with, when it answered (see `errorLabel`). */
  readonly status: number | null;
}

/** What {@link streamWithRetry} yields. */
export type RetryStreamEvent = ModelStreamEvent | RetryEvent;

/** Options of {@link streamWithRetry}. */
export interface StreamWithRetryOptions {
  /** Cancels the attempt in flight and the backoff wait (→ `cancelled`). */
  readonly signal?: AbortSignal;
  /** Re-attempts after the first one. Default 3; 0 disables retrying. */
  readonly maxRetries?: number;
  /** Wait before the first re-attempt. Default 500 ms. */
  readonly initialDelayMs?: number;
  /** Cap of the exponential wait. Default 8,000 ms. */
  readonly maxDelayMs?: number;
  /** Growth per re-attempt. Default 2. */
  readonly factor?: number;
  /**
   * Cap of a server-requested wait (`Retry-After`), which replaces the backoff when present.
   * Default `max(maxDelayMs, 60,000)`: a rate limit asking for 30 s is worth waiting for.
   */
  readonly maxRetryAfterMs?: number;
  /** Called with each retry event before it is yielded. */
  readonly onRetry?: (event: RetryEvent) => void;
  /** The wait (tests inject a fake). Must reject promptly when `signal` aborts. Default a timer. */
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

/** The backoff before re-attempt `attempt` (1-based): `initial × factor^(attempt−1)`, capped. */
export function backoffDelayMs(attempt: number, options: Pick<StreamWithRetryOptions, 'initialDelayMs' | 'maxDelayMs' | 'factor'> = {}): number {
  const initial = options.initialDelayMs ?? 500;
  const max = options.maxDelayMs ?? 8000;
  const factor = options.factor ?? 2;
  return Math.max(0, Math.min(max, Math.round(initial * factor ** Math.max(0, attempt - 1))));
}

/**
 * Stream `request` from `provider`, re-attempting retryable {@link ProviderError}s up to
 * `maxRetries` times. Yields the provider's events, plus a {@link RetryEvent} before each
 * re-attempt. The wait is the server's `Retry-After` when it gave one (capped by
 * `maxRetryAfterMs`), else the exponential backoff. Throws the failure when it is not retryable
 * or the retries are used up; a cancellation (before or between attempts, or during the wait)
 * throws a `cancelled` ProviderError promptly. Errors that are not ProviderErrors are wrapped
 * as non-retryable `internal` failures.
 */
export async function* streamWithRetry(provider: ModelProvider, request: ModelRequest, options: StreamWithRetryOptions = {}): AsyncGenerator<RetryStreamEvent, void, undefined> {
  const { signal } = options;
  const maxRetries = Math.max(0, Math.floor(options.maxRetries ?? 3));
  const maxDelayMs = options.maxDelayMs ?? 8000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? Math.max(maxDelayMs, 60_000);
  const sleep = options.sleep ?? abortableSleep;

  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw cancelled(provider.id, signal.reason);
    try {
      yield* provider.stream(request, signal ? { signal } : {});
      return;
    } catch (caught) {
      const error = asProviderError(provider.id, caught, signal);
      if (!error.retryable || attempt >= maxRetries) throw error;
      const next = attempt + 1;
      const delayMs = error.retryAfterSecs !== null ? Math.max(0, Math.min(maxRetryAfterMs, Math.round(error.retryAfterSecs * 1000))) : backoffDelayMs(next, options);
      const event: RetryEvent = { type: 'retry', attempt: next, delayMs, category: error.category, message: error.message, status: error.status };
      options.onRetry?.(event);
      yield event;
      try {
        await sleep(delayMs, signal);
      } catch (sleepError) {
        throw cancelled(provider.id, sleepError);
      }
      if (signal?.aborted) throw cancelled(provider.id, signal.reason);
    }
  }
}

function asProviderError(providerId: string, caught: unknown, signal: AbortSignal | undefined): ProviderError {
  if (ProviderError.isInstance(caught)) return caught;
  if (signal?.aborted) return cancelled(providerId, caught);
  const message = caught instanceof Error ? caught.message : String(caught);
  return new ProviderError(`${providerId}: ${message}`, { category: 'internal', retryable: false, cause: caught });
}

function cancelled(providerId: string, cause: unknown): ProviderError {
  return new ProviderError(`${providerId}: the model request was cancelled`, { category: 'cancelled', retryable: false, cause });
}
