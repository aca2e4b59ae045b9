import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../src/http/api-error.js';
import { decodeCursor, encodeCursor } from '../src/http/cursor.js';
import { auth, rig, type Rig } from './support.js';

const rigs: Rig[] = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close();
});

describe('list cursors', () => {
  it('decode what they encode, and refuse anything else with a 400 (never a silent empty page)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999_999 }), (n) => {
        expect(decodeCursor(encodeCursor(n)!)).toBe(n);
      }),
    );
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 64 }), (s) => {
        let key: number | null = null;
        try {
          key = decodeCursor(s);
        } catch (e) {
          expect(ApiError.isInstance(e) && e.status === 400).toBe(true);
          return;
        }
        expect(encodeCursor(key)).toBe(s);
      }),
    );
    expect(decodeCursor(undefined)).toBeNull();
  });

  it('page through any number of rows with any page size: every row once, in order', async () => {
    const r = rig();
    rigs.push(r);
    const all: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 12 }), async (add, limit) => {
        for (let i = 0; i < add; i++) all.unshift(r.store.createThread({ workspace: r.workspace, mode: 'work', posture: 'ask', model: null, sessionId: null }).id);
        const got: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const res = await r.app.request(`/v1/threads?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { headers: auth });
          expect(res.status).toBe(200);
          const body = (await res.json()) as { threads: { id: string }[]; next_cursor: string | null };
          expect(body.threads.length).toBeLessThanOrEqual(limit);
          got.push(...body.threads.map((t) => t.id));
          cursor = body.next_cursor;
          pages++;
        } while (cursor !== null);
        expect(got).toEqual(all);
        expect(pages).toBe(Math.max(1, Math.ceil(all.length / limit)));
      }),
      { numRuns: 20 },
    );
  }, 60_000);
});
