import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendPermissionRule, type NewPermissionRule } from './append-permission-rule.js';
import { parsePermissionRules } from './parse-permission-rules.js';

const append = (text: string, rule: NewPermissionRule): string => {
  const r = appendPermissionRule(text, rule);
  if (!r.ok) throw new Error(r.issues[0]!.message);
  return r.value;
};

describe('appendPermissionRule', () => {
  it('creates a file, then appends after the existing text, keeping every byte and comment', () => {
    const first = append('', { tool: 'bash', command: 'git status*', action: 'allow' });
    expect(first).toBe('[[rules]]\ntool = "bash"\ncommand = "git status*"\naction = "allow"\n');
    const mine = '# my rules\n[[rules]] # keep\ntool = "write" # trailing\npath = "secrets/**"\naction = "deny"';
    const out = append(mine, { tool: 'bash', command: 'npm "test" \\ x', workspace: '/w/app', action: 'allow' });
    expect(out.startsWith(`${mine}\n\n[[rules]]\n`)).toBe(true);
    const parsed = parsePermissionRules(out);
    expect(parsed.ok && parsed.value.rules.map((r) => [r.tool, r.command, r.path, r.workspace, r.action])).toEqual([
      ['write', null, 'secrets/**', null, 'deny'],
      ['bash', 'npm "test" \\ x', null, '/w/app', 'allow'],
    ]);
  });

  it('keeps CRLF line ends', () => {
    expect(append('# x\r\n', { tool: 'bash', action: 'ask' })).toBe('# x\r\n\r\n[[rules]]\r\ntool = "bash"\r\naction = "ask"\r\n');
  });

  it('appending the same rule twice is appending it once', () => {
    const once = append('# x\n', { tool: 'bash', command: 'ls', action: 'allow' });
    expect(append(once, { tool: 'bash', command: 'ls', action: 'allow' })).toBe(once);
  });

  it('refuses an invalid rule, an unparseable file and inline arrays', () => {
    expect(appendPermissionRule('', { tool: 'bash', command: 'x', path: 'y', action: 'allow' })).toMatchObject({ ok: false, issues: [{ code: 'invalid_rule' }] });
    expect(appendPermissionRule('[[rules]\n', { tool: 'bash', action: 'allow' })).toMatchObject({ ok: false, issues: [{ code: 'config_unparseable' }] });
    expect(appendPermissionRule('rules = [{ tool = "x", action = "ask" }]\n', { tool: 'bash', action: 'allow' })).toMatchObject({ ok: false, issues: [{ code: 'unsupported_layout' }] });
    expect(appendPermissionRule('rules = 3\n', { tool: 'bash', action: 'allow' })).toMatchObject({ ok: false, issues: [{ code: 'unsupported_layout' }] });
  });

  describe('properties', () => {
    it('any valid rule round-trips through the parser, after any prefix of comments and rules', () => {
      const text = fc.string({ unit: 'binary', maxLength: 30 }).filter((s) => s.trim() !== '');
      fc.assert(
        fc.property(
          fc.constantFrom('', '# c\n', '# c', '[[rules]]\ntool = "x"\naction = "deny"\n', '\n\n'),
          fc.record({ tool: text, command: text, action: fc.constantFrom<'allow' | 'ask' | 'deny'>('allow', 'ask', 'deny') }),
          (prefix, rule) => {
            const out = appendPermissionRule(prefix, rule);
            if (!out.ok) throw new Error(out.issues[0]!.message);
            expect(out.value.startsWith(prefix)).toBe(true);
            const parsed = parsePermissionRules(out.value);
            if (!parsed.ok) throw new Error('unparseable');
            const last = parsed.value.rules[parsed.value.rules.length - 1]!;
            expect([last.tool, last.command, last.action]).toEqual([rule.tool.trim(), rule.command.trim(), rule.action]);
          },
        ),
      );
    });
  });
});
