import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layoutLive, liveHeight, liveWidth, type LiveInput, type Row } from './live-layout.js';
import { displayWidth } from './rows.js';

const words = fc.array(fc.constantFrom('a', 'bb', ' ', '漢字', '🐳', 'long'.repeat(12), '\n'), { maxLength: 120 }).map((p) => p.join(''));
const row = words.map((text): Row => ({ text }));

const input: fc.Arbitrary<LiveInput> = fc.record({
  columns: fc.integer({ min: 1, max: 220 }),
  rows: fc.integer({ min: 1, max: 70 }),
  reasoning: words,
  text: words,
  queued: fc.array(words, { maxLength: 8 }),
  modal: fc.option(fc.array(row, { minLength: 1, maxLength: 14 }), { nil: null }),
  composer: fc.option(
    fc
      .array(
        words.map((w) => w.replace(/\n/g, ' ')),
        { minLength: 1, maxLength: 12 },
      )
      .chain((lines) =>
        fc
          .record({ lines: fc.constant(lines), line: fc.integer({ min: 0, max: lines.length - 1 }), column: fc.nat(), prompt: fc.constantFrom('❯ ', '» ') })
          .map((c) => ({ ...c, column: c.column % (Array.from(c.lines[c.line]!).length + 1) })),
      ),
    { nil: null },
  ),
  menu: fc.array(
    row.map((r) => ({ ...r, text: r.text.replace(/\n/g, ' ') })),
    { maxLength: 9 },
  ),
  toast: fc.option(
    row.map((r) => ({ ...r, text: r.text.replace(/\n/g, ' ') })),
    { nil: null },
  ),
  status: words.map((w) => `○ idle · ${w.replace(/\n/g, ' ')}`),
});

describe('layoutLive', () => {
  it('property: the live region is always shorter than the terminal, no row reaches its last column, the status row is last', () => {
    fc.assert(
      fc.property(input, (i) => {
        const out = layoutLive(i);
        expect(out.length).toBeGreaterThan(0);
        expect(out.length).toBeLessThanOrEqual(liveHeight(i.rows));
        if (i.rows >= 3) expect(out.length).toBeLessThan(i.rows - 1);
        for (const r of out) expect(displayWidth((r.prefix ?? '') + r.text) + (r.cursor !== undefined && r.cursor >= Array.from(r.text).length ? 1 : 0)).toBeLessThanOrEqual(liveWidth(i.columns));
        expect(out.at(-1)!.text.startsWith('○ idle') || out.at(-1)!.text.startsWith('○') || out.at(-1)!.text === '\u2026').toBe(true);
        // The composer's cursor row stays visible when there is room for it.
        if (i.composer && liveHeight(i.rows) >= 2 + (i.modal ? 2 : 0)) expect(out.some((r) => r.cursor !== undefined)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('gives the streaming paragraph the rows that are left, its tail, and says how many rows are above', () => {
    const text = Array.from({ length: 90 }, (_, i) => `word${i}`).join(' ');
    const out = layoutLive({
      columns: 61,
      rows: 8,
      reasoning: '',
      text,
      queued: [],
      modal: null,
      composer: { lines: [''], line: 0, column: 0, prompt: '❯ ' },
      menu: [],
      toast: null,
      status: '○ idle',
    });
    expect(out).toHaveLength(6);
    expect(out[0]!.text).toMatch(/^… \d+ earlier rows of this paragraph/);
    expect(out[2]!.text).toMatch(/word89$/);
    expect(out.slice(-2).map((r) => r.text)).toEqual([' ', '○ idle']);
  });

  it('a modal keeps its first rows and its key hint when the terminal is short', () => {
    const modal: Row[] = [{ text: 'A hook asks for approval' }, ...Array.from({ length: 10 }, (_, i) => ({ text: `detail ${i}` })), { text: 'y allow once' }];
    const out = layoutLive({ columns: 80, rows: 8, reasoning: '', text: '', queued: [], modal, composer: null, menu: [], toast: null, status: '○ idle' });
    expect(out.length).toBeLessThanOrEqual(6);
    expect(out[0]!.text).toBe('A hook asks for approval');
    expect(out.at(-2)!.text).toBe('y allow once');
  });
});
