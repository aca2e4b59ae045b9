import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Vt } from '../test/vt.js';
import { frameDiff, itemText, redraw, reflowedRows, rowText, styled } from './live-region.js';
import { displayWidth } from './rows.js';

const COLUMNS = 24;
const ROWS = 12;
const trim = (s: string) => s.replace(/ +$/, '');
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

/** A row as the screen writes one: short of the last column, sometimes styled, sometimes wide characters. */
const row = fc
  .tuple(fc.array(fc.constantFrom('a', 'b', ' ', '漢', '🐳', 'x'), { maxLength: 11 }), fc.constantFrom(undefined, 'gray', 'cyan'), fc.boolean())
  .map(([cs, color, bold]) => styled(cs.join(''), { color, bold }, true));
/** A frame: fewer rows than the terminal has (the live layout's bound). */
const frame = fc.array(row, { maxLength: ROWS - 2 });

function drawn(vt: Vt, f: readonly string[]): string[] {
  return vt.screen().slice(vt.row - f.length, vt.row);
}

describe('frameDiff', () => {
  it('property: turns any frame on screen into any other, touches nothing above it, and writes only the rows that changed', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('KEEP-1', 'KEEP-2 above'), { maxLength: 3 }), frame, frame, (above, prev, next) => {
        const vt = new Vt(COLUMNS, ROWS);
        vt.write(redraw(0, above.map((l) => `${l}\n`).join(''), prev));
        const before = vt.printed;
        vt.write(frameDiff(prev, next));
        // The cursor is on the line below the frame, at its start; the frame is there as written.
        expect(vt.col).toBe(0);
        expect(drawn(vt, next)).toEqual(next.map((r) => trim(strip(r))));
        // Nothing below it, nothing above it changed.
        expect(
          vt
            .screen()
            .slice(vt.row)
            .every((l) => l === ''),
        ).toBe(true);
        expect(vt.everything().slice(0, above.length)).toEqual(above);
        // Only changed rows were written.
        const changed = next.filter((r, i) => r !== prev[i]);
        expect(vt.printed - before).toBe(changed.reduce((n, r) => n + displayWidth(strip(r)), 0));
      }),
      { numRuns: 400 },
    );
  });

  it('writes nothing when nothing changed, and one row when one row changed', () => {
    const f = ['one', 'two', 'three'];
    expect(frameDiff(f, f)).toBe('');
    const out = frameDiff(f, ['one', 'TWO', 'three']);
    expect(out).toContain('TWO');
    expect(out).not.toMatch(/one|three/);
  });
});

describe('redraw (finished items printed above the live region)', () => {
  it('property: a run of frames and printed items leaves every item once, in order, then the current frame, and no frame row in the scrollback', () => {
    const step = fc.oneof(
      frame.map((f) => ({ kind: 'frame' as const, f })),
      fc.array(fc.constantFrom('p', 'para', 'words'), { minLength: 1, maxLength: 2 }).map((ws) => ({ kind: 'item' as const, text: ws.join(' ') })),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const vt = new Vt(COLUMNS, ROWS);
        let on: string[] = [];
        const items: string[] = [];
        let n = 0;
        for (const s of steps) {
          if (s.kind === 'frame') {
            vt.write(frameDiff(on, s.f));
            on = s.f;
          } else {
            const text = `ITEM${n++} ${s.text}`;
            items.push(text);
            vt.write(redraw(on.length, itemText({ id: n, kind: 'assistant', lines: [text] }, COLUMNS, true), on));
          }
          const expected = [...items, ...on.map((r) => trim(strip(r)))];
          while (expected.length && expected.at(-1) === '') expected.pop();
          expect(vt.everything()).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('erases a frame the terminal has re-wrapped to more rows than were written', () => {
    const vt = new Vt(COLUMNS, ROWS);
    vt.write('TRANSCRIPT\n');
    // A frame of two rows that a narrower terminal now shows as four (each row re-wrapped to two).
    vt.write('a\nb\nc\nd\n');
    vt.write(redraw(reflowedRows([20, 20], 10), 'NEXT ITEM\n', ['frame']));
    expect(vt.everything()).toEqual(['TRANSCRIPT', 'NEXT ITEM', 'frame']);
  });
});

describe('rows as written', () => {
  it('rowText draws the prompt, the text and the composer cursor (inverse), and no more columns than the row has', () => {
    const r = rowText({ text: 'hello', prefix: '❯ ', prefixColor: 'cyan', cursor: 5 }, true);
    expect(strip(r)).toBe('❯ hello ');
    expect(r).toContain('\x1b[7m \x1b[0m');
    expect(rowText({ text: 'hello', cursor: 1 }, false)).toBe('h\x1b[7me\x1b[0mllo');
    expect(rowText({ text: 'plain', color: 'red' }, false)).toBe('plain');
  });

  it('reflowedRows: a row takes ceil(width / columns) rows, an empty one still one', () => {
    expect(reflowedRows([0, 10, 11, 30], 10)).toBe(1 + 1 + 2 + 3);
  });
});
