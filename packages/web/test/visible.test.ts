import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headTail } from '../src/transcript.js';
import { isInvisible, segments, visibleText } from '../src/visible.js';

const hasInvisible = (s: string) => [...s].some((c) => isInvisible(c.codePointAt(0)!));

describe('visible text', () => {
  it('shows bidi, zero-width and control characters as marks and keeps everything else', () => {
    expect(visibleText('a\u202Eb\u200Bc\u2066d\u0007e\n\tf')).toBe('a<U+202E>b<U+200B>c<U+2066>d<U+0007>e\n\tf');
    expect(visibleText('\u{E0041}')).toBe('<U+E0041>');
    expect(visibleText('plain — text ü 漢字 😀')).toBe('plain — text ü 漢字 😀');
  });

  it('leaves no invisible character in its output, and changes no text that had none', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = visibleText(s);
        expect(hasInvisible(out)).toBe(false);
        if (!hasInvisible(s)) expect(out).toBe(s);
        // Removing the marks gives back the visible characters in order.
        expect(
          segments(s)
            .filter((x) => !x.hidden)
            .map((x) => x.text)
            .join(''),
        ).toBe([...s].filter((c) => !isInvisible(c.codePointAt(0)!)).join(''));
      }),
    );
  });
});

describe('head and tail of an output', () => {
  it('keeps short outputs whole, and otherwise the first and last lines with the count left out', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ maxLength: 5 }).map((s) => s.replace(/\n/g, '')),
          { maxLength: 60 },
        ),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 20 }),
        (lines, h, t) => {
          const text = lines.join('\n');
          const r = headTail(text, h, t);
          const n = text.split('\n').length;
          if (n <= h + t) expect(r).toEqual({ head: text, tail: '', omitted: 0 });
          else {
            expect(r.omitted).toBe(n - h - t);
            expect([...r.head.split('\n'), ...Array(r.omitted).fill(null), ...r.tail.split('\n')]).toHaveLength(n);
            expect(text.startsWith(r.head)).toBe(true);
            expect(text.endsWith(r.tail)).toBe(true);
          }
        },
      ),
    );
  });
});
