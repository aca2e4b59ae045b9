import type { Approval, Item, RuntimeEvent, UserInput } from '@codewhale/runtime-client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyApprovalEvent, applyEvent, applyUserInputEvent, diffLineKind, emptyTranscript, type Transcript } from '../src/transcript.js';

const at = '2026-01-01T00:00:00.000+00:00';
const env = (seq: number, event: string, payload: unknown, itemId: string | null = null) =>
  ({ schema_version: 1, seq, event, thread_id: 'thr_1', turn_id: 'turn_1', item_id: itemId, created_at: at, payload }) as unknown as RuntimeEvent;
const item = (id: string, kind: Item['kind'], status: Item['status'], detail: string | null): Item => ({
  id,
  thread_id: 'thr_1',
  turn_id: 'turn_1',
  kind,
  status,
  summary: (detail ?? '').slice(0, 280),
  detail,
  metadata: null,
  decision: null,
  created_at: at,
  updated_at: at,
});

/** A plausible log: a user message, streamed assistant messages in deltas, tool calls. */
const logArb = fc
  .array(
    fc.oneof(
      fc.record({ kind: fc.constant('text' as const), parts: fc.array(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }) }),
      fc.record({ kind: fc.constant('tool' as const), out: fc.string() }),
    ),
    {
      maxLength: 6,
    },
  )
  .map((steps) => {
    const events: RuntimeEvent[] = [];
    let seq = 0;
    const push = (event: string, payload: unknown, id: string | null = null) => events.push(env(++seq, event, payload, id));
    push('item.started', { item: item('i_user', 'user_message', 'completed', 'hello') }, 'i_user');
    steps.forEach((s, n) => {
      const id = `i_${n}`;
      if (s.kind === 'text') {
        push('item.started', { item: item(id, 'agent_message', 'in_progress', null) }, id);
        for (const p of s.parts) push('item.delta', { kind: 'agent_message', delta: p }, id);
        push('item.completed', { item: item(id, 'agent_message', 'completed', s.parts.join('')) }, id);
      } else {
        push('item.started', { item: item(id, 'tool_call', 'in_progress', null) }, id);
        push('item.completed', { item: item(id, 'tool_call', 'completed', s.out) }, id);
      }
    });
    return events;
  });

const fold = (events: readonly RuntimeEvent[], t: Transcript = emptyTranscript) => events.reduce(applyEvent, t);
const view = (t: Transcript) => t.order.map((id) => [id, t.entries[id]!.kind, t.entries[id]!.status, t.entries[id]!.text]);

describe('the transcript', () => {
  it('is the same whether the events come once, or resumed after a drop with any overlap (nothing lost or repeated)', () => {
    fc.assert(
      fc.property(logArb, fc.nat(), fc.nat(), fc.nat(), (events, cutAt, back, endAt) => {
        const cut = cutAt % (events.length + 1);
        // Compared at any point after the drop, mid-stream included.
        const end = cut + (endAt % (events.length - cut + 1));
        const once = fold(events.slice(0, end));
        // The page saw events up to `cut`, then a resumed stream replays from a cursor at or before it.
        const resumeFrom = Math.max(0, cut - (back % (cut + 1)));
        const resumed = fold(events.slice(resumeFrom, end), fold(events.slice(0, cut)));
        expect(view(resumed)).toEqual(view(once));
        expect(resumed.seq).toBe(once.seq);
      }),
    );
  });

  it('shows streamed text while it streams, then the stored message', () => {
    const evs = [
      env(1, 'item.started', { item: item('a', 'agent_message', 'in_progress', null) }, 'a'),
      env(2, 'item.delta', { kind: 'agent_message', delta: 'Hel' }, 'a'),
      env(3, 'item.delta', { kind: 'agent_message', delta: 'lo' }, 'a'),
    ];
    expect(fold(evs).entries['a']!.text).toBe('Hello');
    expect(fold([...evs, env(4, 'item.completed', { item: item('a', 'agent_message', 'completed', 'Hello!') }, 'a')]).entries['a']!.text).toBe('Hello!');
  });
});

describe('pending approvals', () => {
  const ap = (id: string, status: Approval['status']): Approval => ({
    id,
    thread_id: 'thr_1',
    turn_id: 'turn_1',
    item_id: null,
    tool: 'bash',
    reason: 'hook',
    summary: 'x',
    hook: { name: 'gate', reason: null },
    status,
    decision: status === 'decided' ? 'allow' : null,
    remember: false,
    scope: status === 'decided' ? 'once' : null,
    always: null,
    preview: null,
    requested_at: at,
    expires_at: at,
    decided_at: null,
  });
  it('holds exactly the approvals required and not yet decided or expired', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.constantFrom('a', 'b', 'c'), what: fc.constantFrom('required', 'decided', 'timeout') }), { maxLength: 30 }), (ops) => {
        let m: ReadonlyMap<string, Approval> = new Map();
        const expected = new Set<string>();
        ops.forEach((o, i) => {
          m = applyApprovalEvent(m, env(i + 1, `approval.${o.what}`, { approval: ap(o.id, o.what === 'required' ? 'pending' : o.what === 'decided' ? 'decided' : 'expired'), cause: 'client' }));
          if (o.what === 'required') expected.add(o.id);
          else expected.delete(o.id);
        });
        expect([...m.keys()].sort()).toEqual([...expected].sort());
      }),
    );
  });
});

describe('pending questions', () => {
  const uin = (id: string, status: UserInput['status']): UserInput => ({
    id,
    thread_id: 'thr_1',
    turn_id: 'turn_1',
    item_id: null,
    questions: [],
    status,
    answers: null,
    requested_at: at,
    expires_at: at,
    answered_at: null,
  });
  it('holds exactly the questions asked and not yet answered or expired, whoever answered', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.constantFrom('a', 'b', 'c'), what: fc.constantFrom('required', 'answered', 'timeout') }), { maxLength: 30 }), (ops) => {
        let m: ReadonlyMap<string, UserInput> = new Map();
        const expected = new Set<string>();
        ops.forEach((o, i) => {
          m = applyUserInputEvent(
            m,
            env(i + 1, `user_input.${o.what}`, { user_input: uin(o.id, o.what === 'required' ? 'pending' : o.what === 'answered' ? 'answered' : 'expired'), cause: 'client' }),
          );
          if (o.what === 'required') expected.add(o.id);
          else expected.delete(o.id);
        });
        expect([...m.keys()].sort()).toEqual([...expected].sort());
      }),
    );
  });
});

describe('diff lines', () => {
  it('are told apart by their first character', () => {
    expect(['@@ -1 +1 @@', '+a', '-b', ' c', ''].map(diffLineKind)).toEqual(['hunk', 'add', 'del', 'ctx', 'ctx']);
  });
});
