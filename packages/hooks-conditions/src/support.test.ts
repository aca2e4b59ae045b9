import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { HOOK_EVENT_NAMES, type HookEventName } from '@codewhale/hooks-payloads';
import { unsupportedConditions, isConditionSupported } from './support.js';
import type { HookCondition } from './condition.js';

const TOOL_EVENTS = new Set<HookEventName>(['tool_call_before', 'tool_call_after', 'shell_env', 'on_error']);
const EXIT_CODE_EVENTS = new Set<HookEventName>(['tool_call_after', 'on_error']);

const toolDetail = (e: string): string => `\`${e}\` never carries a tool name, so this tool condition can never match`;
const MODE_DETAIL = '`shell_env` runs with a narrow context that has no mode, so a `mode` condition can never match; scope it with `tool_name` or `tool_category` instead';
const exitDetail = (e: string): string => `\`${e}\` has no completed process to read an exit code from; \`exit_code\` conditions are only supported on \`tool_call_after\` and \`on_error\``;

const LEAVES: Record<string, HookCondition> = {
  always: { type: 'always' },
  tool_name: { type: 'tool_name', name: 'bash' },
  tool_category: { type: 'tool_category', category: 'shell' },
  mode: { type: 'mode', mode: 'plan' },
  exit_code: { type: 'exit_code', code: 1n },
};

/** The reference §1.13 matrix: is this leaf type accepted on this event? */
function accepted(type: string, event: HookEventName): boolean {
  switch (type) {
    case 'tool_name':
    case 'tool_category':
      return TOOL_EVENTS.has(event);
    case 'mode':
      return event !== 'shell_env';
    case 'exit_code':
      return EXIT_CODE_EVENTS.has(event);
    default:
      return true;
  }
}

function expectedDetail(type: string, event: HookEventName): string {
  return type === 'mode' ? MODE_DETAIL : type === 'exit_code' ? exitDetail(event) : toolDetail(event);
}

describe.each(HOOK_EVENT_NAMES.map((e) => [e]))('support matrix on %s', (event) => {
  it.each(Object.keys(LEAVES).map((t) => [t]))('%s', (type) => {
    const leaf = LEAVES[type]!;
    const problems = unsupportedConditions(event, leaf);
    if (accepted(type, event)) {
      expect(problems).toEqual([]);
      expect(isConditionSupported(event, leaf)).toBe(true);
    } else {
      expect(problems).toEqual([{ type, path: 'condition', detail: expectedDetail(type, event) }]);
      expect(isConditionSupported(event, leaf)).toBe(false);
    }
  });

  it.each(Object.keys(LEAVES).map((t) => [t]))('%s nested inside all / any is checked too', (type) => {
    const leaf = LEAVES[type]!;
    for (const combinator of ['all', 'any'] as const) {
      const tree: HookCondition = { type: combinator, conditions: [{ type: 'always' }, { type: 'any', conditions: [leaf] }] };
      const problems = unsupportedConditions(event, tree);
      expect(problems).toEqual(accepted(type, event) ? [] : [{ type, path: 'condition.conditions[1].conditions[0]', detail: expectedDetail(type, event) }]);
    }
  });

  it('an empty all / any is accepted', () => {
    expect(unsupportedConditions(event, { type: 'all', conditions: [] })).toEqual([]);
    expect(unsupportedConditions(event, { type: 'any', conditions: [] })).toEqual([]);
  });
});

describe('unsupportedConditions', () => {
  it('rejects session_start with any[always, all[exit_code=0]] (a nested exit_code)', () => {
    const c: HookCondition = { type: 'any', conditions: [{ type: 'always' }, { type: 'all', conditions: [{ type: 'exit_code', code: 0n }] }] };
    expect(unsupportedConditions('session_start', c)).toEqual([
      {
        type: 'exit_code',
        path: 'condition.conditions[1].conditions[0]',
        detail: '`session_start` has no completed process to read an exit code from; `exit_code` conditions are only supported on `tool_call_after` and `on_error`',
      },
    ]);
  });

  it('accepts on_error with all[tool_name=exec_shell, exit_code=127]', () => {
    const c: HookCondition = {
      type: 'all',
      conditions: [
        { type: 'tool_name', name: 'exec_shell' },
        { type: 'exit_code', code: 127n },
      ],
    };
    expect(unsupportedConditions('on_error', c)).toEqual([]);
  });

  it('reports every offending predicate, in tree order', () => {
    const c: HookCondition = {
      type: 'all',
      conditions: [
        { type: 'tool_name', name: 'x' },
        {
          type: 'any',
          conditions: [
            { type: 'mode', mode: 'plan' },
            { type: 'exit_code', code: 3221225477n },
          ],
        },
        { type: 'tool_category', category: 'safe' },
      ],
    };
    expect(unsupportedConditions('turn_end', c).map((p) => [p.type, p.path])).toEqual([
      ['tool_name', 'condition.conditions[0]'],
      ['exit_code', 'condition.conditions[1].conditions[1]'],
      ['tool_category', 'condition.conditions[2]'],
    ]);
    expect(unsupportedConditions('shell_env', c).map((p) => p.type)).toEqual(['mode', 'exit_code']);
  });

  it('has nothing to say about a missing condition', () => {
    expect(unsupportedConditions('shell_env', null)).toEqual([]);
    expect(unsupportedConditions('shell_env', undefined)).toEqual([]);
    expect(isConditionSupported('session_busy', undefined)).toBe(true);
  });
});

describe('properties', () => {
  const leaf = fc.constantFrom(...Object.values(LEAVES));
  const { tree } = fc.letrec<{ tree: HookCondition }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('tree'), { maxLength: 3 }).map((conditions): HookCondition => ({ type: 'all', conditions })),
      fc.array(tie('tree'), { maxLength: 3 }).map((conditions): HookCondition => ({ type: 'any', conditions })),
    ),
  }));
  const leaves = (c: HookCondition): HookCondition[] => (c.type === 'all' || c.type === 'any' ? c.conditions.flatMap(leaves) : [c]);

  it('a tree is rejected exactly when one of its leaves is, with one problem per offending leaf', () => {
    fc.assert(
      fc.property(fc.constantFrom(...HOOK_EVENT_NAMES), tree, (event, c) => {
        const offending = leaves(c).filter((l) => !accepted(l.type, event));
        const problems = unsupportedConditions(event, c);
        expect(problems.map((p) => p.type)).toEqual(offending.map((l) => l.type));
        expect(isConditionSupported(event, c)).toBe(offending.length === 0);
      }),
      { numRuns: 300 },
    );
  });
});
