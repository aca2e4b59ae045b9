import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HeadTailBuffer } from './output-buffer.js';

const enc = new TextEncoder();

describe('HeadTailBuffer', () => {
  it('keeps everything that fits, exactly', () => {
    const b = new HeadTailBuffer(4, 4);
    b.push(enc.encode('abc'));
    b.push(enc.encode('def'));
    expect(b.text()).toBe('abcdef');
    expect(b.truncated).toBe(false);
  });

  it('keeps head and tail with a marker when the middle overflows', () => {
    const b = new HeadTailBuffer(3, 3);
    b.push(enc.encode('abcdefghij'));
    expect(b.text()).toBe('abc\n[… 4 bytes of output omitted …]\nhij');
  });

  describe('properties', () => {
    it('never holds more than head + tail bytes, is lossless when it fits, and cuts on character boundaries', () => {
      fc.assert(
        fc.property(fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 20 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), (parts, h, t) => {
          const b = new HeadTailBuffer(h, t);
          for (const p of parts) b.push(enc.encode(p));
          const whole = parts.join('');
          const bytes = enc.encode(whole).length;
          const text = b.text();
          if (bytes <= h + t) expect(text).toBe(whole);
          else {
            expect(b.droppedBytes).toBe(bytes - h - t);
            // The line breaks dropped are exactly those of the dropped middle bytes.
            const all = enc.encode(whole);
            expect(b.droppedLines).toBe(all.subarray(h, all.length - t).filter((x) => x === 10).length);
            if (!whole.includes('\uFFFD')) expect(text).not.toContain('\uFFFD');
            const [head, tail] = text.split(/\n\[… \d+ bytes of output omitted …\]\n/);
            expect(whole.startsWith(head!)).toBe(true);
            expect(whole.endsWith(tail!)).toBe(true);
          }
        }),
      );
    });
  });

  it('property: counts exactly the line breaks it drops', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', '\n', 'é') }), { maxLength: 30 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 30 }), (parts, h, t) => {
        const b = new HeadTailBuffer(h, t);
        for (const p of parts) b.push(enc.encode(p));
        const all = enc.encode(parts.join(''));
        const middle = all.length > h + t ? all.subarray(h, all.length - t) : new Uint8Array();
        expect(b.droppedLines).toBe(middle.filter((x) => x === 10).length);
      }),
      { numRuns: 500 },
    );
  });
});
