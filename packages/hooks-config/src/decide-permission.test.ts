import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decidePermission } from './decide-permission.js';
import type { PermissionAction, PermissionMatch } from './permission-rule.js';

const match = (action: PermissionAction): PermissionMatch => ({
  action,
  rule: { tool: '*', command: null, path: null, workspace: null, action, origin: { file: 'p', line: 1, entry: 0 } },
});

describe('decidePermission', () => {
  it('a typed deny blocks even under Full Access and after a hook allow', () => {
    expect(decidePermission({ hook: 'allow', rule: match('deny'), postureAsks: false })).toEqual({ action: 'deny', by: 'rule' });
  });
  it('a remembered allow never clears a hook ask', () => {
    expect(decidePermission({ hook: 'ask', rule: match('allow'), postureAsks: false })).toEqual({ action: 'ask', by: 'hook' });
  });
  it('a typed allow skips the posture prompt; without rules the posture decides', () => {
    expect(decidePermission({ hook: null, rule: match('allow'), postureAsks: true })).toEqual({ action: 'allow', by: 'rule' });
    expect(decidePermission({ hook: 'allow', rule: null, postureAsks: true })).toEqual({ action: 'ask', by: 'posture' });
    expect(decidePermission({ hook: null, rule: null, postureAsks: false })).toEqual({ action: 'allow', by: 'posture' });
  });

  describe('properties', () => {
    const action = fc.constantFrom<PermissionAction | null>(null, 'allow', 'ask', 'deny');
    const rank = (a: PermissionAction | null) => (a === 'deny' ? 2 : a === 'ask' ? 1 : 0);
    it('the result is at least as strict as the hook and the rule, and deny anywhere denies', () => {
      fc.assert(
        fc.property(action, action, fc.boolean(), (hook, rule, postureAsks) => {
          const out = decidePermission({ hook, rule: rule === null ? null : match(rule), postureAsks });
          expect(rank(out.action)).toBeGreaterThanOrEqual(Math.max(rank(hook), rank(rule)));
          if (hook === 'deny' || rule === 'deny') expect(out.action).toBe('deny');
          if (hook !== 'deny' && rule !== 'deny' && hook !== 'ask' && rule !== 'ask') expect(out.action).toBe(rule === 'allow' ? 'allow' : postureAsks ? 'ask' : 'allow');
        }),
      );
    });
  });
});
