/**
 * Token usage as the various OpenAI-compatible servers report it, normalised to
 * {@link ModelUsage}.
 */
import type { ModelUsage } from './types.js';

/** Usage with every count zero or absent. */
export const ZERO_USAGE: ModelUsage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  promptCacheHitTokens: null,
  promptCacheMissTokens: null,
  promptCacheWriteTokens: null,
  reasoningTokens: null,
});

/**
 * Parse a `usage` object. Accepted spellings, first present wins:
 * - input: `prompt_tokens`, `input_tokens`;
 * - output: `completion_tokens`, `output_tokens`;
 * - reasoning: `completion_tokens_details.reasoning_tokens`, `output_tokens_details.reasoning_tokens`,
 *   `reasoning_tokens`; dropped (`null`) when larger than the output count;
 * - cache hit: DeepSeek `prompt_cache_hit_tokens`, else OpenAI `prompt_tokens_details.cached_tokens`
 *   (or `input_tokens_details.cached_tokens`), else Anthropic-style `cache_read_input_tokens`;
 * - cache miss: DeepSeek `prompt_cache_miss_tokens`, else input − hit when a hit count is known;
 *   a DeepSeek miss count without a hit count gives hit = input − miss;
 * - cache write: Anthropic-style `cache_creation_input_tokens`, `prompt_cache_write_tokens`,
 *   `prompt_tokens_details.cache_write_tokens`, `cache_write_tokens`.
 *
 * A count is a finite number ≥ 0 (fractions are truncated); anything else counts as absent.
 * Malformed input (not an object) yields {@link ZERO_USAGE}. Never throws.
 */
export function parseUsage(raw: unknown): ModelUsage {
  const u = asRecord(raw);
  if (u === null) return ZERO_USAGE;
  const promptDetails = asRecord(u['prompt_tokens_details']) ?? asRecord(u['input_tokens_details']);
  const outputDetails = asRecord(u['completion_tokens_details']) ?? asRecord(u['output_tokens_details']);

  const inputTokens = count(u['prompt_tokens']) ?? count(u['input_tokens']) ?? 0;
  const outputTokens = count(u['completion_tokens']) ?? count(u['output_tokens']) ?? 0;

  let reasoningTokens = count(outputDetails?.['reasoning_tokens']) ?? count(u['reasoning_tokens']);
  if (reasoningTokens !== null && reasoningTokens > outputTokens) reasoningTokens = null;

  let hit = count(u['prompt_cache_hit_tokens']) ?? count(promptDetails?.['cached_tokens']) ?? count(u['cache_read_input_tokens']);
  let miss = count(u['prompt_cache_miss_tokens']);
  if (hit !== null && miss === null) miss = Math.max(0, inputTokens - hit);
  else if (hit === null && miss !== null) hit = Math.max(0, inputTokens - miss);

  const write = count(u['cache_creation_input_tokens']) ?? count(u['prompt_cache_write_tokens']) ?? count(promptDetails?.['cache_write_tokens']) ?? count(u['cache_write_tokens']);

  return {
    inputTokens,
    outputTokens,
    promptCacheHitTokens: hit,
    promptCacheMissTokens: miss,
    promptCacheWriteTokens: write,
    reasoningTokens,
  };
}

/**
 * A deterministic token estimate for text nobody counted: about 4 characters (code points)
 * per token, rounded up. Used by the replay provider and for reasoning replay accounting.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(codePointCount(text) / 4);
}

/**
 * The number of code points of `text` (what iterating the string yields: a surrogate pair is
 * one, a lone surrogate is one), without the string iterator's allocation per code point.
 */
export function codePointCount(text: string): number {
  let pairs = 0;
  for (let i = 0; i + 1 < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}

function asRecord(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.trunc(v) : null;
}
