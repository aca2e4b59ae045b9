import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandParts, matchPermission } from './match-permission.js';
import type { PermissionAction, PermissionCall, PermissionRule } from './permission-rule.js';

let n = 0;
function rule(fields: Partial<PermissionRule> & { action: PermissionAction }): PermissionRule {
  return { tool: '*', command: null, path: null, workspace: null, origin: { file: 'permissions.toml', line: null, entry: n++ }, ...fields };
}
const WS = '/w/app';
const shell = (command: string, name = 'bash'): PermissionCall => ({ name, input: { command }, workspace: WS });
const file = (path: string, name = 'write'): PermissionCall => ({ name, input: { path, content: '' }, workspace: WS });
const actionOf = (rules: PermissionRule[], call: PermissionCall) => matchPermission(rules, call)?.action ?? null;

describe('matchPermission', () => {
  it('matches tool names with the shell spellings as one tool', () => {
    const rules = [rule({ tool: 'bash', action: 'ask' })];
    for (const name of ['bash', 'Bash', 'exec_shell']) expect(actionOf(rules, shell('ls', name))).toBe('ask');
    expect(actionOf(rules, file('a'))).toBeNull();
    expect(actionOf([rule({ tool: 'mcp.git*', action: 'deny' })], { name: 'mcp.github', input: {}, workspace: WS })).toBe('deny');
  });

  it('deny > ask > allow, whatever the order; the first rule of the winning action is reported', () => {
    const allow = rule({ tool: 'bash', action: 'allow' });
    const ask = rule({ tool: '*', action: 'ask' });
    const deny1 = rule({ tool: 'bash', command: 'rm *', action: 'deny' });
    const deny2 = rule({ tool: 'Bash', action: 'deny' });
    expect(matchPermission([allow, ask, deny1, deny2], shell('rm -rf x'))).toEqual({ action: 'deny', rule: deny1 });
    expect(matchPermission([deny2, deny1, ask, allow], shell('rm -rf x'))).toEqual({ action: 'deny', rule: deny2 });
    expect(matchPermission([allow, ask], shell('ls'))).toEqual({ action: 'ask', rule: ask });
  });

  it('a deny or ask command glob catches any part of a compound command; whitespace runs count as one space', () => {
    const deny = [rule({ tool: 'bash', command: 'rm -rf *', action: 'deny' })];
    expect(actionOf(deny, shell('rm -rf build'))).toBe('deny');
    expect(actionOf(deny, shell('  rm   -rf\tbuild '))).toBe('deny');
    expect(actionOf(deny, shell('cd x && rm -rf build'))).toBe('deny');
    expect(actionOf(deny, shell('echo ok; rm -rf /'))).toBe('deny');
    expect(actionOf(deny, shell('ls | rm -rf y'))).toBe('deny');
    expect(actionOf(deny, shell('rm build'))).toBeNull();
  });

  it('an allow command glob must match every part, and never allows command substitution', () => {
    const allow = [rule({ tool: 'bash', command: 'git status*', action: 'allow' })];
    expect(actionOf(allow, shell('git status --short'))).toBe('allow');
    expect(actionOf(allow, shell('git status; rm -rf ~'))).toBeNull();
    expect(actionOf(allow, shell('git status && git status'))).toBe('allow');
    expect(actionOf(allow, shell('git status $(rm -rf ~)'))).toBeNull();
    expect(actionOf(allow, shell('git status `rm -rf ~`'))).toBeNull();
    expect(actionOf(allow, shell(''))).toBeNull();
  });

  it('command rules match shell calls with a string command only', () => {
    const rules = [rule({ tool: '*', command: '*', action: 'deny' })];
    expect(actionOf(rules, { name: 'mcp.run', input: { command: 'x' }, workspace: WS })).toBeNull();
    expect(actionOf(rules, { name: 'bash', input: { command: 42 }, workspace: WS })).toBeNull();
    expect(actionOf(rules, { name: 'bash', input: '{"command":"x"}', workspace: WS })).toBeNull();
  });

  it('path globs: relative to the workspace, absolute when written absolute; escapes never match a relative glob', () => {
    const rules = [rule({ tool: 'write', path: 'secrets/**', action: 'deny' }), rule({ tool: 'write', path: 'src/*.ts', action: 'allow' })];
    expect(actionOf(rules, file('secrets/a/b.txt'))).toBe('deny');
    expect(actionOf(rules, file('./secrets//x'))).toBe('deny');
    expect(actionOf(rules, file('src/../secrets/x'))).toBe('deny');
    expect(actionOf(rules, file(`${WS}/secrets/x`))).toBe('deny');
    expect(actionOf(rules, file('src/a.ts'))).toBe('allow');
    expect(actionOf(rules, file('src/sub/a.ts'))).toBeNull();
    expect(actionOf(rules, file('../app2/secrets/x'))).toBeNull();
    const abs = [rule({ tool: '*', path: '/etc/**', action: 'deny' })];
    expect(actionOf(abs, file('/etc/passwd', 'read_file'))).toBe('deny');
    expect(actionOf(abs, file('../../etc/passwd', 'read_file'))).toBe('deny');
    expect(actionOf([rule({ tool: '*', path: '**/*.pem', action: 'ask' })], file('a.pem', 'read_file'))).toBe('ask');
  });

  it('a workspace-limited rule applies in that workspace only', () => {
    const rules = [rule({ tool: 'bash', workspace: '/w/app', action: 'allow' })];
    expect(actionOf(rules, shell('ls'))).toBe('allow');
    expect(actionOf(rules, { ...shell('ls'), workspace: '/w/app/' })).toBe('allow');
    expect(actionOf(rules, { ...shell('ls'), workspace: '/w/other' })).toBeNull();
  });

  it('splits commands at the shell control operators', () => {
    expect(commandParts('a && b || c; d | e & f\ng')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  describe('properties', () => {
    const arbRule = fc.record({
      tool: fc.constantFrom('*', 'bash', 'Bash', 'write', 'read_file'),
      command: fc.constantFrom(null, '*', 'rm *', 'git *', 'ls'),
      path: fc.constant(null),
      workspace: fc.constantFrom(null, WS, '/w/other'),
      action: fc.constantFrom<PermissionAction>('allow', 'ask', 'deny'),
      origin: fc.record({ file: fc.constant('p.toml'), line: fc.constant(null), entry: fc.nat() }),
    });
    const arbCall = fc.record({
      name: fc.constantFrom('bash', 'exec_shell', 'write', 'read_file'),
      input: fc.record({ command: fc.constantFrom('ls', 'rm -rf x', 'git log', 'git log; rm x', 'echo $(id)') }),
      workspace: fc.constantFrom(WS, '/w/other'),
    });
    const rank = { deny: 0, ask: 1, allow: 2 } as const;

    it('the action is the strongest among the matching rules, independent of order', () => {
      fc.assert(
        fc.property(fc.array(arbRule, { maxLength: 8 }), arbCall, fc.func(fc.integer()), (rules, call, key) => {
          const shuffled = [...rules].sort((a, b) => key(a) - key(b));
          expect(actionOf(shuffled, call)).toBe(actionOf(rules, call));
          const single = rules.map((r) => actionOf([r], call)).filter((a): a is PermissionAction => a !== null);
          const strongest = single.sort((a, b) => rank[a] - rank[b])[0] ?? null;
          expect(actionOf(rules, call)).toBe(strongest);
        }),
      );
    });

    it('adding an allow rule never weakens a deny or an ask; adding a deny that matches always denies', () => {
      fc.assert(
        fc.property(fc.array(arbRule, { maxLength: 8 }), arbRule, arbCall, (rules, extra, call) => {
          const before = actionOf(rules, call);
          const after = actionOf([...rules, extra], call);
          if (extra.action === 'allow' && before !== null) expect(after).toBe(before);
          if (extra.action === 'deny' && actionOf([extra], call) === 'deny') expect(after).toBe('deny');
        }),
      );
    });

    it('an allow never matches a command with a part the glob does not match', () => {
      fc.assert(
        fc.property(
          fc.constantFrom('git *', 'ls*', 'npm test'),
          fc.array(fc.constantFrom('git log', 'ls -la', 'npm test', 'rm -rf /', 'curl x'), { minLength: 1, maxLength: 4 }),
          fc.constantFrom('; ', ' && ', ' | ', '\n'),
          (glob, parts, sep) => {
            const allowed = actionOf([rule({ tool: 'bash', command: glob, action: 'allow' })], shell(parts.join(sep))) === 'allow';
            const re = new RegExp(`^${glob.replace(/\*/g, '.*')}$`);
            expect(allowed).toBe(parts.every((p) => re.test(p)));
          },
        ),
      );
    });
  });
});
