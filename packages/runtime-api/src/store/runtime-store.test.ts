import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from './migrations.js';
import { RuntimeStore, StoreError, summaryOf, SUMMARY_MAX_CHARS } from './runtime-store.js';

const dirs: string[] = [];
function dbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cw-store-'));
  dirs.push(dir);
  return join(dir, 'runtime.db');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const threadFields = { workspace: '/ws', mode: 'work', posture: 'ask', model: null, sessionId: 'sess_00000001' };

describe('RuntimeStore', () => {
  it('opens in WAL mode with the current schema version and the chosen synchronous level', () => {
    const path = dbPath();
    const store = RuntimeStore.open(path);
    expect(store.schemaVersion()).toBe(SCHEMA_VERSION);
    store.close();
    const raw = new Database(path);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('refuses a database written by a newer schema and leaves it untouched', () => {
    const path = dbPath();
    RuntimeStore.open(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => RuntimeStore.open(path)).toThrow(StoreError);
    expect(() => RuntimeStore.open(path)).toThrow(/newer than this build understands/);
  });

  it('appends events in the same transaction as the state and publishes them only after the commit', () => {
    const store = RuntimeStore.open(':memory:');
    const seen: string[] = [];
    store.onCommit((events) => {
      // The state the event describes is already readable when the listener runs.
      for (const e of events) {
        seen.push(e.event);
        if (e.event === 'turn.started') expect(store.getTurn(e.turnId!)?.status).toBe('in_progress');
      }
    });
    const thread = store.createThread(threadFields);
    const started = store.startTurn(thread.id, { prompt: 'hi', mode: 'work', posture: 'ask', model: null })!;
    expect(store.getThread(thread.id)?.activeTurnId).toBe(started.turn.id);
    expect(store.startTurn(thread.id, { prompt: 'again', mode: 'work', posture: 'ask', model: null })).toBeNull();
    const item = store.startItem(thread.id, started.turn.id, 'agent_message', { summary: '' });
    store.appendDelta(item.id, 'Hel');
    store.appendDelta(item.id, 'lo');
    expect(store.getItem(item.id)?.detail).toBe('Hello');
    store.completeTurn(started.turn.id, { status: 'completed', error: null, errorCategory: null, usage: { input_tokens: 1 }, conversation: { version: 1 } });
    expect(store.getItem(item.id)?.status).toBe('completed');
    expect(store.getThread(thread.id)?.activeTurnId).toBeNull();
    expect(store.getThread(thread.id)?.conversation).toEqual({ version: 1 });
    expect(seen).toEqual(['thread.started', 'turn.started', 'item.completed', 'item.started', 'item.delta', 'item.delta', 'item.completed', 'turn.completed']);
    const events = store.eventsSince(thread.id, 0);
    expect(events.map((e) => e.event)).toEqual(seen);
    store.close();
  });

  it('decides an approval once: not_found, then ok, then already_decided', () => {
    const store = RuntimeStore.open(':memory:');
    const thread = store.createThread(threadFields);
    const { turn } = store.startTurn(thread.id, { prompt: 'x', mode: 'work', posture: 'ask', model: null })!;
    const a = store.createApproval({ threadId: thread.id, turnId: turn.id, itemId: null, tool: 'bash', reason: 'hook', summary: 'bash: ls', timeoutMs: 300_000 });
    expect(store.pendingApprovals(thread.id).map((p) => p.id)).toEqual([a.id]);
    expect(store.decideApproval('appr_nope', { decision: 'allow', remember: false, by: 'client' })).toMatchObject({ ok: false, reason: 'not_found' });
    expect(store.decideApproval(a.id, { decision: 'allow', remember: true, by: 'client' })).toMatchObject({ ok: true, approval: { status: 'decided', decision: 'allow', remember: true } });
    expect(store.decideApproval(a.id, { decision: 'deny', remember: false, by: 'client' })).toMatchObject({ ok: false, reason: 'already_decided' });
    const b = store.createApproval({ threadId: thread.id, turnId: turn.id, itemId: null, tool: 'bash', reason: 'posture', summary: 'bash: rm', timeoutMs: 1 });
    expect(store.decideApproval(b.id, { decision: 'allow', remember: true, by: 'timeout' })).toMatchObject({ ok: true, approval: { status: 'expired', decision: 'deny', remember: false } });
    expect(
      store
        .eventsSince(thread.id, 0)
        .map((e) => e.event)
        .filter((e) => e.startsWith('approval.')),
    ).toEqual(['approval.required', 'approval.decided', 'approval.required', 'approval.timeout']);
  });

  it('recovers after a crash: in-flight turns become interrupted, pending approvals expire as denials, all with events', () => {
    const path = dbPath();
    const first = RuntimeStore.open(path);
    const thread = first.createThread(threadFields);
    const { turn } = first.startTurn(thread.id, { prompt: 'x', mode: 'work', posture: 'ask', model: null })!;
    const item = first.startItem(thread.id, turn.id, 'tool_call', { summary: 'bash' });
    const a = first.createApproval({ threadId: thread.id, turnId: turn.id, itemId: item.id, tool: 'bash', reason: 'hook', summary: 'bash', timeoutMs: 300_000 });
    const before = first.eventsSince(thread.id, 0);
    first.close();

    const second = RuntimeStore.open(path);
    expect(second.recover()).toEqual({ interruptedTurns: 1, expiredApprovals: 1 });
    expect(second.getTurn(turn.id)?.status).toBe('interrupted');
    expect(second.getItem(item.id)?.status).toBe('interrupted');
    expect(second.getApproval(a.id)).toMatchObject({ status: 'expired', decision: 'deny' });
    expect(second.getThread(thread.id)?.activeTurnId).toBeNull();
    const after = second.eventsSince(thread.id, 0);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((e) => e.event)).toEqual(['approval.timeout', 'item.completed', 'turn.completed']);
    expect(second.recover()).toEqual({ interruptedTurns: 0, expiredApprovals: 0 });
    second.close();
  });

  it('never reuses a seq, even after the newest events were pruned and the database reopened', () => {
    const path = dbPath();
    const store = RuntimeStore.open(path);
    const thread = store.createThread(threadFields);
    const { turn } = store.startTurn(thread.id, { prompt: 'x', mode: 'work', posture: 'ask', model: null })!;
    const head = store.headSeq();
    store.pruneEvents(0);
    expect(store.eventsSince(thread.id, 0)).toEqual([]);
    expect(store.getThread(thread.id)?.prunedThroughSeq).toBe(head);
    store.close();
    const again = RuntimeStore.open(path);
    const item = again.addItem(thread.id, turn.id, 'error', { status: 'failed', summary: 'boom' });
    expect(again.eventsSince(thread.id, 0)[0]).toMatchObject({ seq: head + 1, itemId: item.id });
    again.close();
  });

  it('retention deletes events older than the age limit, then all but the newest per thread; a stale cursor is reported, items stay', () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const store = RuntimeStore.open(dbPath(), { now: () => now });
    const old = store.createThread(threadFields);
    const { turn } = store.startTurn(old.id, { prompt: 'old', mode: 'work', posture: 'ask', model: null })!;
    const oldHead = store.headSeq();
    now += 31 * 24 * 3_600_000;
    const fresh = store.createThread(threadFields);
    for (let i = 0; i < 3; i++) {
      const t = store.startTurn(fresh.id, { prompt: `p${i}`, mode: 'work', posture: 'ask', model: null })!.turn;
      store.completeTurn(t.id, { status: 'completed', error: null, errorCategory: null, usage: null });
    }
    const freshEvents = store.eventsSince(fresh.id, 0);
    const oldCount = store.eventsSince(old.id, 0).length;
    const removed = store.applyRetention({ maxAgeMs: 30 * 24 * 3_600_000, keepPerThread: 3 });
    expect(store.eventsSince(old.id, 0)).toEqual([]);
    expect(store.getThread(old.id)?.prunedThroughSeq).toBe(oldHead);
    expect(store.eventsSince(fresh.id, 0)).toEqual(freshEvents.slice(-3));
    expect(removed).toBe(oldCount + freshEvents.length - 3);
    // The record stays: the old thread's turn and items are all there.
    expect(store.getTurn(turn.id)?.prompt).toBe('old');
    expect(store.listItems(old.id).map((i) => i.kind)).toEqual(['user_message']);
    expect(store.applyRetention({ maxAgeMs: 30 * 24 * 3_600_000, keepPerThread: 3 })).toBe(0);
    store.close();
  });

  describe('properties', () => {
    it('seq is strictly increasing across threads, and eventsSince(c) returns exactly the events after c', () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.string({ maxLength: 5 })), { minLength: 1, maxLength: 40 }), fc.nat(60), (ops, cursor) => {
          const store = RuntimeStore.open(':memory:');
          const threads = [0, 1, 2].map(() => store.createThread(threadFields));
          const turns = threads.map((t) => store.startTurn(t.id, { prompt: 'p', mode: 'work', posture: 'ask', model: null })!.turn);
          const items = threads.map((t, i) => store.startItem(t.id, turns[i]!.id, 'agent_message', { summary: '' }));
          for (const [t, text] of ops) store.appendDelta(items[t]!.id, text);
          const all = threads.flatMap((t) => store.eventsSince(t.id, 0)).sort((a, b) => a.seq - b.seq);
          for (let i = 1; i < all.length; i++) expect(all[i]!.seq).toBeGreaterThan(all[i - 1]!.seq);
          for (const t of threads) {
            const since = store.eventsSince(t.id, cursor);
            expect(since).toEqual(all.filter((e) => e.threadId === t.id && e.seq > cursor));
          }
          store.close();
        }),
        { numRuns: 60 },
      );
    });

    it('summaries are single-line, at most 280 code points, and unchanged when they fit', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'grapheme', maxLength: 600 }), (s) => {
          const out = summaryOf(s);
          expect(Array.from(out).length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
          expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
          expect(summaryOf(out)).toBe(out);
          const flat = s
            .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
            .replace(/\s+/g, ' ')
            .trim();
          if (Array.from(flat).length <= SUMMARY_MAX_CHARS) expect(out).toBe(flat);
        }),
      );
    });
  });
});
