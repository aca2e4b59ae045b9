import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SseEvent, SseDecoder, decodeSse } from './sse-decoder.js';

const ev = (data: string, extra: Partial<SseEvent> = {}): SseEvent => ({ event: null, data, id: null, retryMs: null, ...extra });

function feed(chunks: readonly (Uint8Array | string)[]): SseEvent[] {
  const d = new SseDecoder();
  const out: SseEvent[] = [];
  for (const c of chunks) out.push(...d.push(c));
  out.push(...d.end());
  return out;
}

/** Split `bytes` at the given cut points. */
function cutBytes(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let start = 0;
  for (const p of points) {
    out.push(bytes.subarray(start, p));
    start = p;
  }
  out.push(bytes.subarray(start));
  return out;
}

describe('SseDecoder', () => {
  it('decodes data, event and id fields', () => {
    expect(decodeSse('event: delta\nid: 7\ndata: {"a":1}\n\n')).toEqual([ev('{"a":1}', { event: 'delta', id: '7' })]);
  });

  it('joins multi-line data with \\n and removes only one leading space', () => {
    expect(decodeSse('data: one\ndata:  two\ndata:three\n\n')).toEqual([ev('one\n two\nthree')]);
  });

  it('accepts CRLF, LF and CR line endings, mixed', () => {
    expect(decodeSse('data: a\r\n\r\ndata: b\n\ndata: c\r\rdata: d\r\n\n')).toEqual([ev('a'), ev('b'), ev('c'), ev('d')]);
  });

  it('ignores comments and unknown fields; a field without a colon has an empty value', () => {
    expect(decodeSse(': keep-alive\n\nfoo: bar\ndata\n\n')).toEqual([ev('')]);
  });

  it('does not dispatch an event without data lines, and the event type resets', () => {
    expect(decodeSse('event: ping\n\ndata: x\n\n')).toEqual([ev('x')]);
  });

  it('keeps the last event id across events and ignores ids containing NUL', () => {
    expect(decodeSse('id: 1\ndata: a\n\ndata: b\n\nid: x\u0000y\ndata: c\n\n')).toEqual([ev('a', { id: '1' }), ev('b', { id: '1' }), ev('c', { id: '1' })]);
  });

  it('reads retry only when it is all digits', () => {
    expect(decodeSse('retry: 1500\ndata: a\n\nretry: 1.5\ndata: b\n\n')).toEqual([ev('a', { retryMs: 1500 }), ev('b')]);
  });

  it('drops a leading byte-order mark (bytes and strings)', () => {
    expect(decodeSse(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('data: a\n\n')]))).toEqual([ev('a')]);
    expect(decodeSse('\uFEFFdata: a\n\n')).toEqual([ev('a')]);
  });

  it('drops only one: a second mark is part of the first field name, from bytes as from a string', () => {
    // `\uFEFFdata` is not `data`, so the line is ignored and the event has no data.
    const text = '\uFEFF\uFEFFdata: a\n\ndata: b\n\n';
    expect(decodeSse(text)).toEqual([ev('b')]);
    expect(decodeSse(new TextEncoder().encode(text))).toEqual([ev('b')]);
    expect(feed([new TextEncoder().encode('\uFEFF'), new TextEncoder().encode(text.slice(1))])).toEqual([ev('b')]);
  });

  it('recognises [DONE] as plain data (the consumer decides what it means)', () => {
    expect(decodeSse('data: {"x":1}\n\ndata: [DONE]\n\n').map((e) => e.data)).toEqual(['{"x":1}', '[DONE]']);
  });

  it('end() dispatches a final event whose blank line never came', () => {
    const d = new SseDecoder();
    expect(d.push('data: [DONE]')).toEqual([]);
    expect(d.end()).toEqual([ev('[DONE]')]);
    expect(d.end()).toEqual([]);
  });

  it('handles a chunk boundary inside a UTF-8 character', () => {
    const bytes = new TextEncoder().encode('data: 🐋é\n\n');
    const events = feed([bytes.subarray(0, 8), bytes.subarray(8, 9), bytes.subarray(9)]);
    expect(events).toEqual([ev('🐋é')]);
  });

  it('handles a chunk boundary between \\r and \\n', () => {
    expect(feed(['data: a\r', '\n\r', '\ndata: b\r', '\r'])).toEqual([ev('a'), ev('b')]);
    // The `\n` after a chunk-final `\r` ends the same line: one event with two data lines.
    expect(feed(['data: a\r', '\ndata: b\r\n\r\n'])).toEqual([ev('a\nb')]);
  });

  it('returns events as soon as their blank line arrives', () => {
    const d = new SseDecoder();
    expect(d.push('data: a\n')).toEqual([]);
    expect(d.push('\ndata: b')).toEqual([ev('a')]);
    expect(d.push('\n\n')).toEqual([ev('b')]);
  });

  it('refuses push() after end()', () => {
    const d = new SseDecoder();
    d.end();
    expect(() => d.push('data: a\n\n')).toThrow(/after end/);
  });

  describe('properties', () => {
    // Field values: any code points except line breaks (NUL excluded so ids always count).
    const value = fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !/[\r\n\u0000]/.test(s));
    const eventArb = fc.record({
      event: fc.option(
        value.filter((s) => s !== ''),
        { nil: null },
      ),
      id: fc.option(value, { nil: null }),
      data: fc.array(value, { minLength: 1, maxLength: 4 }),
      comment: fc.option(value, { nil: null }),
    });
    const streamArb = fc.record({ events: fc.array(eventArb, { maxLength: 8 }), eol: fc.constantFrom('\n', '\r\n', '\r') });

    function serialize(s: { events: { event: string | null; id: string | null; data: string[]; comment: string | null }[]; eol: string }): string {
      return s.events
        .map((e) => {
          const lines: string[] = [];
          if (e.comment !== null) lines.push(`:${e.comment}`);
          if (e.event !== null) lines.push(`event: ${e.event}`);
          if (e.id !== null) lines.push(`id: ${e.id}`);
          for (const d of e.data) lines.push(`data: ${d}`);
          return lines.map((l) => l + s.eol).join('') + s.eol;
        })
        .join('');
    }

    it('decodes a generated stream into exactly the generated events', () => {
      fc.assert(
        fc.property(streamArb, (s) => {
          let lastId: string | null = null;
          const expected = s.events.map((e) => {
            if (e.id !== null) lastId = e.id;
            return ev(e.data.join('\n'), { event: e.event, id: lastId });
          });
          expect(decodeSse(serialize(s))).toEqual(expected);
        }),
      );
    });

    it('any split of a valid stream into byte chunks yields the same events as feeding it whole', () => {
      fc.assert(
        fc.property(streamArb, fc.array(fc.nat(), { maxLength: 20 }), (s, cuts) => {
          const bytes = new TextEncoder().encode(serialize(s));
          expect(feed(cutBytes(bytes, cuts))).toEqual(decodeSse(bytes));
        }),
      );
    });

    it('any split of arbitrary text (line breaks, colons, multi-byte characters) is chunking-independent', () => {
      const alphabet = fc.constantFrom('\r', '\n', ':', ' ', 'data', 'event', 'id', 'retry', '1', 'é', '🐋', 'x', '\uFEFF');
      fc.assert(
        fc.property(fc.array(alphabet, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 20 }), fc.boolean(), (parts, cuts, asStrings) => {
          const text = parts.join('');
          const bytes = new TextEncoder().encode(text);
          const chunks = cutBytes(bytes, cuts);
          // String chunks are cut at code-unit boundaries that do not split a surrogate pair.
          const input = asStrings ? chunks.map((c) => new TextDecoder().decode(c)) : chunks;
          if (asStrings && input.join('') !== text) return; // a cut fell inside a character
          expect(feed(input)).toEqual(decodeSse(text));
        }),
      );
    });
  });
});
