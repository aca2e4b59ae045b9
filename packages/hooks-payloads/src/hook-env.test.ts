import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { buildHookEnv, toolArgsJson, INHERITED_VARS_TO_CLEAR } from './hook-env.js';
import { HOOK_EVENT_NAMES, eventSpec, type HookEventName } from './events.js';
import type { HookContext, ToolContext } from './context.js';
import { utf8ByteLength } from './utf8.js';

const MARKER = '...[truncated]';
const UI_EVENTS = HOOK_EVENT_NAMES.filter((e) => e !== 'tool_call_before' && e !== 'shell_env');

/** A context that knows everything; the event decides what a hook actually receives. */
function fullContext(event: HookEventName, tool: Partial<ToolContext> = {}): HookContext {
  return {
    event,
    sessionId: 'sess_12345678',
    workspace: '/work/space',
    model: 'deepseek-chat',
    mode: 'Agent',
    totalTokens: 1234,
    message: 'hello',
    error: 'boom',
    previousMode: 'plan',
    tool: {
      name: 'exec_shell',
      callId: 'call-1',
      input: { command: 'ls -la' },
      result: 'ok',
      success: true,
      exitCode: 0,
      status: 'completed',
      executionReceipt: '{"schema_version":1}',
      ...tool,
    },
  };
}

describe('buildHookEnv: which variables each event receives (reference §8)', () => {
  it('tool_call_before: base context with the engine mode spelling, tool identity and args, no token total', () => {
    expect(buildHookEnv(fullContext('tool_call_before'))).toEqual({
      DEEPSEEK_SESSION_ID: 'sess_12345678',
      DEEPSEEK_WORKSPACE: '/work/space',
      DEEPSEEK_MODEL: 'deepseek-chat',
      DEEPSEEK_MODE: 'Agent',
      DEEPSEEK_TOOL_NAME: 'exec_shell',
      DEEPSEEK_TOOL_CALL_ID: 'call-1',
      DEEPSEEK_TOOL_ARGS: '{"command":"ls -la"}',
      CODEWHALE_SESSION_ID: 'sess_12345678',
      CODEWHALE_TOOL_CALL_ID: 'call-1',
    });
  });

  it('shell_env gets ONLY DEEPSEEK_TOOL_NAME and DEEPSEEK_TOOL_ARGS, however much the context knows', () => {
    const env = buildHookEnv({ ...fullContext('shell_env'), sessionCost: 1.5 });
    expect(env).toEqual({ DEEPSEEK_TOOL_NAME: 'exec_shell', DEEPSEEK_TOOL_ARGS: '{"command":"ls -la"}' });
  });

  it('tool_call_after: settled tool context, the UI mode label, status and receipt', () => {
    expect(buildHookEnv(fullContext('tool_call_after', { exitCode: 1, success: false, status: 'failed' }))).toEqual({
      DEEPSEEK_SESSION_ID: 'sess_12345678',
      DEEPSEEK_WORKSPACE: '/work/space',
      DEEPSEEK_MODEL: 'deepseek-chat',
      DEEPSEEK_MODE: 'ACT',
      DEEPSEEK_TOTAL_TOKENS: '1234',
      DEEPSEEK_TOOL_NAME: 'exec_shell',
      DEEPSEEK_TOOL_CALL_ID: 'call-1',
      DEEPSEEK_TOOL_RESULT: 'ok',
      DEEPSEEK_TOOL_SUCCESS: 'false',
      DEEPSEEK_TOOL_EXIT_CODE: '1',
      DEEPSEEK_TOOL_STATUS: 'failed',
      DEEPSEEK_TOOL_EXECUTION_RECEIPT: '{"schema_version":1}',
      CODEWHALE_SESSION_ID: 'sess_12345678',
      CODEWHALE_TOOL_CALL_ID: 'call-1',
    });
  });

  it('on_error carries the error and, for a tool failure, the tool context', () => {
    const env = buildHookEnv(fullContext('on_error', { exitCode: 127, success: false, status: 'failed' }));
    expect(env.DEEPSEEK_ERROR).toBe('boom');
    expect(env.DEEPSEEK_TOOL_NAME).toBe('exec_shell');
    expect(env.DEEPSEEK_TOOL_EXIT_CODE).toBe('127');
    expect(env.DEEPSEEK_TOOL_ARGS).toBeUndefined();
  });

  it('on_error with no tool behind it carries no tool variable', () => {
    const env = buildHookEnv({ event: 'on_error', sessionId: 'sess_12345678', mode: 'act', error: 'rate limited' });
    expect(Object.keys(env).filter((k) => k.includes('TOOL'))).toEqual([]);
    expect(env.DEEPSEEK_ERROR).toBe('rate limited');
  });

  it('message_submit and subagent_* carry DEEPSEEK_MESSAGE; mode_change the previous UI label', () => {
    expect(buildHookEnv(fullContext('message_submit')).DEEPSEEK_MESSAGE).toBe('hello');
    expect(buildHookEnv(fullContext('subagent_spawn')).DEEPSEEK_MESSAGE).toBe('hello');
    expect(buildHookEnv(fullContext('subagent_complete')).DEEPSEEK_MESSAGE).toBe('hello');
    expect(buildHookEnv(fullContext('turn_end')).DEEPSEEK_MESSAGE).toBeUndefined();
    const mc = buildHookEnv(fullContext('mode_change'));
    expect(mc.DEEPSEEK_PREVIOUS_MODE).toBe('PLAN');
    expect(mc.DEEPSEEK_MODE).toBe('ACT');
  });

  it.each(HOOK_EVENT_NAMES.map((e) => [e]))('%s receives only variables its catalogue row lists', (event) => {
    const env = buildHookEnv({ ...fullContext(event), sessionCost: 0.25 });
    const allowed = new Set<string>([...eventSpec(event).env, 'CODEWHALE_SESSION_ID', 'CODEWHALE_TOOL_CALL_ID']);
    for (const key of Object.keys(env)) expect(allowed.has(key)).toBe(true);
    if (event !== 'shell_env') expect(env.DEEPSEEK_SESSION_ID).toBe('sess_12345678');
  });
});

describe('buildHookEnv: mode spelling', () => {
  it.each(UI_EVENTS.map((e) => [e]))('%s reports the UI label (ACT for any Work alias)', (event) => {
    for (const mode of ['Agent', 'act', 'work', 'yolo', 'Auto']) expect(buildHookEnv({ event, mode }).DEEPSEEK_MODE).toBe('ACT');
    expect(buildHookEnv({ event, mode: 'Plan' }).DEEPSEEK_MODE).toBe('PLAN');
    expect(buildHookEnv({ event, mode: 'operate' }).DEEPSEEK_MODE).toBe('OPERATE');
  });

  it('tool_call_before reports the engine spelling (Agent / Plan / Operate)', () => {
    expect(buildHookEnv({ event: 'tool_call_before', mode: 'ACT' }).DEEPSEEK_MODE).toBe('Agent');
    expect(buildHookEnv({ event: 'tool_call_before', mode: 'yolo' }).DEEPSEEK_MODE).toBe('Agent');
    expect(buildHookEnv({ event: 'tool_call_before', mode: 'PLAN' }).DEEPSEEK_MODE).toBe('Plan');
    expect(buildHookEnv({ event: 'tool_call_before', mode: 'operate' }).DEEPSEEK_MODE).toBe('Operate');
  });

  it('passes an unknown mode spelling through', () => {
    expect(buildHookEnv({ event: 'turn_end', mode: 'custom' }).DEEPSEEK_MODE).toBe('custom');
  });
});

describe('buildHookEnv: exit codes are reported, never synthesized', () => {
  const exitEnv = (exitCode: ToolContext['exitCode'] | string, success = false): Record<string, string> =>
    buildHookEnv({ event: 'tool_call_after', tool: { name: 'bash', exitCode: exitCode as ToolContext['exitCode'], success } });

  it('is absent when the tool reported none, whatever the success flag says', () => {
    expect(exitEnv(null, true)).not.toHaveProperty('DEEPSEEK_TOOL_EXIT_CODE');
    expect(exitEnv(undefined, false)).not.toHaveProperty('DEEPSEEK_TOOL_EXIT_CODE');
    expect(exitEnv('127')).not.toHaveProperty('DEEPSEEK_TOOL_EXIT_CODE');
    expect(exitEnv(1.5)).not.toHaveProperty('DEEPSEEK_TOOL_EXIT_CODE');
  });

  it('keeps 0, failing codes and 64-bit Windows crash codes', () => {
    expect(exitEnv(0, true).DEEPSEEK_TOOL_EXIT_CODE).toBe('0');
    expect(exitEnv(2).DEEPSEEK_TOOL_EXIT_CODE).toBe('2');
    expect(exitEnv(-1).DEEPSEEK_TOOL_EXIT_CODE).toBe('-1');
    expect(exitEnv(3221225477).DEEPSEEK_TOOL_EXIT_CODE).toBe('3221225477');
    expect(exitEnv(3221225477n).DEEPSEEK_TOOL_EXIT_CODE).toBe('3221225477');
    expect(exitEnv(9223372036854775807n).DEEPSEEK_TOOL_EXIT_CODE).toBe('9223372036854775807');
  });

  it('reports success as true / false only when known', () => {
    expect(exitEnv(0, true).DEEPSEEK_TOOL_SUCCESS).toBe('true');
    expect(exitEnv(1, false).DEEPSEEK_TOOL_SUCCESS).toBe('false');
    expect(buildHookEnv({ event: 'tool_call_after', tool: { name: 'read' } })).not.toHaveProperty('DEEPSEEK_TOOL_SUCCESS');
  });

  it('leaves the status out for a tool that reported none', () => {
    expect(buildHookEnv({ event: 'tool_call_after', tool: { name: 'read', success: true } })).not.toHaveProperty('DEEPSEEK_TOOL_STATUS');
    for (const status of ['completed', 'failed', 'timed_out', 'killed', 'running'] as const) {
      expect(buildHookEnv({ event: 'tool_call_after', tool: { name: 'Bash', status } }).DEEPSEEK_TOOL_STATUS).toBe(status);
    }
  });
});

describe('buildHookEnv: bounded values (D18: truncated once)', () => {
  const cases: [string, HookEventName, (v: string) => HookContext, number][] = [
    ['DEEPSEEK_MESSAGE', 'message_submit', (v) => ({ event: 'message_submit', message: v }), 5_000],
    ['DEEPSEEK_ERROR', 'on_error', (v) => ({ event: 'on_error', error: v }), 5_000],
    ['DEEPSEEK_TOOL_RESULT', 'tool_call_after', (v) => ({ event: 'tool_call_after', tool: { name: 'bash', result: v } }), 10_000],
    ['DEEPSEEK_TOOL_ARGS', 'tool_call_before', (v) => ({ event: 'tool_call_before', tool: { name: 'bash', input: v } }), 10_000],
    ['DEEPSEEK_WORKSPACE', 'session_start', (v) => ({ event: 'session_start', workspace: v }), 4_096],
    ['DEEPSEEK_MODEL', 'turn_end', (v) => ({ event: 'turn_end', model: v }), 4_096],
    ['DEEPSEEK_TOOL_CALL_ID', 'tool_call_after', (v) => ({ event: 'tool_call_after', tool: { name: 'bash', callId: v } }), 4_096],
  ];

  it.each(cases)('%s is capped at its byte bound with one ...[truncated]', (key, _event, ctx, cap) => {
    const value = buildHookEnv(ctx('鲸'.repeat(cap)))[key]!;
    expect(value.endsWith(MARKER)).toBe(true);
    expect(value.split(MARKER)).toHaveLength(2);
    expect(utf8ByteLength(value)).toBeLessThanOrEqual(cap + MARKER.length);
    expect(value.slice(0, -MARKER.length)).toBe('鲸'.repeat(Math.floor(cap / 3)));
    // a value that fits is exported as is
    expect(buildHookEnv(ctx('x'.repeat(cap)))[key]).toBe('x'.repeat(cap));
  });

  it('removes NUL, which no process environment can carry', () => {
    expect(buildHookEnv({ event: 'on_error', error: 'a\u0000b' }).DEEPSEEK_ERROR).toBe('ab');
  });

  it('exports the execution receipt exact or not at all', () => {
    const receiptEnv = (receipt: string): Record<string, string> => buildHookEnv({ event: 'tool_call_after', tool: { name: 'Bash', executionReceipt: receipt } });
    const big = `{"stdout":"${'x'.repeat(32_768)}"}`;
    expect(receiptEnv(big)).not.toHaveProperty('DEEPSEEK_TOOL_EXECUTION_RECEIPT');
    expect(receiptEnv('{"a":"\u0000"}')).not.toHaveProperty('DEEPSEEK_TOOL_EXECUTION_RECEIPT');
    const exact = `{"s":"${'y'.repeat(32_768 - 8)}"}`;
    expect(utf8ByteLength(exact)).toBe(32_768);
    expect(receiptEnv(exact).DEEPSEEK_TOOL_EXECUTION_RECEIPT).toBe(exact);
    expect(buildHookEnv({ event: 'tool_call_before', tool: { name: 'Bash', executionReceipt: '{}' } })).not.toHaveProperty('DEEPSEEK_TOOL_EXECUTION_RECEIPT');
  });

  it('tells the caller to clear an inherited receipt before applying the current context', () => {
    expect(INHERITED_VARS_TO_CLEAR).toContain('DEEPSEEK_TOOL_EXECUTION_RECEIPT');
  });
});

describe('buildHookEnv: ids, tokens and cost', () => {
  it('sets the CODEWHALE_ twins only alongside their DEEPSEEK_ originals', () => {
    const env = buildHookEnv({ event: 'tool_call_after', sessionId: 'sess_abcdef01', tool: { name: 'bash', callId: null } });
    expect(env.CODEWHALE_SESSION_ID).toBe('sess_abcdef01');
    expect(env).not.toHaveProperty('DEEPSEEK_TOOL_CALL_ID');
    expect(env).not.toHaveProperty('CODEWHALE_TOOL_CALL_ID');
    expect(buildHookEnv({ event: 'session_start' })).toEqual({});
  });

  it('writes the token total as a decimal integer and the cost with six decimals', () => {
    const env = buildHookEnv({ event: 'turn_end', totalTokens: 1234.9, sessionCost: 0.1234567 });
    expect(env.DEEPSEEK_TOTAL_TOKENS).toBe('1234');
    expect(env.DEEPSEEK_SESSION_COST).toBe('0.123457');
    expect(buildHookEnv({ event: 'turn_end', sessionCost: 0 }).DEEPSEEK_SESSION_COST).toBe('0.000000');
    expect(buildHookEnv({ event: 'turn_end', totalTokens: Number.NaN })).not.toHaveProperty('DEEPSEEK_TOTAL_TOKENS');
    expect(buildHookEnv({ event: 'tool_call_before', totalTokens: 5 })).not.toHaveProperty('DEEPSEEK_TOTAL_TOKENS');
  });
});

describe('toolArgsJson', () => {
  it('writes the tool input as compact JSON in its own key order', () => {
    expect(toolArgsJson({ b: 1, a: [true, null], c: { d: 'x' } })).toBe('{"b":1,"a":[true,null],"c":{"d":"x"}}');
    expect(toolArgsJson(undefined)).toBe('{}');
    expect(toolArgsJson('{"raw":1}')).toBe('{"raw":1}');
    expect(toolArgsJson({ n: 3221225477n })).toBe('{"n":3221225477}');
  });
});

describe('properties', () => {
  const value = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 6_000 })).map(([u, n]) => u.repeat(n)),
  );
  const bound: Record<string, number> = {
    DEEPSEEK_MESSAGE: 5_000,
    DEEPSEEK_ERROR: 5_000,
    DEEPSEEK_TOOL_ARGS: 10_000,
    DEEPSEEK_TOOL_RESULT: 10_000,
    DEEPSEEK_TOOL_EXECUTION_RECEIPT: 32_768 - 14,
  };

  it('every value is within its bound, NUL-free, and only catalogue variables are set', () => {
    fc.assert(
      fc.property(fc.constantFrom(...HOOK_EVENT_NAMES), value, value, value, value, (event, a, b, c, d) => {
        const env = buildHookEnv({
          event,
          sessionId: a,
          workspace: b,
          model: c,
          mode: d,
          message: a,
          error: b,
          previousMode: c,
          tool: { name: d, callId: a, input: b, result: c, executionReceipt: d },
        });
        const allowed = new Set<string>([...eventSpec(event).env, 'CODEWHALE_SESSION_ID', 'CODEWHALE_TOOL_CALL_ID']);
        for (const [k, v] of Object.entries(env)) {
          expect(allowed.has(k)).toBe(true);
          expect(v).not.toContain('\u0000');
          expect(utf8ByteLength(v)).toBeLessThanOrEqual((bound[k] ?? 4_096) + 14);
        }
      }),
      { numRuns: 150 },
    );
  });
});
