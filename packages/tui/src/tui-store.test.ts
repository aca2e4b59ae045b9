import { describe, expect, it } from 'vitest';
import { STREAM_FRAME_MS, TuiStore } from './tui-store.js';

const request = (id: string) => ({ id, callId: id, tool: 'bash', input: { command: 'rm x' }, reason: 'posture' as const, summary: 'bash: rm x' });

describe('TuiStore interaction (the modal queue)', () => {
  it('queues approvals in order and answers them one at a time', async () => {
    const store = new TuiStore();
    const i = store.interaction();
    const ac = new AbortController();
    const a = i.approve(request('1'), ac.signal);
    const b = i.approve(request('2'), ac.signal);
    expect(store.getSnapshot().modals.map((m) => m.kind === 'approval' && m.request.id)).toEqual(['1', '2']);
    store.settle(store.getSnapshot().modals[0]!.id, 'allow_session');
    expect(await a).toBe('allow_session');
    expect(store.getSnapshot().modals).toHaveLength(1);
    store.settle(store.getSnapshot().modals[0]!.id, 'deny');
    expect(await b).toBe('deny');
  });

  it('an aborted approval closes its modal and denies; an aborted question declines', async () => {
    const store = new TuiStore();
    const ac = new AbortController();
    const a = store.interaction().approve(request('1'), ac.signal);
    const q = store.interaction().askUser({ id: 'q', questions: [{ id: 'x', header: 'h', question: 'which?', options: [] }] }, ac.signal);
    ac.abort();
    expect(await a).toBe('deny');
    expect(await q).toBeNull();
    expect(store.getSnapshot().modals).toEqual([]);
  });

  it('withdrawAll denies everything still open; settling twice is a no-op', async () => {
    const store = new TuiStore();
    const a = store.interaction().approve(request('1'), new AbortController().signal);
    const id = store.getSnapshot().modals[0]!.id;
    store.withdrawAll();
    store.settle(id, 'allow');
    expect(await a).toBe('deny');
  });

  it('is an external store: same snapshot between changes, a new one on change', () => {
    const store = new TuiStore();
    let calls = 0;
    const off = store.subscribe(() => calls++);
    const s1 = store.getSnapshot();
    expect(store.getSnapshot()).toBe(s1);
    store.dispatch({ type: 'status', text: 'x' });
    expect(store.getSnapshot()).not.toBe(s1);
    store.dispatch({ type: 'status', text: 'x' });
    expect(calls).toBe(1);
    off();
  });
});

describe('TuiStore streaming frames', () => {
  const delta = (text: string) => ({ type: 'host' as const, event: { type: 'text_delta' as const, text }, now: 0 });

  it('joins the deltas of one frame into one change, and applies them before any later action', async () => {
    const store = new TuiStore();
    let changes = 0;
    store.subscribe(() => changes++);
    for (const t of ['Hel', 'lo ', 'wor', 'ld']) store.dispatch(delta(t));
    expect(changes).toBe(0);
    expect(store.getSnapshot().ui.liveText).toBe('');
    await new Promise((r) => setTimeout(r, STREAM_FRAME_MS * 3));
    expect(changes).toBe(1);
    expect(store.getSnapshot().ui.liveText).toBe('Hello world');
    // A later action sees the streamed text first (order is kept).
    store.dispatch(delta('!'));
    store.dispatch({ type: 'host', event: { type: 'tool_call_started', id: 'c', name: 'bash', input: { command: 'ls' } }, now: 0 });
    expect(store.getSnapshot().ui.items.map((i) => i.lines)).toEqual([['Hello world!'], ['\u25b8 #1 bash: ls']]);
    expect(changes).toBe(2);
  });
});
