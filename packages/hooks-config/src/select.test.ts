import { describe, expect, it } from 'vitest';
import type { HookContext } from '@codewhale/hooks-payloads';
import { hasHooksForEvent, hookIdentity, hooksForEvent, matchingHooks } from './select.js';
import { hooksToml, load } from './test-fixtures.js';

const TEXT = hooksToml(
  'name = "a"\nevent = "tool_call_before"\ncommand = "a"\ncondition = { type = "tool_name", name = "bash" }',
  'name = "b"\nevent = "tool_call_before"\ncommand = "b"\ncontinue_on_error = false',
  'name = "c"\nevent = "turn_end"\ncommand = "c"\nbackground = true',
);

describe('selection', () => {
  it('selects by event in config order, and nothing when disabled', () => {
    const set = load(TEXT);
    expect(hooksForEvent(set, 'tool_call_before').map((h) => h.label)).toEqual(['a', 'b']);
    expect(hasHooksForEvent(set, 'turn_end')).toBe(true);
    expect(hasHooksForEvent(set, 'session_start')).toBe(false);
    const off = load(TEXT.replace('[hooks]', '[hooks]\nenabled = false'));
    expect(hooksForEvent(off, 'tool_call_before')).toEqual([]);
    expect(hasHooksForEvent(off, 'turn_end')).toBe(false);
  });

  it('matches conditions against a context (shell aliases included)', () => {
    const set = load(TEXT);
    const ctx: HookContext = { event: 'tool_call_before', tool: { name: 'exec_shell', callId: 'c1', input: {} } };
    expect(matchingHooks(set, ctx).map((h) => h.label)).toEqual(['a', 'b']);
    const other: HookContext = { event: 'tool_call_before', tool: { name: 'read', callId: 'c2', input: {} } };
    expect(matchingHooks(set, other).map((h) => h.label)).toEqual(['b']);
  });

  it('hookIdentity carries what steering needs', () => {
    const set = load(TEXT);
    expect(hookIdentity(set.hooks[2]!)).toEqual({ index: 2, name: 'c', label: 'c', event: 'turn_end', source: 'global', continueOnError: true, background: true });
    expect(hookIdentity(set.hooks[1]!).continueOnError).toBe(false);
  });
});
