import { describe, expect, it } from 'vitest';
import { parsePermissionRules } from './parse-permission-rules.js';
import type { PermissionRules } from './permission-rule.js';

const FILE = '/home/u/.codewhale/permissions.toml';
function parse(text: string): PermissionRules {
  const r = parsePermissionRules(text, FILE);
  if (!r.ok) throw new Error(r.issues[0]!.summary);
  return r.value;
}

describe('parsePermissionRules', () => {
  it('loads valid rules in file order with their lines', () => {
    const r = parse(
      [
        '# my rules', // 1
        '[[rules]]', // 2
        'tool = "bash"', // 3
        'command = "git status*"', // 4
        'action = "allow"', // 5
        '', // 6
        '[[rules]]', // 7
        'tool = "write"', // 8
        'path = "./secrets/**"', // 9
        'workspace = "/w/app/"', // 10
        'action = "DENY"', // 11
      ].join('\n'),
    );
    expect(r.issues).toEqual([]);
    expect(r.rules).toEqual([
      { tool: 'bash', command: 'git status*', path: null, workspace: null, action: 'allow', origin: { file: FILE, line: 2, entry: 0 } },
      { tool: 'write', command: null, path: './secrets/**', workspace: '/w/app', action: 'deny', origin: { file: FILE, line: 7, entry: 1 } },
    ]);
  });

  it('drops a bad entry alone, with its line, the fix and a "did you mean"', () => {
    const r = parse(
      [
        '[[rules]]', // 1
        'tool = "bash"', // 2
        'comand = "rm *"', // 3
        'action = "deny"', // 4
        '[[rules]]', // 5
        'tool = "bash"', // 6
        'action = "alow"', // 7
        '[[rules]]', // 8
        'tool = "read_file"', // 9
        'action = "block"', // 10
        '[[rules]]', // 11
        'action = "ask"', // 12
        '[[rules]]', // 13
        'tool = "bash"', // 14
        'command = "x"', // 15
        'path = "y"', // 16
        'action = "ask"', // 17
        '[[rules]]', // 18
        'tool = "bash"', // 19
        'workspace = "relative/dir"', // 20
        'action = 1', // 21
        '[[rules]]', // 22
        'tool = "*"', // 23
        'action = "ask"', // 24
      ].join('\n'),
    );
    expect(r.rules.map((x) => x.origin.line)).toEqual([22]);
    expect(r.issues.map((i) => [i.line, i.severity, i.code, i.message])).toEqual([
      [1, 'rejected', 'unknown_key', 'unknown key `comand`; did you mean `command`?'],
      [5, 'rejected', 'invalid_value', 'unknown action `alow`; did you mean `allow`?'],
      [8, 'rejected', 'invalid_value', 'unknown action `block`; did you mean `deny`?'],
      [11, 'rejected', 'missing_key', '`tool` is missing'],
      [13, 'rejected', 'conflicting_keys', 'a rule takes `command` or `path`, not both'],
      [18, 'rejected', 'invalid_type', '`action` must be a string (got an integer)'],
      [18, 'rejected', 'invalid_value', '`workspace` must be an absolute path'],
    ]);
    expect(r.issues[0]!.summary).toBe(`${FILE}:1: rejected: rule 1 \u2014 unknown key \`comand\`; did you mean \`command\`? \u2014 rename it to \`command\``);
  });

  it('never echoes a command, path or odd key', () => {
    const r = parse('[[rules]]\ntool = "bash"\n"sk-secret key" = 1\naction = "sk secret action"\n');
    expect(JSON.stringify(r.issues)).not.toContain('sk-secret');
    expect(r.issues.map((i) => i.message)).toEqual(['an unknown key', 'an unknown action']);
  });

  it('warns about a command rule on a tool that has no command', () => {
    const r = parse('[[rules]]\ntool = "read_file"\ncommand = "x"\naction = "deny"\n');
    expect(r.rules).toHaveLength(1);
    expect(r.issues).toMatchObject([{ severity: 'warning', code: 'never_matches', line: 1 }]);
  });

  it('file-level problems: unknown top-level keys, a non-array `rules`, a syntax error', () => {
    expect(parse('rule = 1\n').issues).toMatchObject([{ severity: 'warning', code: 'unknown_setting', line: 1, message: 'unknown key `rule` is ignored; did you mean `rules`?' }]);
    expect(parse('rules = "x"\n')).toMatchObject({ rules: [], issues: [{ severity: 'rejected', code: 'invalid_type', line: 1 }] });
    expect(parse('')).toEqual({ file: FILE, rules: [], issues: [] });
    const bad = parsePermissionRules('[[rules]\n', FILE);
    expect(bad).toMatchObject({ ok: false, issues: [{ code: 'toml_syntax', file: FILE, line: 1 }] });
  });

  it('inline arrays load without line numbers', () => {
    const r = parse('rules = [{ tool = "bash", action = "ask" }]\n');
    expect(r.rules).toMatchObject([{ tool: 'bash', action: 'ask', origin: { line: null, entry: 0 } }]);
  });
});
