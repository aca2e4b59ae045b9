import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alwaysRuleFor } from './always-allow.js';

const req = (tool: string, input: unknown) => ({ id: 'a', callId: 'c', tool, input, reason: 'posture' as const, summary: '' });

describe('alwaysRuleFor', () => {
  it('remembers exactly the command, the path, or the tool, in this workspace', () => {
    expect(alwaysRuleFor(req('bash', { command: ' make test ' }), '/ws')).toEqual({ ok: true, rule: { tool: 'bash', command: 'make test', workspace: '/ws', action: 'allow' } });
    expect(alwaysRuleFor(req('write', { path: 'src/a.ts', content: 'x' }), '/ws')).toEqual({ ok: true, rule: { tool: 'write', path: 'src/a.ts', workspace: '/ws', action: 'allow' } });
    expect(alwaysRuleFor(req('agent', { prompt: 'x' }), '/ws')).toEqual({ ok: true, rule: { tool: 'agent', workspace: '/ws', action: 'allow' } });
  });

  it('refuses anything a rule would read as a wildcard', () => {
    expect(alwaysRuleFor(req('bash', { command: 'rm *.log' }), '/ws').ok).toBe(false);
    expect(alwaysRuleFor(req('write', { path: 'src/?.ts' }), '/ws').ok).toBe(false);
    expect(alwaysRuleFor(req('bash', {}), '/ws').ok).toBe(false);
  });

  it('property: a remembered command or path never contains a glob character', () => {
    fc.assert(
      fc.property(fc.constantFrom('bash', 'write', 'edit'), fc.string({ unit: fc.constantFrom('a', ' ', '*', '?', '/', '.') }), (tool, v) => {
        const r = alwaysRuleFor(req(tool, tool === 'bash' ? { command: v } : { path: v }), '/ws');
        if (r.ok) {
          expect(r.rule.command ?? '').not.toContain('*');
          expect(r.rule.path ?? '').not.toMatch(/[*?]/);
        }
      }),
    );
  });
});
