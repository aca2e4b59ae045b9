import { describe, expect, it } from 'vitest';
import { lifecycleHookInput, type LifecycleFact } from './lifecycle-fact.js';

const facts = { workspace: '/w', model: 'm', mode: 'work', totalTokens: 7 };

describe('lifecycleHookInput', () => {
  it("puts the session's id and workspace into a turn_end document, over any the turn carries", () => {
    const turn = {
      mode: 'work',
      createdAt: 0,
      modelBacked: false,
      provider: null,
      model: 'm',
      turnId: 'turn_1',
      status: 'completed',
      durationMs: 5,
      usage: null,
      totals: { sessionTokens: 0, conversationTokens: 0, inputTokens: 0, outputTokens: 0 },
      toolCount: 0,
      queuedMessageCount: 0,
      // Not in the type: a JavaScript caller could still pass them.
      sessionId: 'sess_forged',
      workspace: '/forged',
    };
    const { ctx, stdin } = lifecycleHookInput({ event: 'turn_end', facts, turn } as unknown as LifecycleFact, 'sess_1234abcd');
    expect(ctx).toMatchObject({ event: 'turn_end', sessionId: 'sess_1234abcd', workspace: '/w' });
    expect(JSON.parse(stdin!)).toMatchObject({ event: 'turn_end', session_id: 'sess_1234abcd', workspace: '/w', turn_id: 'turn_1' });
  });

  it("adds each event's own field to the session context", () => {
    expect(lifecycleHookInput({ event: 'mode_change', facts, previousMode: 'plan' }, 's').ctx).toEqual({
      event: 'mode_change',
      sessionId: 's',
      workspace: '/w',
      model: 'm',
      mode: 'work',
      totalTokens: 7,
      posture: null,
      previousMode: 'plan',
    });
    expect(lifecycleHookInput({ event: 'on_error', facts, error: 'boom' }, 's').ctx).toEqual({
      event: 'on_error',
      sessionId: 's',
      workspace: '/w',
      model: 'm',
      mode: 'work',
      totalTokens: 7,
      posture: null,
      error: 'boom',
      tool: null,
    });
  });
});
