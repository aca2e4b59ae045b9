import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FakeHost } from '../test/fake-host.js';
import { agentRows, approvalRows, hookActivity, HOOK_SHOW_AFTER_MS, nextMode, PREVIEW_LINES, nextPosture, statusLine } from './view-models.js';

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

describe('approvalRows', () => {
  const hook = (over: Record<string, unknown>) => ({
    index: 0,
    label: 'guard',
    source: 'global',
    strict: false,
    background: false,
    outcome: 'allow',
    detail: null,
    exitCode: 0,
    durationMs: 2,
    rewroteInput: false,
    addedContext: false,
    ...over,
  });
  const record = (hooks: unknown[], rewritten: string | null) => ({
    schemaVersion: 1,
    tool: 'bash',
    callId: 'c1',
    decision: 'ask',
    denyKind: null,
    message: null,
    updatedInput: null,
    additionalContext: null,
    hooks,
    input: { original: '{"command":"rm -rf build"}', rewritten },
    hookSetDigest: null,
  });

  it('names the hook that asked and its reason, shows the whole command, and marks a rewrite with the original', () => {
    const command = `rm -rf build ${'--flag '.repeat(40)}&& echo done`;
    const rows = approvalRows(
      {
        id: 'a',
        callId: 'c1',
        tool: 'bash',
        input: { command },
        reason: 'hook',
        summary: 'bash: rm -rf build …',
        decision: record(
          [hook({ label: 'safety\x1b[31m', outcome: 'ask', detail: 'deletes a directory' }), hook({ index: 1, label: 'rewriter', rewroteInput: true })],
          `{"command":"${command}"}`,
        ) as never,
      },
      true,
    );
    const text = rows.map((r) => r.text);
    expect(text[0]).toBe('The hook \u201csafety[31m\u201d asks for approval');
    expect(text[1]).toBe('reason: deletes a directory');
    expect(text[2]).toBe(`bash: ${command}`);
    expect(text[3]).toBe('\u21bb rewritten by rewriter \u2014 the model asked for: {"command":"rm -rf build"}');
    expect(text.at(-1)).toBe('y allow once \u00b7 a allow for this session \u00b7 A always (permissions rule) \u00b7 n / Esc deny');
  });

  it('previews a write (its first lines) and an edit (old and new text)', () => {
    const content = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const w = approvalRows({ id: 'a', callId: 'c', tool: 'write', input: { path: 'src/a.ts', content }, reason: 'posture', summary: 'write: src/a.ts' }, false).map((r) => r.text);
    expect(w[0]).toBe('Approve this tool call?');
    expect(w[1]).toBe(`write src/a.ts (20 lines, ${content.length} bytes)`);
    expect(w.slice(2, 2 + PREVIEW_LINES)).toEqual(Array.from({ length: PREVIEW_LINES }, (_, i) => `+ line ${i}`));
    expect(w[2 + PREVIEW_LINES]).toBe(`  \u2026 ${20 - PREVIEW_LINES} more lines`);
    const e = approvalRows(
      { id: 'a', callId: 'c', tool: 'edit', input: { path: 'a.ts', edits: [{ old_text: 'const a = 1;', new_text: 'const a = 2;' }] }, reason: 'permission', summary: 'edit: a.ts' },
      false,
    ).map((r) => r.text);
    expect(e).toEqual(['A rule in permissions.toml asks for approval', 'edit a.ts (1 change)', '- const a = 1;', '+ const a = 2;', 'y allow once \u00b7 a allow for this session \u00b7 n / Esc deny']);
  });
});
