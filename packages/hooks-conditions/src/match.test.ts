import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { HookContext, HookEventName, ToolContext } from '@codewhale/hooks-payloads';
import { matchCondition, modesMatch } from './match.js';
import type { HookCondition } from './condition.js';

const ctx = (over: Partial<HookContext> = {}, tool?: Partial<ToolContext>): HookContext => ({
  event: 'tool_call_after' as HookEventName,
  mode: 'ACT',
  ...over,
  ...(tool ? { tool: { name: 'exec_shell', ...tool } } : {}),
});
const toolName = (name: string): HookCondition => ({ type: 'tool_name', name });
const exitCode = (code: bigint): HookCondition => ({ type: 'exit_code', code });
const mode = (m: string): HookCondition => ({ type: 'mode', mode: m });

describe('matchCondition: always and missing', () => {
  it('an omitted condition and always match every invocation', () => {
    expect(matchCondition(null, ctx())).toBe(true);
    expect(matchCondition(undefined, ctx())).toBe(true);
    expect(matchCondition({ type: 'always' }, ctx({ event: 'session_start' }))).toBe(true);
  });
});

describe('matchCondition: tool_name', () => {
  it('bash, Bash and exec_shell alias each other in every direction', () => {
    const spellings = ['bash', 'Bash', 'exec_shell'];
    for (const pattern of spellings) for (const name of spellings) expect(matchCondition(toolName(pattern), ctx({}, { name }))).toBe(true);
  });

  it('aliasing is only among the three shell spellings', () => {
    expect(matchCondition(toolName('bash'), ctx({}, { name: 'Run' }))).toBe(false);
    expect(matchCondition(toolName('bash'), ctx({}, { name: 'bash2' }))).toBe(false);
    expect(matchCondition(toolName('BASH'), ctx({}, { name: 'bash' }))).toBe(false);
    expect(matchCondition(toolName('read'), ctx({}, { name: 'exec_shell' }))).toBe(false);
  });

  it('a glob that matches one shell spelling matches all three', () => {
    expect(matchCondition(toolName('exec_*'), ctx({}, { name: 'Bash' }))).toBe(true);
    expect(matchCondition(toolName('mcp__*'), ctx({}, { name: 'bash' }))).toBe(false);
  });

  it('globs and exact names match other tools as written', () => {
    expect(matchCondition(toolName('mcp__*'), ctx({}, { name: 'mcp__github__create_issue' }))).toBe(true);
    expect(matchCondition(toolName('read_files'), ctx({}, { name: 'read_file' }))).toBe(false);
  });

  it('an event with no tool behind it does not match (on_error for a transport error)', () => {
    expect(matchCondition(toolName('*'), ctx({ event: 'on_error' }))).toBe(false);
    expect(matchCondition({ type: 'tool_category', category: 'other' }, ctx({ event: 'on_error' }))).toBe(false);
  });
});

describe('matchCondition: tool_category', () => {
  it('reads the category from the tool name and input', () => {
    expect(matchCondition({ type: 'tool_category', category: 'shell' }, ctx({}, { name: 'exec_shell' }))).toBe(true);
    expect(matchCondition({ type: 'tool_category', category: 'shell' }, ctx({}, { name: 'read' }))).toBe(false);
    expect(matchCondition({ type: 'tool_category', category: 'safe' }, ctx({}, { name: 'File', input: { action: 'read' } }))).toBe(true);
    expect(matchCondition({ type: 'tool_category', category: 'file_write' }, ctx({}, { name: 'File', input: { action: 'write' } }))).toBe(true);
  });
});

describe('matchCondition: mode (D9, canonical modes)', () => {
  it('act matches both the UI ACT and the engine Agent', () => {
    expect(matchCondition(mode('act'), ctx({ mode: 'ACT' }))).toBe(true);
    expect(matchCondition(mode('act'), ctx({ mode: 'Agent' }))).toBe(true);
    expect(matchCondition(mode('agent'), ctx({ mode: 'ACT' }))).toBe(true);
    expect(matchCondition(mode('work'), ctx({ mode: 'Agent' }))).toBe(true);
    expect(matchCondition(mode('YOLO'), ctx({ mode: 'ACT' }))).toBe(true);
  });

  it('plan matches PLAN and Plan; operate matches OPERATE and Operate', () => {
    expect(matchCondition(mode('plan'), ctx({ mode: 'PLAN' }))).toBe(true);
    expect(matchCondition(mode('plan'), ctx({ mode: 'Plan' }))).toBe(true);
    expect(matchCondition(mode('Operate'), ctx({ mode: 'OPERATE' }))).toBe(true);
    expect(matchCondition(mode('plan'), ctx({ mode: 'ACT' }))).toBe(false);
    expect(matchCondition(mode('plan'), ctx({ mode: 'Agent' }))).toBe(false);
  });

  it('an unknown spelling compares ASCII case-insensitively and never matches a canonical mode', () => {
    expect(matchCondition(mode('normal'), ctx({ mode: 'Agent' }))).toBe(false);
    expect(matchCondition(mode('custom'), ctx({ mode: 'CUSTOM' }))).toBe(true);
    expect(modesMatch(' Plan ', 'plan')).toBe(true);
  });

  it('a context without a mode never matches', () => {
    expect(matchCondition(mode('act'), ctx({ mode: null }))).toBe(false);
    expect(matchCondition(mode('act'), { event: 'shell_env', tool: { name: 'exec_shell' } })).toBe(false);
  });
});

describe('matchCondition: exit_code (signed 64-bit)', () => {
  it('matches only a real reported code', () => {
    expect(matchCondition(exitCode(0n), ctx({}, { exitCode: 0 }))).toBe(true);
    expect(matchCondition(exitCode(127n), ctx({}, { exitCode: 127 }))).toBe(true);
    expect(matchCondition(exitCode(127n), ctx({}, { exitCode: 1 }))).toBe(false);
    expect(matchCondition(exitCode(1n), ctx({}, { exitCode: 127 }))).toBe(false);
    expect(matchCondition(exitCode(-1n), ctx({}, { exitCode: -1 }))).toBe(true);
  });

  it('a missing code matches nothing, not even 0, whatever the success flag says', () => {
    expect(matchCondition(exitCode(0n), ctx({}, { exitCode: null, success: true }))).toBe(false);
    expect(matchCondition(exitCode(0n), ctx({}, { success: true }))).toBe(false);
    expect(matchCondition(exitCode(1n), ctx({}, { exitCode: null, success: false }))).toBe(false);
    expect(matchCondition(exitCode(127n), ctx({}, { exitCode: '127' as unknown as number }))).toBe(false);
    expect(matchCondition(exitCode(0n), ctx({ event: 'on_error' }))).toBe(false);
  });

  it('holds a Windows crash code such as 3221225477 (0xC0000005)', () => {
    expect(matchCondition(exitCode(3221225477n), ctx({}, { exitCode: 3221225477 }))).toBe(true);
    expect(matchCondition(exitCode(3221225477n), ctx({}, { exitCode: 3221225477n }))).toBe(true);
    expect(matchCondition(exitCode(3221225477n), ctx({}, { exitCode: -1073741819 }))).toBe(false);
    expect(matchCondition(exitCode(2n ** 63n - 1n), ctx({}, { exitCode: 2n ** 63n - 1n }))).toBe(true);
  });
});

describe('matchCondition: all / any', () => {
  it('all [] is true and any [] is false', () => {
    expect(matchCondition({ type: 'all', conditions: [] }, ctx())).toBe(true);
    expect(matchCondition({ type: 'any', conditions: [] }, ctx())).toBe(false);
  });

  it('a tool-scoped on_error hook matches a tool failure: all[tool_name=exec_shell, exit_code=127]', () => {
    const c: HookCondition = { type: 'all', conditions: [toolName('exec_shell'), exitCode(127n)] };
    expect(matchCondition(c, ctx({ event: 'on_error' }, { name: 'bash', exitCode: 127, success: false }))).toBe(true);
    expect(matchCondition(c, ctx({ event: 'on_error' }, { name: 'bash', exitCode: 1 }))).toBe(false);
    expect(matchCondition(c, ctx({ event: 'on_error' }))).toBe(false);
  });

  it('nests', () => {
    const c: HookCondition = { type: 'any', conditions: [mode('plan'), { type: 'all', conditions: [toolName('bash'), { type: 'always' }] }] };
    expect(matchCondition(c, ctx({ mode: 'ACT' }, { name: 'exec_shell' }))).toBe(true);
    expect(matchCondition(c, ctx({ mode: 'ACT' }, { name: 'read' }))).toBe(false);
    expect(matchCondition(c, ctx({ mode: 'Plan' }, { name: 'read' }))).toBe(true);
  });
});

describe('properties', () => {
  const leaf: fc.Arbitrary<HookCondition> = fc.oneof(
    fc.constant<HookCondition>({ type: 'always' }),
    fc.constantFrom('bash', 'read', 'mcp__*', 'exec_shell', '*').map(toolName),
    fc.constantFrom('shell', 'safe', 'file_write', 'other').map((category): HookCondition => ({ type: 'tool_category', category: category as 'shell' })),
    fc.constantFrom('act', 'plan', 'operate', 'normal').map(mode),
    fc.bigInt({ min: -2n, max: 3n }).map(exitCode),
  );
  const { tree } = fc.letrec<{ tree: HookCondition }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('tree'), { maxLength: 3 }).map((conditions): HookCondition => ({ type: 'all', conditions })),
      fc.array(tie('tree'), { maxLength: 3 }).map((conditions): HookCondition => ({ type: 'any', conditions })),
    ),
  }));
  const context: fc.Arbitrary<HookContext> = fc.record({
    event: fc.constantFrom<HookEventName>('tool_call_after', 'on_error', 'session_start'),
    mode: fc.constantFrom('ACT', 'Agent', 'PLAN', 'Plan', 'OPERATE', null),
    tool: fc.option(
      fc.record({
        name: fc.constantFrom('bash', 'Bash', 'exec_shell', 'read', 'mcp__x__y', 'File'),
        exitCode: fc.option(fc.integer({ min: -2, max: 3 })),
        input: fc.constant({ action: 'read' }),
      }),
    ),
  });

  it('all and any of one condition are that condition; all/any are every/some of their children', () => {
    fc.assert(
      fc.property(tree, fc.array(tree, { maxLength: 4 }), context, (c, cs, x) => {
        expect(matchCondition({ type: 'all', conditions: [c] }, x)).toBe(matchCondition(c, x));
        expect(matchCondition({ type: 'any', conditions: [c] }, x)).toBe(matchCondition(c, x));
        expect(matchCondition({ type: 'all', conditions: cs }, x)).toBe(cs.every((k) => matchCondition(k, x)));
        expect(matchCondition({ type: 'any', conditions: cs }, x)).toBe(cs.some((k) => matchCondition(k, x)));
      }),
      { numRuns: 200 },
    );
  });

  it('an exit_code condition never matches a context with no reported code', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.boolean(), (code, success) => {
        expect(matchCondition(exitCode(code), ctx({}, { exitCode: null, success }))).toBe(false);
        expect(matchCondition(exitCode(code), ctx({}, { exitCode: code }))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
