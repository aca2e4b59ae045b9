import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundLines, diffLines, previewChange, previewWrite, PREVIEW_BOUNDS, type PreviewRead } from './write-preview.js';

const file = (text: string | null) => (): PreviewRead => (text === null ? { kind: 'missing' } : { kind: 'text', text });

describe('previewWrite', () => {
  it('diffs an overwrite against the file as it is, with hunk headers and context', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const p = previewWrite('write', { path: 'x.txt', content: 'a\nb\nc\nD\ne\nf\ng\nh\n' }, file(before));
    expect(p).toEqual({ path: 'x.txt', kind: 'diff', text: '@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g', added: 1, removed: 1, truncated: false, note: null });
  });

  it('shows a new file as its content, and an edit as the diff it would make', () => {
    expect(previewWrite('write', { path: 'n.txt', content: 'one\ntwo\n' }, file(null))).toMatchObject({ kind: 'create', text: 'one\ntwo', added: 2, removed: 0 });
    const p = previewWrite('edit', { path: 'x.txt', edits: [{ old_text: 'two', new_text: 'TWO' }] }, file('one\ntwo\nthree\n'));
    expect(p).toMatchObject({ kind: 'diff', text: '@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three', added: 1, removed: 1 });
  });

  it('says why there is no diff: an edit that would fail, an unreadable file; other tools have none', () => {
    expect(previewWrite('edit', { path: 'x', edits: [{ old_text: 'zz', new_text: 'y' }] }, file('abc'))).toMatchObject({ kind: 'none', note: 'the edit would fail: edit 1: old_text not found' });
    expect(previewWrite('edit', { path: 'x', edits: [{ old_text: 'a', new_text: 'y' }] }, file(null))).toMatchObject({ kind: 'none' });
    expect(previewWrite('write', { path: 'x', content: 'y' }, () => ({ kind: 'unreadable', reason: 'too large' }))).toMatchObject({ kind: 'none', note: 'too large' });
    expect(previewWrite('bash', { command: 'ls' }, file(''))).toBeNull();
  });

  it('keeps invisible and bidi characters in the text (the surface shows them marked)', () => {
    const p = previewWrite('write', { path: 'x', content: 'ok\u202e\n' }, file('ok\n'));
    expect(p?.text).toContain('+ok\u202e');
  });
});

/** The two sides an edit script describes. */
const sides = (ops: ReturnType<typeof diffLines>) => ({ a: ops.filter((o) => o.op !== '+').map((o) => o.line), b: ops.filter((o) => o.op !== '-').map((o) => o.line) });

describe('properties', () => {
  const lines = fc.array(fc.constantFrom('a', 'b', 'c', '', 'x y', '\u202e'), { maxLength: 40 });

  it('an edit script reproduces both files exactly, and equal files have no change', () => {
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const ops = diffLines(a, b);
        expect(sides(ops)).toEqual({ a, b });
        expect(diffLines(a, a).every((o) => o.op === ' ')).toBe(true);
      }),
    );
  });

  it('counts every added and removed line even when the text is cut', () => {
    const full = fc.array(fc.constantFrom('a', 'b', 'c', 'x y', '\u202e'), { maxLength: 40 });
    const text = (l: string[]) => l.map((x) => `${x}\n`).join('');
    fc.assert(
      fc.property(full, full, (a, b) => {
        const p = previewChange('f', text(a), text(b), { maxLines: 5, maxLineChars: 10, maxChars: 40 });
        const ops = diffLines(a, b);
        expect(p.added).toBe(ops.filter((o) => o.op === '+').length);
        expect(p.removed).toBe(ops.filter((o) => o.op === '-').length);
        expect(p.text.split('\n').length).toBeLessThanOrEqual(5);
      }),
    );
  });

  it('never exceeds its bounds; text within them is unchanged; bounding is idempotent', () => {
    const bounds = fc.record({ maxLines: fc.integer({ min: 0, max: 20 }), maxLineChars: fc.integer({ min: 1, max: 30 }), maxChars: fc.integer({ min: 0, max: 200 }) });
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 60 }), { maxLength: 30 }), bounds, (input, b) => {
        const r = boundLines(input, b);
        const out = r.text === '' ? [] : r.text.split('\n');
        expect(out.length).toBeLessThanOrEqual(b.maxLines);
        expect(Array.from(r.text).length).toBeLessThanOrEqual(b.maxChars);
        for (const l of out) expect(Array.from(l).length).toBeLessThanOrEqual(b.maxLineChars);
        // Cut on code points: never half of a surrogate pair.
        expect(r.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
        const fits = input.length <= b.maxLines && input.every((l) => Array.from(l).length <= b.maxLineChars) && Array.from(input.join('\n')).length <= b.maxChars;
        if (fits) expect(r).toEqual({ text: input.join('\n'), truncated: false });
        expect(boundLines(r.text === '' ? [] : r.text.split('\n'), b).text).toBe(r.text);
      }),
    );
  });

  it('a large file stays within the default bounds', () => {
    const big = Array.from({ length: 5_000 }, (_, i) => `line ${i} ${'x'.repeat(i % 700)}`).join('\n');
    const p = previewChange('big', big, big.replace(/line 1/g, 'LINE 1'));
    expect(p.truncated).toBe(true);
    expect(p.text.split('\n').length).toBeLessThanOrEqual(PREVIEW_BOUNDS.maxLines);
    expect(Array.from(p.text).length).toBeLessThanOrEqual(PREVIEW_BOUNDS.maxChars);
  });
});
