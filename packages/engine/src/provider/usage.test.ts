import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZERO_USAGE, estimateTokens, parseUsage } from './usage.js';

describe('parseUsage', () => {
  it('reads OpenAI Chat Completions usage with cached and reasoning tokens', () => {
    expect(
      parseUsage({
        prompt_tokens: 1200,
        completion_tokens: 300,
        total_tokens: 1500,
        prompt_tokens_details: { cached_tokens: 1000 },
        completion_tokens_details: { reasoning_tokens: 120 },
      }),
    ).toEqual({
      inputTokens: 1200,
      outputTokens: 300,
      promptCacheHitTokens: 1000,
      promptCacheMissTokens: 200,
      promptCacheWriteTokens: null,
      reasoningTokens: 120,
    });
  });

  it('prefers DeepSeek cache hit/miss counts over cached_tokens', () => {
    expect(
      parseUsage({
        prompt_tokens: 100,
        completion_tokens: 10,
        prompt_cache_hit_tokens: 64,
        prompt_cache_miss_tokens: 36,
        prompt_tokens_details: { cached_tokens: 1 },
      }),
    ).toMatchObject({ inputTokens: 100, outputTokens: 10, promptCacheHitTokens: 64, promptCacheMissTokens: 36 });
  });

  it('derives hit from a lone DeepSeek miss count', () => {
    expect(parseUsage({ prompt_tokens: 100, completion_tokens: 1, prompt_cache_miss_tokens: 30 })).toMatchObject({
      promptCacheHitTokens: 70,
      promptCacheMissTokens: 30,
    });
  });

  it('reads Responses-style input/output names', () => {
    expect(parseUsage({ input_tokens: 50, output_tokens: 7, output_tokens_details: { reasoning_tokens: 3 }, input_tokens_details: { cached_tokens: 20 } })).toEqual({
      inputTokens: 50,
      outputTokens: 7,
      promptCacheHitTokens: 20,
      promptCacheMissTokens: 30,
      promptCacheWriteTokens: null,
      reasoningTokens: 3,
    });
  });

  it('maps Anthropic-style cache read/creation counts', () => {
    expect(parseUsage({ input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 4, cache_creation_input_tokens: 90 })).toMatchObject({
      promptCacheHitTokens: 4,
      promptCacheMissTokens: 6,
      promptCacheWriteTokens: 90,
    });
  });

  it('drops reasoning tokens larger than the output', () => {
    expect(parseUsage({ prompt_tokens: 1, completion_tokens: 5, completion_tokens_details: { reasoning_tokens: 6 } }).reasoningTokens).toBeNull();
    expect(parseUsage({ prompt_tokens: 1, completion_tokens: 5, completion_tokens_details: { reasoning_tokens: 5 } }).reasoningTokens).toBe(5);
  });

  it('never lets the miss count go negative', () => {
    expect(parseUsage({ prompt_tokens: 10, prompt_tokens_details: { cached_tokens: 50 } }).promptCacheMissTokens).toBe(0);
  });

  it('has nulls for absent cache and reasoning counts', () => {
    expect(parseUsage({ prompt_tokens: 3, completion_tokens: 4 })).toEqual({ ...ZERO_USAGE, inputTokens: 3, outputTokens: 4 });
  });

  it('turns malformed input into zeros and nulls', () => {
    for (const junk of [null, undefined, 'x', 42, [], { prompt_tokens: 'many', completion_tokens: -3 }, { prompt_tokens: Number.NaN }]) {
      expect(parseUsage(junk)).toEqual(ZERO_USAGE);
    }
    expect(parseUsage({ prompt_tokens: 12.9, completion_tokens: Infinity })).toEqual({ ...ZERO_USAGE, inputTokens: 12 });
  });

  describe('properties', () => {
    it('never throws, and every count is a non-negative integer or null', () => {
      fc.assert(
        fc.property(fc.anything(), (raw) => {
          const u = parseUsage(raw);
          for (const v of Object.values(u)) expect(v === null || (Number.isInteger(v) && v >= 0)).toBe(true);
          if (u.reasoningTokens !== null) expect(u.reasoningTokens).toBeLessThanOrEqual(u.outputTokens);
        }),
      );
    });
  });
});

describe('estimateTokens', () => {
  it('counts about four code points per token, rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('🐋🐋🐋🐋')).toBe(1);
  });
});
