/**
 * Every bound the hook contract names, in one place. Byte limits count UTF-8 bytes;
 * char limits count Unicode code points (never UTF-16 units).
 */
export const LIMITS = {
  /** Default per-hook `timeout_secs`. */
  defaultTimeoutSecs: 30,
  /** Largest timeout a Node timer can hold (D20); larger values are clamped to this. */
  maxTimeoutSecs: 2_147_483,
  /** Observer dispatcher queue slots / workers. */
  observerQueueCapacity: 32,
  observerWorkers: 2,
  /** Background supervisor queue slots / workers (a separate pool). */
  backgroundQueueCapacity: 32,
  backgroundWorkers: 2,
  /** Bounded reap window after a kill, in milliseconds. */
  reapWindowMs: 2_000,
  /** SIGTERM → SIGKILL grace on timeout, in milliseconds. */
  killGraceMs: 500,
  /** Pipe drain after a normal exit / after a timeout, in milliseconds. */
  pipeDrainMs: 5_000,
  pipeShutdownMs: 250,
  /** Foreground stdout / stderr capture, each. */
  captureMaxBytes: 65_536,
  /** `shell_env` reads up to this much stdout from one hook (and accepts this many key+value bytes). */
  shellEnvMaxOutputBytes: 262_144,
  /** `shell_env` single value. */
  shellEnvMaxValueBytes: 32_768,
  /** `reason` / `additionalContext`, each field. */
  steeringFieldMaxChars: 2_000,
  /** Concatenated `additionalContext` for one tool call. */
  contextMaxChars: 8_000,
  /** `updatedInput`, compact JSON. */
  updatedInputMaxBytes: 32_768,
  /** `message_submit` stdin document (the trailing newline not counted). */
  messageSubmitDocumentMaxBytes: 32_768,
  /** `message_submit` metadata caps, tried in order; after the last, metadata is omitted. */
  messageSubmitMetadataCaps: [4_096, 1_024, 256] as readonly number[],
  /** `message_submit` replacement text. */
  messageSubmitReplacementMaxChars: 32_000,
  /** `DEEPSEEK_MESSAGE` and `DEEPSEEK_ERROR`. */
  envMessageMaxBytes: 5_000,
  envErrorMaxBytes: 5_000,
  /** `DEEPSEEK_TOOL_ARGS` and `DEEPSEEK_TOOL_RESULT`. */
  envToolArgsMaxBytes: 10_000,
  envToolResultMaxBytes: 10_000,
  /** Other observer metadata strings (tool name, call id, mode, session id, model, workspace). */
  envMetadataMaxBytes: 4_096,
  /** Sub-agent prompt / result previews. */
  subagentPreviewMaxBytes: 2_048,
  /** `turn_end.error` and `session_error.error`. */
  turnErrorMaxChars: 2_000,
  /** Structured denial reason (applied before and after redaction). */
  denialReasonMaxChars: 240,
  /** Hook label (`name`). */
  labelMaxChars: 64,
  /** No-verdict detail in a denial. */
  noVerdictDetailMaxChars: 160,
  /** `hooks list` command preview, marker included. */
  commandPreviewMaxChars: 60,
  /** Project `hooks.toml`. */
  projectHooksFileMaxBytes: 1_048_576,
  /** `DEEPSEEK_TOOL_EXECUTION_RECEIPT` JSON. */
  receiptMaxBytes: 32_768,
  /** Receipt `command` / `cwd`: longer means no receipt. */
  receiptFieldMaxBytes: 8_192,
  /** `tool_call_after` stdin document. */
  toolCallAfterDocumentMaxBytes: 65_536,
  /** Correlation ids in the `tool_call_after` stdin document. */
  toolCallAfterIdMaxBytes: 1_024,
  /** Audit log rotation threshold. */
  auditLogRotateBytes: 16 * 1_024 * 1_024,
  /** Bounded input previews inside a decision record. */
  decisionInputPreviewMaxBytes: 4_096,
} as const;

/** Marker for byte-capped environment values and metadata (three ASCII dots). */
export const ENV_TRUNCATION_MARKER = '...[truncated]';
/** Marker for the sanitized-text family (U+2026). */
export const TEXT_TRUNCATION_MARKER = '\u2026[truncated]';
/** Marker used by the 60-char command preview only. */
export const PREVIEW_ELLIPSIS = '\u2026';
/** Marker between the head and tail of a shrunk receipt preview. */
export const RECEIPT_PREVIEW_MARKER = '[receipt preview truncated]';
