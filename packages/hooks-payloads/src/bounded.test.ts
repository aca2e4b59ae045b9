import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { truncateBytes } from './bounded.js';
import { utf8ByteLength, isWellFormed } from './utf8.js';

const MARKER = '...[truncated]';
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 300 })).map(([u, n]) => u.repeat(n)),
);

describe('truncateBytes', () => {
  it('returns a value that fits unchanged', () => {
    expect(truncateBytes('hello', 5)).toEqual({ text: 'hello', truncated: false });
    expect(truncateBytes('', 0)).toEqual({ text: '', truncated: false });
    expect(truncateBytes('鲸鲸', 6)).toEqual({ text: '鲸鲸', truncated: false });
  });

  it('cuts once, to the largest prefix that fits, then appends ...[truncated]', () => {
    expect(truncateBytes('hello world', 5)).toEqual({ text: `hello${MARKER}`, truncated: true });
    expect(truncateBytes('abc', 0)).toEqual({ text: MARKER, truncated: true });
  });

  it('excludes a multibyte character that straddles the cap whole (🐋 with cap 10)', () => {
    const r = truncateBytes('🐋'.repeat(5), 10);
    expect(r.truncated).toBe(true);
    expect(r.text).toBe(`🐋🐋${MARKER}`);
    const head = r.text.slice(0, -MARKER.length);
    expect(utf8ByteLength(head)).toBeLessThanOrEqual(10);
    expect(isWellFormed(head)).toBe(true);
    expect(truncateBytes('a鲸', 3)).toEqual({ text: `a${MARKER}`, truncated: true });
  });

  it('does not nest markers when a bounded value is bounded again (D18: truncate once)', () => {
    const once = truncateBytes('x'.repeat(6_000), 5_000).text;
    const twice = truncateBytes(once, 5_000).text;
    expect(twice).toBe(once);
    expect(twice.split(MARKER)).toHaveLength(2);
  });

  it('is linear in the budget for huge inputs', () => {
    const big = 'a'.repeat(5_000_000);
    const r = truncateBytes(big, 10_000);
    expect(r.text).toHaveLength(10_000 + MARKER.length);
  });
});

describe('properties', () => {
  it('never exceeds the bound plus the marker, and keeps a prefix of the input', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 400 }), (s, max) => {
        const r = truncateBytes(s, max);
        expect(utf8ByteLength(r.text)).toBeLessThanOrEqual(max + MARKER.length);
        if (r.truncated) {
          expect(r.text.endsWith(MARKER)).toBe(true);
          const head = r.text.slice(0, -MARKER.length);
          expect(s.startsWith(head)).toBe(true);
          expect(utf8ByteLength(head)).toBeLessThanOrEqual(max);
          // the largest such prefix
          const next = [...s.slice(head.length)][0]!;
          expect(utf8ByteLength(head + next)).toBeGreaterThan(max);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('leaves fitting input untouched', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 100 }), (s, slack) => {
        expect(truncateBytes(s, utf8ByteLength(s) + slack)).toEqual({ text: s, truncated: false });
      }),
      { numRuns: 200 },
    );
  });

  it('produces valid UTF-8 from well-formed input', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 400 }), (s, max) => isWellFormed(truncateBytes(s, max).text)),
      { numRuns: 300 },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 400 }), (s, max) => {
        const once = truncateBytes(s, max).text;
        expect(truncateBytes(once, max).text).toBe(once);
      }),
      { numRuns: 300 },
    );
  });
});
