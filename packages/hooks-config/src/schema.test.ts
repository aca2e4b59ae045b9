import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { builtOnce, conditionSchemas, hookEntrySchema, HOOK_ENTRY_KEYS } from './schema.js';
import { PERMISSION_RULE_KEYS, permissionRuleSchema } from './parse-permission-rules.js';
import { CONDITION_TYPES } from '@codewhale/hooks-conditions';

describe('builtOnce', () => {
  it('builds nothing until asked, then builds once and keeps the value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.anything(), (calls, value) => {
        let builds = 0;
        const get = builtOnce(() => {
          builds += 1;
          return { value };
        });
        expect(builds).toBe(0);
        const first = get();
        for (let i = 1; i < calls; i++) expect(get()).toBe(first);
        expect(builds).toBe(1);
        expect(first.value).toBe(value);
      }),
    );
  });
});

describe('the key lists and the schemas say the same', () => {
  it('HOOK_ENTRY_KEYS are the entry schema keys, in order', () => {
    expect([...HOOK_ENTRY_KEYS]).toEqual(Object.keys(hookEntrySchema().shape));
  });
  it('PERMISSION_RULE_KEYS are the rule schema keys, in order', () => {
    expect([...PERMISSION_RULE_KEYS]).toEqual(Object.keys(permissionRuleSchema().shape));
  });
  it('there is one condition schema per condition type, each strict about its type', () => {
    const schemas = conditionSchemas();
    expect(Object.keys(schemas).sort()).toEqual([...CONDITION_TYPES].sort());
    for (const [type, schema] of Object.entries(schemas)) {
      expect(schema.shape.type.safeParse(type).success).toBe(true);
      expect(schema.shape.type.safeParse(`${type}x`).success).toBe(false);
    }
  });
  it('returns the same schema object on every call', () => {
    expect(hookEntrySchema()).toBe(hookEntrySchema());
    expect(conditionSchemas()).toBe(conditionSchemas());
    expect(permissionRuleSchema()).toBe(permissionRuleSchema());
  });
});
