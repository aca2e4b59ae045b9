import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { displayWidth, fitRow, hardWrap, wrapRows } from './rows.js';

const text = fc.array(fc.constantFrom('a', 'b', 'c', ' ', '  ', '漢', '🐳', 'é', 'wordy', 'x'.repeat(30)), { maxLength: 80 }).map((p) => p.join(''));

describe('displayWidth', () => {
  it('property: agrees with string-width on any text (its ASCII shortcut included)', () => {
    const any = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ maxLength: 40 }), text, fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) }));
    fc.assert(
      fc.property(any, (t) => {
        expect(displayWidth(t)).toBe(stringWidth(t));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('wrapRows', () => {
  it('breaks at spaces, splits a word wider than a row, and keeps an empty line as one row', () => {
    expect(wrapRows('hello big world', 9)).toEqual(['hello big', 'world']);
    expect(wrapRows('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapRows('', 10)).toEqual(['']);
    expect(wrapRows('漢字漢字', 5)).toEqual(['漢字', '漢字']);
  });

  it('property: no row is wider than the width, and the characters other than spaces stay, in order', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 120 }), (line, width) => {
        const rows = wrapRows(line, width);
        expect(rows.length).toBeGreaterThan(0);
        for (const r of rows) expect(displayWidth(r)).toBeLessThanOrEqual(width);
        expect(rows.join('').replace(/ /g, '')).toBe(line.replace(/ /g, ''));
      }),
      { numRuns: 500 },
    );
  });
});

describe('hardWrap', () => {
  it('property: rows rejoin to the line, none is wider than the width, the cursor lands on its character', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 120 }), fc.nat(), (line, width, c) => {
        const chars = Array.from(line);
        const cursor = c % (chars.length + 1);
        const r = hardWrap(line, width, cursor);
        expect(r.rows.join('')).toBe(line);
        for (const row of r.rows) expect(displayWidth(row)).toBeLessThanOrEqual(width);
        const row = Array.from(r.rows[r.cursorRow]!);
        expect(row[r.cursorCol] ?? null).toBe(chars[cursor] ?? null);
        // The cursor cell itself fits the row (a cursor at the end gets a cell of its own).
        if (cursor === chars.length) expect(displayWidth(r.rows[r.cursorRow]!) + 1).toBeLessThanOrEqual(width);
      }),
      { numRuns: 500 },
    );
  });
});

describe('fitRow', () => {
  it('property: fits the width, and is the text itself when it already fit', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 80 }), (t, width) => {
        const r = fitRow(t, width);
        expect(displayWidth(r)).toBeLessThanOrEqual(width);
        if (displayWidth(t) <= width) expect(r).toBe(t);
        else expect(r.endsWith('\u2026')).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
