import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@codewhale/hooks-payloads';
import { effectiveTimeout } from './effective-timeout.js';

describe('effectiveTimeout', () => {
  it('default, own value, override', () => {
    expect(effectiveTimeout(null, null)).toEqual({ secs: 30, source: 'default', clamped: false });
    expect(effectiveTimeout(90, null)).toEqual({ secs: 90, source: 'hook', clamped: false });
    expect(effectiveTimeout(90, 5)).toEqual({ secs: 5, source: 'override', clamped: false });
    expect(effectiveTimeout(null, 5)).toEqual({ secs: 5, source: 'override', clamped: false });
  });

  it('clamps to the Node timer maximum (D20)', () => {
    expect(effectiveTimeout(LIMITS.maxTimeoutSecs, null).clamped).toBe(false);
    expect(effectiveTimeout(LIMITS.maxTimeoutSecs + 1, null)).toEqual({ secs: LIMITS.maxTimeoutSecs, source: 'hook', clamped: true });
  });
});

describe('properties', () => {
  it('is always within 1..max and the override always wins', () => {
    fc.assert(
      fc.property(fc.option(fc.integer({ min: 1, max: 2 ** 40 })), fc.option(fc.integer({ min: 1, max: 2 ** 40 })), (own, override) => {
        const t = effectiveTimeout(own, override);
        expect(t.secs).toBeGreaterThanOrEqual(1);
        expect(t.secs).toBeLessThanOrEqual(LIMITS.maxTimeoutSecs);
        if (override !== null) expect(t.secs).toBe(Math.min(override, LIMITS.maxTimeoutSecs));
      }),
    );
  });
});
