import fc from 'fast-check';
import { parsePermissionRules, appendPermissionRule, ruleMatches } from '@codewhale/hooks-config';
import { describe, expect, it } from 'vitest';
import { alwaysRuleFor } from './always-rule.js';

const req = (tool: string, input: unknown) => ({ id: 'a', callId: 'c', tool, input, reason: 'posture' as const, summary: '' });

describe('alwaysRuleFor', () => {
  it('remembers exactly the command, the path, or the tool, in this workspace', () => {
    expect(alwaysRuleFor(req('bash', { command: ' make test ' }), '/ws')).toEqual({ ok: true, rule: { tool: 'bash', command: 'make test', workspace: '/ws', action: 'allow' } });
    expect(alwaysRuleFor(req('write', { path: 'src/a.ts', content: 'x' }), '/ws')).toEqual({ ok: true, rule: { tool: 'write', path: 'src/a.ts', workspace: '/ws', action: 'allow' } });
    expect(alwaysRuleFor(req('agent', { prompt: 'x' }), '/ws')).toEqual({ ok: true, rule: { tool: 'agent', workspace: '/ws', action: 'allow' } });
  });

  it('refuses anything a rule would read as a wildcard, with a reason', () => {
    expect(alwaysRuleFor(req('bash', { command: 'rm *.log' }), '/ws')).toMatchObject({ ok: false, reason: expect.stringContaining('wildcard') });
    expect(alwaysRuleFor(req('write', { path: 'src/?.ts' }), '/ws').ok).toBe(false);
    expect(alwaysRuleFor(req('bash', {}), '/ws').ok).toBe(false);
  });

  it('refuses a command an allow rule could never match (substitution, several commands)', () => {
    expect(alwaysRuleFor(req('bash', { command: 'echo $(whoami)' }), '/ws')).toMatchObject({ ok: false, reason: expect.stringContaining('cannot match') });
    expect(alwaysRuleFor(req('bash', { command: 'make && make test' }), '/ws')).toMatchObject({ ok: false });
  });

  it('refuses when a hook or an ask rule asked: the rule would not stop the next question', () => {
    expect(alwaysRuleFor({ ...req('bash', { command: 'make' }), reason: 'hook' }, '/ws')).toMatchObject({ ok: false, reason: expect.stringContaining('hook') });
    expect(alwaysRuleFor({ ...req('bash', { command: 'make' }), reason: 'permission' }, '/ws')).toMatchObject({ ok: false, reason: expect.stringContaining('ask') });
  });

  describe('properties', () => {
    it('a remembered rule has no glob character, and read back it matches the very call', () => {
      fc.assert(
        fc.property(fc.constantFrom('bash', 'write', 'edit'), fc.string({ unit: fc.constantFrom('a', ' ', '*', '?', '/', '.', '&', ';', '$', '(', ')') }), (tool, v) => {
          const input = tool === 'bash' ? { command: v } : { path: v };
          const r = alwaysRuleFor(req(tool, input), '/ws');
          if (!r.ok) {
            expect(r.reason.length).toBeGreaterThan(0);
            return;
          }
          expect(r.rule.command ?? '').not.toContain('*');
          expect(r.rule.path ?? '').not.toMatch(/[*?]/);
          const text = appendPermissionRule('', r.rule);
          const parsed = text.ok ? parsePermissionRules(text.value, 'permissions.toml') : null;
          expect(parsed?.ok && ruleMatches(parsed.value.rules[0]!, { name: tool, input, workspace: '/ws' })).toBe(true);
        }),
      );
    });
  });
});
