import type { SecretText } from './secret-text.js';

/**
 * The settings of `config.toml` that the engine and the surfaces own, validated and with
 * defaults applied. Made by {@link readSettings}; keys other parts own (`[hooks]`,
 * `[projects]`, `[workspace]`, `[runtime_api]`, `[features]`, …) are not here.
 */
export interface Settings {
  /** The file the settings came from, as the caller named it; `null` for {@link DEFAULT_SETTINGS}. */
  readonly file: string | null;
  /** `provider`: the default route's id, as written (trimmed); `null` when unset. */
  readonly provider: string | null;
  /** Root `api_key` (legacy, DeepSeek only). */
  readonly apiKey: SecretText | null;
  /** Root `base_url` (legacy, DeepSeek only). */
  readonly baseUrl: string | null;
  /** `default_text_model`: the model of the configured default provider. */
  readonly defaultTextModel: string | null;
  /** `reasoning_effort`, lowercased. */
  readonly reasoningEffort: ReasoningEffort | null;
  /** `[providers.<id>]` tables by id, as written. */
  readonly providers: Readonly<Record<string, ProviderSettings>>;
  readonly retry: RetrySettings;
  readonly tui: TuiSettings;
}

/** The values `reasoning_effort` takes (case-insensitive). */
export const REASONING_EFFORTS = ['auto', 'off', 'low', 'medium', 'high', 'max'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** Wire names that mean OpenAI-compatible Chat Completions, the only wire this version speaks (case-insensitive). */
export const CHAT_WIRES: readonly string[] = ['chat', 'chat_completions', 'chat-completions', 'openai', 'openai-compatible', 'openai_compatible'];

/** One `[providers.<id>]` table. Blank strings count as unset. */
export interface ProviderSettings {
  readonly apiKey: SecretText | null;
  readonly apiKeyEnv: string | null;
  readonly baseUrl: string | null;
  readonly model: string | null;
  /** `wire` (or its alias `kind`), lowercased; always one of {@link CHAT_WIRES} when set. */
  readonly wire: string | null;
}

/** `[retry]`: how model requests are re-attempted. */
export interface RetrySettings {
  /** `enabled` (default `true`); `false` means no re-attempt at all. */
  readonly enabled: boolean;
  /** `max_retries`: re-attempts after the first try, 0–10 (default 3). */
  readonly maxRetries: number;
  /** `initial_delay_ms` (default 500). */
  readonly initialDelayMs: number;
  /** `max_delay_ms`: cap of the exponential wait, ≥ `initial_delay_ms` (default 8,000). */
  readonly maxDelayMs: number;
}

/** `[tui]`: what the interactive terminal UI reads. */
export interface TuiSettings {
  /** `stream_chunk_timeout_secs`: seconds a model stream may stay silent; `null` = the built-in 900 s. */
  readonly streamChunkTimeoutSecs: number | null;
  /** `alternate_screen` (default `true`): draw in the terminal's alternate screen. */
  readonly alternateScreen: boolean;
  /** `show_reasoning` (default `true`): show the model's reasoning text while it streams. */
  readonly showReasoning: boolean;
  /** `toast_ms` (default 6,000): how long an ordinary toast stays, 500–60,000 ms. */
  readonly toastMs: number;
}

/** Largest accepted `*_ms` value: Node timers overflow above 2^31−1 ms (D20). */
export const MAX_TIMER_MS = 2_147_483_647;
/** Largest accepted `stream_chunk_timeout_secs`, for the same reason. */
export const MAX_TIMER_SECS = 2_147_483;
export const MAX_RETRIES_LIMIT = 10;

export const DEFAULT_RETRY: RetrySettings = Object.freeze({ enabled: true, maxRetries: 3, initialDelayMs: 500, maxDelayMs: 8000 });
export const DEFAULT_TUI: TuiSettings = Object.freeze({ streamChunkTimeoutSecs: null, alternateScreen: true, showReasoning: true, toastMs: 6000 });

/** The settings of a missing or empty config.toml. */
export const DEFAULT_SETTINGS: Settings = Object.freeze({
  file: null,
  provider: null,
  apiKey: null,
  baseUrl: null,
  defaultTextModel: null,
  reasoningEffort: null,
  providers: Object.freeze({}),
  retry: DEFAULT_RETRY,
  tui: DEFAULT_TUI,
});

/** The retry options for the provider (`streamWithRetry`): `enabled = false` means no re-attempt. */
export function retryOptions(retry: RetrySettings): { readonly maxRetries: number; readonly initialDelayMs: number; readonly maxDelayMs: number } {
  return { maxRetries: retry.enabled ? retry.maxRetries : 0, initialDelayMs: retry.initialDelayMs, maxDelayMs: retry.maxDelayMs };
}
