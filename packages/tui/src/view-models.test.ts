import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FakeHost } from '../test/fake-host.js';
import { agentRows, hookActivity, HOOK_SHOW_AFTER_MS, nextMode, nextPosture, statusLine } from './view-models.js';

describe('view models', () => {
  it('property: a running hook is shown exactly once it has run 300 ms, control-stripped', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.string({ maxLength: 100 }), (elapsed, label) => {
        const hook = { event: 'tool_call_before' as const, label, index: 1, total: 3, startedAt: 1_000 };
        const row = hookActivity(hook, 1_000 + elapsed);
        if (elapsed < HOOK_SHOW_AFTER_MS) expect(row).toBeNull();
        else {
          expect(row).toMatch(/^tool_call_before hook .*\(1\/3\)$/);
          expect(row).not.toMatch(/[\x00-\x1f\x7f]/);
        }
      }),
    );
  });

  it('the status line says state, mode, posture, model, queue and tokens', () => {
    const h = new FakeHost();
    h.update({ busy: true, queuedCount: 2, posture: 'full_access', totals: { sessionTokens: 42, conversationTokens: 42, inputTokens: 30, outputTokens: 12 } });
    expect(statusLine(h.getSnapshot(), 0)).toBe('● working (Esc to cancel) · Work · Full Access · replay-model · 2 queued · 42 tok');
    h.update({ busy: true, state: 'waiting', reason: 'approval', queuedCount: 0 });
    expect(statusLine(h.getSnapshot(), 0)).toMatch(/^◐ waiting for approval/);
  });

  it('sub-agent rows carry state glyphs', () => {
    expect(
      agentRows([
        { agentId: 'agent_1', name: null, prompt: 'count', status: 'running', result: null },
        { agentId: 'agent_2', name: 'docs', prompt: 'write', status: 'completed', result: 'done' },
        { agentId: 'agent_3', name: null, prompt: 'x', status: 'failed', result: null },
        { agentId: 'agent_4', name: null, prompt: 'y', status: 'cancelled', result: null },
      ]).map((r) => r.split(' ')[0]),
    ).toEqual(['●', '○', '✗', '⊘']);
    expect(agentRows([])).toEqual(['no sub-agents in this session']);
  });

  it('cycles modes and postures; the live budget is always below the terminal height', () => {
    expect([nextMode('plan'), nextMode('work'), nextMode('operate')]).toEqual(['work', 'operate', 'plan']);
    expect([nextPosture('ask'), nextPosture('auto_review'), nextPosture('full_access')]).toEqual(['auto_review', 'full_access', 'ask']);
  });
});
