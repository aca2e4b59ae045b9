import { LIMITS } from './limits.js';
import { truncateBytes } from './bounded.js';
import { sanitizeLine, sanitizeText } from './sanitize.js';
import { modeSpellingFor } from './modes.js';
import { formatTimestamp } from './timestamp.js';

/** Token usage of one turn, as `turn_end` reports it; absent counts are `null`. */
export interface TurnUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly promptCacheHitTokens?: number | null;
  readonly promptCacheMissTokens?: number | null;
  readonly promptCacheWriteTokens?: number | null;
  readonly reasoningTokens?: number | null;
  readonly reasoningReplayTokens?: number | null;
}

export interface SessionTotals {
  readonly sessionTokens: number;
  readonly conversationTokens: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface TurnEndInput {
  readonly sessionId: string | null;
  readonly workspace: string | null;
  readonly mode: string | null;
  /** When the turn started (or, for a completion with no matching start, when it was observed). */
  readonly createdAt: Date | number;
  readonly modelBacked: boolean;
  readonly provider: string | null;
  readonly billingSurface?: string | null;
  readonly model: string | null;
  /** `turn_…`, or a synthetic `lifecycle_<uuid>` for a completion with no matching start. */
  readonly turnId: string;
  readonly status: string | null;
  readonly error?: string | null;
  readonly durationMs: number;
  readonly usage: TurnUsage | null;
  readonly totals: SessionTotals;
  readonly toolCount: number;
  readonly queuedMessageCount: number;
}

/** Observer metadata strings are bounded before they reach a hook (4,096 bytes + marker). */
function meta(s: string | null | undefined): string | null {
  return s == null ? null : truncateBytes(sanitizeLine(s).text, LIMITS.envMetadataMaxBytes).text;
}

function count(n: number | null | undefined): number | null {
  if (n == null || !Number.isFinite(n)) return null;
  return Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, Math.trunc(n)));
}

/**
 * The `turn_end` stdin document, keys in contract order. `created_at` is RFC 3339 with
 * `+00:00`; `error` is sanitized and bounded at 2,000 chars; `duration_ms` saturates;
 * `stop_hook_active` is always `false`. A base URL never appears.
 */
export function buildTurnEndDocument(input: TurnEndInput): Record<string, unknown> {
  const u = input.usage;
  return {
    event: 'turn_end',
    session_id: meta(input.sessionId),
    workspace: meta(input.workspace),
    mode: input.mode == null ? null : meta(modeSpellingFor('ui', input.mode)),
    created_at: formatTimestamp(input.createdAt),
    model_backed: input.modelBacked,
    provider: input.modelBacked ? meta(input.provider) : null,
    billing_surface: input.modelBacked ? meta(input.billingSurface) : null,
    model: meta(input.model),
    turn_id: meta(input.turnId),
    status: meta(input.status) ?? 'unknown',
    error: input.error == null ? null : sanitizeText(input.error, LIMITS.turnErrorMaxChars).text,
    duration_ms: count(input.durationMs) ?? 0,
    usage: {
      input_tokens: count(u?.inputTokens) ?? 0,
      output_tokens: count(u?.outputTokens) ?? 0,
      prompt_cache_hit_tokens: count(u?.promptCacheHitTokens),
      prompt_cache_miss_tokens: count(u?.promptCacheMissTokens),
      prompt_cache_write_tokens: count(u?.promptCacheWriteTokens),
      reasoning_tokens: count(u?.reasoningTokens),
      reasoning_replay_tokens: count(u?.reasoningReplayTokens),
    },
    totals: {
      session_tokens: count(input.totals.sessionTokens) ?? 0,
      conversation_tokens: count(input.totals.conversationTokens) ?? 0,
      input_tokens: count(input.totals.inputTokens) ?? 0,
      output_tokens: count(input.totals.outputTokens) ?? 0,
    },
    tool_count: count(input.toolCount) ?? 0,
    queued_message_count: count(input.queuedMessageCount) ?? 0,
    stop_hook_active: false,
  };
}

/** A bounded preview: the text if it is at most 2,048 bytes, else a prefix plus `...[truncated]`. */
export function subagentPreview(text: string): { preview: string; truncated: boolean } {
  const b = truncateBytes(text, LIMITS.subagentPreviewMaxBytes);
  return { preview: b.text, truncated: b.truncated };
}

export interface SubagentCommon {
  readonly agentId: string;
  readonly sessionId: string | null;
  readonly workspace: string | null;
  readonly mode: string | null;
  readonly model: string | null;
  readonly totalTokens: number | null;
}

function common(input: SubagentCommon, event: string): Record<string, unknown> {
  return {
    event,
    agent_id: meta(input.agentId),
    session_id: meta(input.sessionId),
    workspace: meta(input.workspace),
    mode: input.mode == null ? null : meta(modeSpellingFor('ui', input.mode)),
    model: meta(input.model),
    total_tokens: count(input.totalTokens),
  };
}

/** The `subagent_spawn` stdin document (prompt preview ≤ 2,048 bytes). */
export function buildSubagentSpawnDocument(input: SubagentCommon & { readonly prompt: string }): Record<string, unknown> {
  const p = subagentPreview(input.prompt);
  return { ...common(input, 'subagent_spawn'), prompt_preview: p.preview, prompt_truncated: p.truncated };
}

/** The `subagent_complete` stdin document (result preview ≤ 2,048 bytes, and a status). */
export function buildSubagentCompleteDocument(input: SubagentCommon & { readonly result: string; readonly status?: string | null }): Record<string, unknown> {
  const p = subagentPreview(input.result);
  return {
    ...common(input, 'subagent_complete'),
    result_preview: p.preview,
    result_truncated: p.truncated,
    status: input.status != null ? sanitizeLine(input.status, 64).text : subagentCompletionStatus(input.result),
  };
}

const DONE_SENTINEL = /<codewhale:subagent\.done>([\s\S]*?)<\/codewhale:subagent\.done>/;

/**
 * A sub-agent's completion status from its result text: the `status` in a
 * `<codewhale:subagent.done>{…}</codewhale:subagent.done>` sentinel, else a leading
 * `cancelled` / `canceled` / `failed` / `interrupted` line, else `unknown`.
 */
export function subagentCompletionStatus(result: string): string {
  const m = DONE_SENTINEL.exec(result);
  if (m) {
    try {
      const v = JSON.parse(m[1]!) as unknown;
      if (typeof v === 'object' && v !== null && typeof (v as { status?: unknown }).status === 'string') {
        const s = (v as { status: string }).status.trim();
        if (s) return sanitizeText(s, 64).text;
      }
    } catch {
      // fall through to the summary forms
    }
  }
  const first =
    result
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim()
      .toLowerCase() ?? '';
  if (first === 'cancelled' || first === 'canceled' || first.startsWith('cancelled:') || first.startsWith('canceled:')) return 'cancelled';
  if (first === 'failed' || first.startsWith('failed:')) return 'failed';
  if (first === 'interrupted' || first.startsWith('interrupted:')) return 'interrupted';
  return 'unknown';
}

/** The `session_error` stdin document: `{"status":…,"error":…}`, the error sanitized and bounded at 2,000 chars. */
export function buildSessionErrorDocument(status: string, error: string): Record<string, unknown> {
  return { status: sanitizeLine(status, 64).text, error: sanitizeText(error, LIMITS.turnErrorMaxChars).text };
}
