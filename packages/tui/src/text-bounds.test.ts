import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutText, cutToolOutput, oneLine, type CutLimits } from './text-bounds.js';

const limits: CutLimits = { headLines: 3, tailLines: 2, lineChars: 20, maxChars: 1000 };

describe('cutText', () => {
  it('keeps a short text whole', () => {
    expect(cutText('a\nb\nc\n', limits)).toEqual({ lines: ['a', 'b', 'c'], omittedLines: 0, cut: false });
  });

  it('keeps head and tail lines with a marker between', () => {
    const text = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n');
    const r = cutText(text, limits);
    expect(r.lines).toEqual(['line 1', 'line 2', 'line 3', '\u2026 5 lines not shown \u2026', 'line 9', 'line 10']);
    expect(r.omittedLines).toBe(5);
  });

  it('bounds a 10 MB text without splitting all of it', () => {
    const big = `${'x'.repeat(80)}\n`;
    const text = big.repeat(130_000); // ~10.5 MB
    const r = cutText(text, { headLines: 4, tailLines: 4, lineChars: 50, maxChars: 4096 });
    expect(r.cut).toBe(true);
    expect(r.lines.length).toBe(9);
    expect(r.lines[4]).toMatch(/lines not shown/);
    expect(r.lines[0]).toBe(`${'x'.repeat(49)}\u2026`);
  });

  it('strips control characters', () => {
    expect(cutText('a\x1b[31mred\x07\r\nb', limits).lines).toEqual(['a[31mred', 'b']);
  });

  it('property: never more than head + tail + 1 lines, each within the line bound, and a marker exactly when cut', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 3000, unit: fc.constantFrom('a', 'b', '\n', '\u00e9', '\ud83d\udc33', '\x1b', '\t') }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 5 }),
        (text, h, t) => {
          const lim = { headLines: h, tailLines: t, lineChars: 10, maxChars: 500 };
          const r = cutText(text, lim);
          expect(r.lines.length).toBeLessThanOrEqual(h + t + 1);
          for (const l of r.lines) {
            if (!/not shown/.test(l)) expect(Array.from(l).length).toBeLessThanOrEqual(10);
            expect(l).not.toMatch(/[\x00-\x1f\x7f]/);
          }
          expect(r.lines.some((l) => /lines? not shown/.test(l))).toBe(r.cut);
          if (!r.cut) expect(r.lines.join('\n')).not.toContain('\u2026 ');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: an uncut text keeps every line (up to the line bound)', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z ]{0,8}$/), { minLength: 1, maxLength: 5 }), (lines) => {
        const r = cutText(lines.join('\n'), limits);
        expect(r.cut).toBe(false);
        const expected = lines.length > 1 && lines[lines.length - 1] === '' ? lines.slice(0, -1) : lines;
        expect(r.lines).toEqual(expected);
      }),
    );
  });
});

describe('oneLine', () => {
  it('strips controls, makes newlines spaces and bounds the length', () => {
    const r = oneLine('a\nb\x1b[2Jc', 5);
    expect(r).not.toMatch(/[\x00-\x1f]/);
    expect(Array.from(r).length).toBeLessThanOrEqual(5 + 20);
  });
});

describe('cutToolOutput', () => {
  /** What the agent keeps of a long output: the first `h` and last `t` characters, with its marker. */
  function agentKeeps(text: string, h: number, t: number) {
    const middle = text.slice(h, text.length - t);
    let breaks = 0;
    for (let i = middle.indexOf('\n'); i !== -1; i = middle.indexOf('\n', i + 1)) breaks++;
    return { content: `${text.slice(0, h)}\n[\u2026 ${middle.length} bytes of output omitted \u2026]\n${text.slice(text.length - t)}`, omittedLines: breaks };
  }

  it('property: the lines shown plus the count not shown are exactly the lines of the whole output', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z0-9 ]{0,12}$/), { minLength: 3, maxLength: 400 }),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 12 }),
        (lines, a, b, hl, tl) => {
          const text = `${lines.join('\n')}\n`;
          // (The agent always keeps some tail: it marks a cut only when there is one.)
          const h = a % (text.length - 1);
          const t = 1 + (b % (text.length - h - 1));
          const kept = agentKeeps(text, h, t);
          fc.pre(kept.omittedLines >= 1);
          const r = cutToolOutput(kept.content, kept.omittedLines, { headLines: hl, tailLines: tl, lineChars: 100, maxChars: 64 * 1024 });
          const shown = r.lines.filter((l) => !/not shown/.test(l)).length;
          expect(shown + r.omittedLines).toBe(lines.length);
          expect(r.lines.join('\n')).toContain(`${r.omittedLines} line${r.omittedLines === 1 ? '' : 's'} not shown`);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('counts two million lines as two million, and names the bytes when the dropped lines are unknown', () => {
    const text = `${Array.from({ length: 2_000_000 }, (_, i) => String(i + 1)).join('\n')}\n`;
    const kept = agentKeeps(text, 16 * 1024, 16 * 1024);
    const r = cutToolOutput(kept.content, kept.omittedLines);
    expect(r.lines[0]).toBe('1');
    expect(r.lines.at(-1)).toBe('2000000');
    expect(r.omittedLines).toBe(2_000_000 - 16);
    expect(r.lines).toContain(`\u2026 ${2_000_000 - 16} lines not shown \u2026`);
    const unknown = cutToolOutput(kept.content, null);
    expect(unknown.lines.join('\n')).toMatch(/lines not shown \(and \d+ bytes the agent did not keep\)/);
  }, 30_000);
});
