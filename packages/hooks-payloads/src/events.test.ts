import { describe, it, expect } from 'vitest';
import { HOOK_EVENT_NAMES, HOOK_EVENT_CATALOGUE, STEERING_EVENTS, eventSpec, isHookEventName, isSteeringEvent, type HookEventName, type HookEnvVar } from './events.js';

const DOCUMENTED_ORDER = [
  'session_start',
  'session_end',
  'turn_end',
  'message_submit',
  'tool_call_before',
  'tool_call_after',
  'mode_change',
  'on_error',
  'subagent_spawn',
  'subagent_complete',
  'shell_env',
  'session_idle',
  'session_error',
  'waiting_for_user',
  'session_busy',
];
const STEERING = new Set(['message_submit', 'tool_call_before', 'shell_env']);
const TOOL_EVENTS = new Set(['tool_call_before', 'tool_call_after', 'shell_env', 'on_error']);
const EXIT_CODE_EVENTS = new Set(['tool_call_after', 'on_error']);
const STRUCTURED_OBSERVERS = new Set(['turn_end', 'subagent_spawn', 'subagent_complete', 'session_busy', 'session_idle', 'session_error', 'waiting_for_user']);
const EXECUTE_PATH = new Set(['session_start', 'session_end', 'tool_call_after', 'mode_change', 'on_error', 'tool_call_before']);

describe('the event catalogue', () => {
  it('has exactly the 15 event names, unique, in documented order', () => {
    expect([...HOOK_EVENT_NAMES]).toEqual(DOCUMENTED_ORDER);
    expect(new Set(HOOK_EVENT_NAMES).size).toBe(15);
    expect(HOOK_EVENT_CATALOGUE.map((e) => e.name)).toEqual(DOCUMENTED_ORDER);
  });

  it('the steering allowlist is exactly message_submit, tool_call_before, shell_env', () => {
    expect([...STEERING_EVENTS]).toEqual(['message_submit', 'tool_call_before', 'shell_env']);
  });

  it('recognises event names exactly and case-sensitively', () => {
    for (const name of DOCUMENTED_ORDER) expect(isHookEventName(name)).toBe(true);
    for (const bad of ['Session_Start', 'session-start', 'SESSION_START', 'pre_tool_use', '', ' turn_end', 42, null, undefined]) {
      expect(isHookEventName(bad)).toBe(false);
    }
  });

  it('eventSpec throws for a name that is not an event', () => {
    expect(() => eventSpec('not_an_event' as HookEventName)).toThrow(TypeError);
  });
});

describe.each(DOCUMENTED_ORDER as HookEventName[])('event %s', (name) => {
  const spec = eventSpec(name);

  it(STEERING.has(name) ? 'steers' : 'is an observer', () => {
    expect(isSteeringEvent(name)).toBe(STEERING.has(name));
    expect(spec.steering === 'observer').toBe(!STEERING.has(name));
  });

  it('carries tool identity, a mode and an exit code exactly where the support matrix says', () => {
    expect(spec.carries).toEqual({
      toolIdentity: TOOL_EVENTS.has(name),
      mode: name !== 'shell_env',
      exitCode: EXIT_CODE_EVENTS.has(name),
    });
  });

  it('is fired by the engine only for tool_call_before and shell_env', () => {
    expect(spec.firedBy).toBe(name === 'tool_call_before' || name === 'shell_env' ? 'engine' : 'ui');
  });

  it('has the documented failure policy', () => {
    const expected = name === 'message_submit' ? 'block-on-strict-failure' : EXECUTE_PATH.has(name) ? 'stop-on-strict-failure' : 'always-continue';
    expect(spec.failurePolicy).toBe(expected);
    if (STRUCTURED_OBSERVERS.has(name) || name === 'shell_env') expect(spec.failurePolicy).toBe('always-continue');
  });

  it('has a one-line description', () => {
    expect(spec.description.trim()).not.toBe('');
    expect(spec.description).not.toMatch(/\n/);
  });

  it('offers exactly the environment variables of its event (reference §8)', () => {
    const env = new Set<HookEnvVar>(spec.env);
    const has = (v: HookEnvVar): boolean => env.has(v);
    if (name === 'shell_env') {
      expect([...env].sort()).toEqual(['DEEPSEEK_TOOL_ARGS', 'DEEPSEEK_TOOL_NAME']);
      return;
    }
    for (const base of ['DEEPSEEK_SESSION_ID', 'DEEPSEEK_WORKSPACE', 'DEEPSEEK_MODEL', 'DEEPSEEK_MODE'] as const) expect(has(base)).toBe(true);
    expect(has('DEEPSEEK_TOTAL_TOKENS')).toBe(name !== 'tool_call_before');
    expect(has('DEEPSEEK_MESSAGE')).toBe(['message_submit', 'subagent_spawn', 'subagent_complete'].includes(name));
    expect(has('DEEPSEEK_ERROR')).toBe(name === 'on_error');
    expect(has('DEEPSEEK_PREVIOUS_MODE')).toBe(name === 'mode_change');
    expect(has('DEEPSEEK_TOOL_NAME')).toBe(TOOL_EVENTS.has(name));
    expect(has('DEEPSEEK_TOOL_CALL_ID')).toBe(TOOL_EVENTS.has(name));
    expect(has('DEEPSEEK_TOOL_ARGS')).toBe(name === 'tool_call_before');
    for (const settled of ['DEEPSEEK_TOOL_RESULT', 'DEEPSEEK_TOOL_SUCCESS', 'DEEPSEEK_TOOL_EXIT_CODE', 'DEEPSEEK_TOOL_STATUS', 'DEEPSEEK_TOOL_EXECUTION_RECEIPT'] as const) {
      expect(has(settled)).toBe(EXIT_CODE_EVENTS.has(name));
    }
  });

  it('receives the documented stdin document', () => {
    const expected: Record<string, string> = {
      turn_end: 'turn_end',
      message_submit: 'message_submit',
      tool_call_after: 'tool_call_after_receipt',
      subagent_spawn: 'subagent_spawn',
      subagent_complete: 'subagent_complete',
      session_idle: 'session_state',
      session_busy: 'session_state',
      waiting_for_user: 'session_state',
      session_error: 'session_error',
    };
    expect(spec.stdin).toBe(expected[name] ?? 'none');
  });
});
