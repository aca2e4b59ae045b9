import fc from 'fast-check';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { pushJoined, ReadWatch } from './openai-compatible.js';
import type { ModelStreamEvent } from './types.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

it('property: fires exactly when one read has waited the timeout, whatever the reads before it took', () => {
  fc.assert(
    fc.property(fc.integer({ min: 10, max: 500 }), fc.array(fc.tuple(fc.nat(1000), fc.nat(300)), { maxLength: 30 }), (ms, reads) => {
      vi.clearAllTimers();
      let fired = 0;
      const w = new ReadWatch(ms, () => fired++);
      for (const [readMs, gapMs] of reads) {
        w.reading();
        if (readMs >= ms) {
          vi.advanceTimersByTime(ms - 1);
          expect(fired).toBe(0);
          vi.advanceTimersByTime(1);
          expect(fired).toBe(1);
          w.stop();
          return;
        }
        vi.advanceTimersByTime(readMs);
        w.done();
        vi.advanceTimersByTime(gapMs); // between reads (the consumer's time) never counts
        expect(fired).toBe(0);
      }
      w.stop();
      vi.advanceTimersByTime(10 * ms);
      expect(fired).toBe(0);
    }),
    { numRuns: 300 },
  );
});

it('does not fire once stopped, even during a read', () => {
  let fired = 0;
  const w = new ReadWatch(100, () => fired++);
  w.reading();
  vi.advanceTimersByTime(50);
  w.stop();
  vi.advanceTimersByTime(1000);
  expect(fired).toBe(0);
});

it('property: pushJoined keeps the text and the order, and leaves no two deltas of one kind in a row', () => {
  const event = fc.oneof(
    fc.string({ maxLength: 6 }).map((delta): ModelStreamEvent => ({ type: 'text', delta })),
    fc.string({ maxLength: 6 }).map((delta): ModelStreamEvent => ({ type: 'reasoning', delta })),
    fc.constant<ModelStreamEvent>({ type: 'finish', reason: 'stop' }),
  );
  fc.assert(
    fc.property(fc.array(event, { maxLength: 40 }), (events) => {
      const batch: ModelStreamEvent[] = [];
      for (const e of events) pushJoined(batch, e);
      const text = (es: ModelStreamEvent[], type: string) => es.map((e) => (e.type === type && 'delta' in e ? e.delta : '')).join('');
      expect(text(batch, 'text')).toBe(text(events, 'text'));
      expect(text(batch, 'reasoning')).toBe(text(events, 'reasoning'));
      // The same sequence of kinds once runs of one delta kind are merged.
      const kinds = (es: ModelStreamEvent[]) => es.map((e) => e.type).filter((k, i, all) => k === 'finish' || k !== all[i - 1]);
      expect(batch.map((e) => e.type)).toEqual(kinds(events));
    }),
    { numRuns: 500 },
  );
});
