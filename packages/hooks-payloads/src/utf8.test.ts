import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { utf8ByteLength, utf8PrefixEnd, utf8SuffixStart, codePointLength, isWellFormed } from './utf8.js';

const encoder = new TextEncoder();
/** Any UTF-16 string, lone surrogates included. */
const anyUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 40 });
/** Well-formed strings over the whole code-point range. */
const wellFormed = fc.string({ unit: 'binary', maxLength: 40 });

describe('utf8ByteLength', () => {
  it('counts 1, 2, 3 and 4 byte code points', () => {
    expect(utf8ByteLength('')).toBe(0);
    expect(utf8ByteLength('a')).toBe(1);
    expect(utf8ByteLength('é')).toBe(2);
    expect(utf8ByteLength('鲸')).toBe(3);
    expect(utf8ByteLength('🐋')).toBe(4);
    expect(utf8ByteLength('hello 用户')).toBe(12);
  });

  it('counts a lone surrogate as the 3 bytes of U+FFFD', () => {
    expect(utf8ByteLength('\ud800')).toBe(3);
    expect(utf8ByteLength('\udc00x')).toBe(4);
    expect(utf8ByteLength('\udc00\ud800')).toBe(6);
  });
});

describe('utf8PrefixEnd / utf8SuffixStart', () => {
  it('never splits a code point', () => {
    const whales = '🐋🐋🐋';
    expect(utf8PrefixEnd(whales, 10)).toBe(4); // two whales, 8 bytes
    expect(utf8PrefixEnd(whales, 7)).toBe(2);
    expect(utf8PrefixEnd(whales, 3)).toBe(0);
    expect(utf8PrefixEnd(whales, 12)).toBe(6);
    expect(utf8SuffixStart(whales, 10)).toBe(2);
    expect(utf8SuffixStart(whales, 3)).toBe(6);
    expect(utf8SuffixStart(whales, 100)).toBe(0);
    expect(utf8PrefixEnd('a鲸b', 3)).toBe(1);
    expect(utf8PrefixEnd('a鲸b', 4)).toBe(2);
  });

  it('handles a zero budget and an empty string', () => {
    expect(utf8PrefixEnd('abc', 0)).toBe(0);
    expect(utf8SuffixStart('abc', 0)).toBe(3);
    expect(utf8PrefixEnd('', 5)).toBe(0);
    expect(utf8SuffixStart('', 5)).toBe(0);
  });
});

describe('codePointLength / isWellFormed', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(codePointLength('🐋🐋')).toBe(2);
    expect('🐋🐋'.length).toBe(4);
    expect(codePointLength('a\ud800b')).toBe(3);
  });

  it('detects lone surrogates', () => {
    expect(isWellFormed('abc🐋')).toBe(true);
    expect(isWellFormed('\ud83d')).toBe(false);
    expect(isWellFormed('\udc0b')).toBe(false);
    expect(isWellFormed('\udc0b\ud83d')).toBe(false);
    expect(isWellFormed('x\ud83dy')).toBe(false);
    expect(isWellFormed('')).toBe(true);
  });
});

describe('properties', () => {
  it('utf8ByteLength equals what TextEncoder produces, for any UTF-16 string', () => {
    fc.assert(
      fc.property(anyUnits, (s) => utf8ByteLength(s) === encoder.encode(s).length),
      { numRuns: 300 },
    );
  });

  it('codePointLength equals the string iterator count', () => {
    fc.assert(
      fc.property(anyUnits, (s) => codePointLength(s) === [...s].length),
      { numRuns: 300 },
    );
  });

  it('isWellFormed is false exactly when the string has a lone surrogate', () => {
    fc.assert(
      fc.property(wellFormed, (s) => isWellFormed(s)),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(wellFormed, wellFormed, fc.integer({ min: 0xd800, max: 0xdfff }), (a, b, c) => !isWellFormed(`${a + String.fromCharCode(c)}x${b}`)),
      { numRuns: 200 },
    );
  });

  it('the prefix is the largest one within the budget and ends on a code-point boundary', () => {
    fc.assert(
      fc.property(wellFormed, fc.integer({ min: 0, max: 200 }), (s, max) => {
        const end = utf8PrefixEnd(s, max);
        const head = s.slice(0, end);
        expect(isWellFormed(head)).toBe(true);
        expect(utf8ByteLength(head)).toBeLessThanOrEqual(max);
        if (end < s.length) {
          const next = [...s.slice(end)][0]!;
          expect(utf8ByteLength(head + next)).toBeGreaterThan(max);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the suffix is the largest one within the budget and starts on a code-point boundary', () => {
    fc.assert(
      fc.property(wellFormed, fc.integer({ min: 0, max: 200 }), (s, max) => {
        const start = utf8SuffixStart(s, max);
        const tail = s.slice(start);
        expect(isWellFormed(tail)).toBe(true);
        expect(utf8ByteLength(tail)).toBeLessThanOrEqual(max);
        if (start > 0) {
          const prev = [...s.slice(0, start)].at(-1)!;
          expect(utf8ByteLength(prev + tail)).toBeGreaterThan(max);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('utf8ByteLength on long strings (native, chunked path)', () => {
  it('agrees with TextEncoder across chunk boundaries, including a surrogate pair split by a chunk edge', () => {
    const pair = '\u{1F40B}';
    for (const text of ['a'.repeat(65_535) + pair + 'b'.repeat(70_000), '鲸'.repeat(100_000), `${'x'.repeat(65_536)}\uD800y`, pair.repeat(70_000)]) {
      expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).length);
    }
  });

  describe('properties', () => {
    it('matches TextEncoder for strings longer than the fast-path threshold', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', minLength: 4097, maxLength: 9000 }), (s) => {
          expect(utf8ByteLength(s)).toBe(new TextEncoder().encode(s).length);
        }),
        { numRuns: 50 },
      );
    });
  });
});
