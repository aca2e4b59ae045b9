import type { TurnUsage } from '@codewhale/hooks-payloads';
import { EngineError, type ErrorCategory } from '../errors.js';
/**
 * The model wire, provider-neutral. Messages follow OpenAI Chat Completions (the wire every
 * supported route speaks); providers stream normalised events.
 */

/** One tool call the model made, complete. `arguments` is the raw JSON text the model produced. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      /** DeepSeek thinking mode: replayed on later requests so the API accepts tool-call turns. */
      readonly reasoningContent?: string | null;
      readonly toolCalls?: readonly ModelToolCall[];
    }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

/** A tool offered to the model (JSON Schema parameters). */
export interface ModelToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

export interface ModelRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ModelToolSpec[];
  readonly temperature?: number;
  readonly maxTokens?: number;
}

/**
 * Token usage of one model request; absent counts are `null`. The counts of
 * `@codewhale/hooks-payloads`' `TurnUsage` (one definition), less the replayed reasoning,
 * which only a whole turn knows.
 */
export type ModelUsage = Omit<Required<TurnUsage>, 'reasoningReplayTokens'>;

/** What a provider streams, in order. Exactly one `finish` ends a successful stream. */
export type ModelStreamEvent =
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'reasoning'; readonly delta: string }
  /** A tool call whose arguments are complete (assembled from the incremental deltas). */
  | { readonly type: 'tool_call'; readonly call: ModelToolCall }
  | { readonly type: 'usage'; readonly usage: ModelUsage }
  | { readonly type: 'finish'; readonly reason: 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other' };

export type { ErrorCategory } from '../errors.js';

/** A classified provider failure. `retryable` failures are retried with backoff by the engine. */
export class ProviderError extends EngineError {
  readonly retryable: boolean;
  readonly status: number | null;
  /** Seconds the server asked us to wait (`Retry-After`), when it said. */
  readonly retryAfterSecs: number | null;

  constructor(message: string, options: { category: ErrorCategory; retryable: boolean; status?: number | null; retryAfterSecs?: number | null; cause?: unknown }) {
    super(options.category, message, { cause: options.cause });
    this.name = 'ProviderError';
    this.retryable = options.retryable;
    this.status = options.status ?? null;
    this.retryAfterSecs = options.retryAfterSecs ?? null;
  }

  static override isInstance(e: unknown): e is ProviderError {
    return e instanceof ProviderError;
  }
}

/** A model route: something that can stream a completion. */
export interface ModelProvider {
  /** Provider identity for records (`deepseek`, `openai`, `replay`, a `[providers.<id>]` id). */
  readonly id: string;
  /** The model id requests use. */
  readonly model: string;
  /**
   * Stream one completion. Throws {@link ProviderError} (classified) on failure. The engine
   * owns retries: a provider makes exactly one attempt per call.
   */
  stream(request: ModelRequest, options: { readonly signal?: AbortSignal }): AsyncIterable<ModelStreamEvent>;
}
