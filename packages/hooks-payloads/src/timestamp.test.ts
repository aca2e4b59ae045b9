import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { formatTimestamp } from './timestamp.js';

describe('formatTimestamp (D23)', () => {
  it('writes RFC 3339 UTC with +00:00, never Z, and no fraction when it is zero', () => {
    expect(formatTimestamp(Date.parse('2026-07-12T10:30:00Z'))).toBe('2026-07-12T10:30:00+00:00');
    expect(formatTimestamp(new Date('2026-07-12T10:30:00.000Z'))).toBe('2026-07-12T10:30:00+00:00');
  });

  it('writes a non-zero fraction as three digits', () => {
    expect(formatTimestamp(Date.parse('2026-07-12T10:30:00.250Z'))).toBe('2026-07-12T10:30:00.250+00:00');
    expect(formatTimestamp(Date.parse('2026-07-12T10:30:00.007Z'))).toBe('2026-07-12T10:30:00.007+00:00');
  });

  it('converts a non-UTC instant to UTC', () => {
    expect(formatTimestamp(new Date('2026-07-12T12:30:00+02:00'))).toBe('2026-07-12T10:30:00+00:00');
  });

  it('refuses an invalid time', () => {
    expect(() => formatTimestamp(Number.NaN)).toThrow(RangeError);
    expect(() => formatTimestamp(new Date('not a date'))).toThrow(RangeError);
  });
});

describe('properties', () => {
  it('always ends with +00:00 and parses back to the same instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        const s = formatTimestamp(ms);
        expect(s).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?\+00:00$/);
        expect(s).not.toContain('Z');
        expect(Date.parse(s)).toBe(ms);
      }),
      { numRuns: 300 },
    );
  });
});
