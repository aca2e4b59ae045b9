import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeAll, decodeInput, flushDecoder, INITIAL_DECODER, MAX_PASTE_CHARS, type Key } from './input-decoder.js';

const kinds = (keys: Key[]) => keys.map((k) => (k.kind === 'text' || k.kind === 'paste' ? `${k.kind}:${k.text}` : k.kind));

describe('decodeInput', () => {
  it('decodes keys, arrows, Shift+Tab and control keys', () => {
    expect(kinds(decodeAll(['ab\r', '\x1b[A', '\x1b[B', '\x1b[Z', '\t', '\x7f', '\x03', '\x04', '\n', '\x1b']))).toEqual([
      'text:ab',
      'enter',
      'up',
      'down',
      'shift_tab',
      'tab',
      'backspace',
      'ctrl_c',
      'ctrl_d',
      'newline',
      'escape',
    ]);
  });

  it('turns a bracketed paste into ONE paste key, newlines and all', () => {
    expect(kinds(decodeAll(['\x1b[200~line 1\r\nline 2\rline 3\x1b[201~']))).toEqual(['paste:line 1\nline 2\nline 3']);
  });

  it('joins a paste split over chunks, even inside the markers', () => {
    expect(kinds(decodeAll(['x\x1b[20', '0~one\n', 'two\x1b[2', '01~y']))).toEqual(['text:x', 'paste:one\ntwo', 'text:y']);
  });

  it('caps a huge paste but keeps it one key', () => {
    const chunk = 'a'.repeat(64 * 1024);
    const chunks = ['\x1b[200~', ...Array.from({ length: 20 }, () => chunk), '\x1b[201~'];
    const keys = decodeAll(chunks);
    expect(keys).toHaveLength(1);
    expect(keys[0]!.kind).toBe('paste');
    expect((keys[0] as { text: string }).text.length).toBe(MAX_PASTE_CHARS);
  });

  it('drops control characters from typed text', () => {
    expect(kinds(decodeAll(['a\x01b']))).toEqual(['text:ab']);
  });

  it('a lone ESC is the Esc key once nothing follows it', () => {
    const a = decodeInput(INITIAL_DECODER, '\x1b');
    expect(a.keys).toEqual([]);
    expect(flushDecoder(a.state).keys).toEqual([{ kind: 'escape' }]);
    expect(kinds([...decodeInput(a.state, '[B').keys])).toEqual(['down']);
  });

  it('keeps an unfinished CSI sequence for the next chunk', () => {
    const a = decodeInput(INITIAL_DECODER, 'q\x1b[');
    expect(kinds([...a.keys])).toEqual(['text:q']);
    const b = decodeInput(a.state, 'A');
    expect(kinds([...b.keys])).toEqual(['up']);
  });

  it('property: a paste decodes to the same key however the stream is split', () => {
    const body = fc.string({ maxLength: 200, unit: fc.constantFrom('a', 'b', '\n', '\r', ' ', '\u00e9', '[', '~', '2', '0', '1') });
    fc.assert(
      fc.property(body, fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 6 }), (text, cuts) => {
        const stream = `\x1b[200~${text}\x1b[201~`;
        const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let prev = 0;
        for (const p of points) {
          chunks.push(stream.slice(prev, p));
          prev = p;
        }
        chunks.push(stream.slice(prev));
        const keys = decodeAll(chunks);
        expect(keys).toEqual([{ kind: 'paste', text: text.replace(/\r\n?/g, '\n') }]);
      }),
      { numRuns: 400 },
    );
  });
});
