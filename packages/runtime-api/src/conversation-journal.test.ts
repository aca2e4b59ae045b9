import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closeInterruptedCalls, INTERRUPTED_RESULT, resumeConversation } from './conversation-journal.js';

type Msg = { role: string; content?: string | null; toolCalls?: { id: string }[]; toolCallId?: string };

/** Histories of user/assistant turns whose tool batches lost some results (any subset, order kept). */
const history = fc
  .array(
    fc.record({
      text: fc.string({ maxLength: 5 }),
      calls: fc.array(fc.boolean(), { maxLength: 4 }),
    }),
    { maxLength: 6 },
  )
  .map((turns) => {
    const out: Msg[] = [];
    turns.forEach((t, i) => {
      out.push({ role: 'user', content: t.text });
      const ids = t.calls.map((_, j) => `c${i}_${j}`);
      out.push({ role: 'assistant', content: null, ...(ids.length ? { toolCalls: ids.map((id) => ({ id })) } : {}) });
      t.calls.forEach((kept, j) => kept && out.push({ role: 'tool', toolCallId: ids[j]!, content: 'ok' }));
    });
    return out;
  });

describe('closeInterruptedCalls', () => {
  it('answers every call exactly once, right after its batch, and keeps every message in order', () => {
    fc.assert(
      fc.property(history, (h) => {
        const out = closeInterruptedCalls(h) as Msg[];
        // Nothing lost or reordered: the input is a subsequence, and only interrupted results were added.
        expect(out.filter((m) => m.content !== INTERRUPTED_RESULT)).toEqual(h);
        for (let i = 0; i < out.length; i++) {
          const m = out[i]!;
          if (m.role !== 'assistant' || !m.toolCalls) continue;
          const batch: Msg[] = [];
          for (let j = i + 1; j < out.length && out[j]!.role === 'tool'; j++) batch.push(out[j]!);
          expect(batch.map((b) => b.toolCallId).sort()).toEqual(m.toolCalls.map((c) => c.id).sort());
        }
        expect(closeInterruptedCalls(out)).toEqual(out);
      }),
    );
  });

  it('resumeConversation puts the journal after the stored history, in ordinal order', () => {
    const stored = {
      version: 1,
      sessionId: 'sess_x',
      history: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
      ],
    };
    const journal = [
      { ordinal: 2, message: { role: 'user', content: 'c' } },
      { ordinal: 3, message: { role: 'assistant', content: null, toolCalls: [{ id: 'k' }] } },
    ];
    expect(resumeConversation(stored, journal)).toEqual({
      ...stored,
      history: [...stored.history, journal[0]!.message, journal[1]!.message, { role: 'tool', toolCallId: 'k', content: INTERRUPTED_RESULT }],
    });
  });
});
