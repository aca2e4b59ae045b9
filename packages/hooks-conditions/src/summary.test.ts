import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { summarizeCondition, conditionToJson } from './summary.js';
import type { HookCondition } from './condition.js';

describe('summarizeCondition (reference §18.3)', () => {
  const cases: [HookCondition, string][] = [
    [{ type: 'always' }, 'always'],
    [{ type: 'tool_name', name: 'exec_shell' }, 'tool_name=`exec_shell`'],
    [{ type: 'tool_category', category: 'shell' }, 'tool_category=`shell`'],
    [{ type: 'mode', mode: 'yolo' }, 'mode=`yolo`'],
    [{ type: 'exit_code', code: 127n }, 'exit_code=127'],
    [{ type: 'exit_code', code: 3221225477n }, 'exit_code=3221225477'],
    [{ type: 'exit_code', code: -1n }, 'exit_code=-1'],
    [
      {
        type: 'all',
        conditions: [
          { type: 'tool_name', name: 'exec_shell' },
          { type: 'mode', mode: 'yolo' },
        ],
      },
      'all of [tool_name=`exec_shell`, mode=`yolo`]',
    ],
    [{ type: 'any', conditions: [{ type: 'always' }, { type: 'all', conditions: [{ type: 'exit_code', code: 0n }] }] }, 'any of [always, all of [exit_code=0]]'],
    [{ type: 'all', conditions: [] }, 'all of []'],
  ];
  it.each(cases.map(([condition, summary]) => [summary, condition] as const))('renders %s', (summary, condition) => {
    expect(summarizeCondition(condition)).toBe(summary);
  });

  it('defangs and bounds operator-supplied values', () => {
    const s = summarizeCondition({ type: 'tool_name', name: `evil\u001b[2J\n${'x'.repeat(100)}` });
    expect(s).not.toMatch(/[\u0000-\u001f]/u);
    expect(s).toBe(`tool_name=\`evil[2J ${'x'.repeat(56)}\u2026[truncated]\``);
    expect(summarizeCondition({ type: 'mode', mode: 'a\tb' })).toBe('mode=`a b`');
  });
});

describe('conditionToJson', () => {
  it('writes plain snake_case JSON, exit codes as numbers when safe and as strings otherwise', () => {
    expect(conditionToJson({ type: 'exit_code', code: 3221225477n })).toEqual({ type: 'exit_code', code: 3221225477 });
    expect(conditionToJson({ type: 'exit_code', code: 2n ** 62n })).toEqual({ type: 'exit_code', code: '4611686018427387904' });
    expect(
      conditionToJson({
        type: 'any',
        conditions: [
          { type: 'tool_category', category: 'shell' },
          { type: 'all', conditions: [] },
        ],
      }),
    ).toEqual({
      type: 'any',
      conditions: [
        { type: 'tool_category', category: 'shell' },
        { type: 'all', conditions: [] },
      ],
    });
    expect(JSON.stringify(conditionToJson({ type: 'mode', mode: 'plan' }))).toBe('{"type":"mode","mode":"plan"}');
  });
});

describe('properties', () => {
  it('a summary is always a single line without control characters', () => {
    const value = fc.string({ unit: 'binary', maxLength: 80 });
    const leaf = fc.oneof(
      value.map((name): HookCondition => ({ type: 'tool_name', name })),
      value.map((mode): HookCondition => ({ type: 'mode', mode })),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((code): HookCondition => ({ type: 'exit_code', code })),
    );
    fc.assert(
      fc.property(fc.array(leaf, { maxLength: 4 }), (conditions) => {
        const s = summarizeCondition({ type: 'any', conditions });
        expect(s).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u);
        expect(s.startsWith('any of [')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('conditionToJson survives JSON.stringify for any exit code', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (code) => {
        const j = JSON.parse(JSON.stringify(conditionToJson({ type: 'exit_code', code }))) as { code: number | string };
        expect(BigInt(j.code)).toBe(code);
      }),
      { numRuns: 200 },
    );
  });
});
