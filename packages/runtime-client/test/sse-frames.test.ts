import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sseFrames, type StreamFrame } from '../src/index.js';

const bodyOf = (chunks: readonly Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const ch of chunks) c.enqueue(ch);
      c.close();
    },
  });

async function collect(chunks: readonly Uint8Array[]): Promise<StreamFrame[]> {
  const out: StreamFrame[] = [];
  for await (const f of sseFrames(bodyOf(chunks))) out.push(f);
  return out;
}

/** Split `bytes` at the given cut points (any byte, also inside a UTF-8 sequence or a CRLF). */
const split = (bytes: Uint8Array, cuts: number[]) => {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let prev = 0;
  for (const c of [...at, bytes.length]) {
    parts.push(bytes.slice(prev, c));
    prev = c;
  }
  return parts;
};

const frame = fc.record({
  event: fc.constantFrom('item.delta', 'server.connected', 'turn.completed'),
  id: fc.option(fc.integer({ min: 1, max: 1e9 }).map(String), { nil: null }),
  data: fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxKeys: 4 }),
});

describe('sseFrames', () => {
  it('parses any sequence of frames, however the bytes are cut and whatever the line endings, comments included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 8 }), fc.constantFrom('\n', '\r\n', '\r'), async (frames, cuts, eol) => {
        const text = frames.map((f) => [': heartbeat', `event: ${f.event}`, ...(f.id === null ? [] : [`id: ${f.id}`]), `data: ${JSON.stringify(f.data)}`, ''].join(eol) + eol).join('');
        const got = await collect(split(new TextEncoder().encode(text), cuts));
        expect(got).toEqual(frames.map((f) => ({ event: f.event, id: f.id, data: f.data })));
      }),
      { numRuns: 300 },
    );
  });

  it('joins multi-line data and drops a frame cut off by the end of the stream', async () => {
    const text = 'event: a\ndata: {"x":\ndata: 1}\n\nevent: b\ndata: {"y":2}';
    expect(await collect([new TextEncoder().encode(text)])).toEqual([{ event: 'a', id: null, data: { x: 1 } }]);
  });
});
