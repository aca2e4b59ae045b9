import { SHELL_TOOL_NAMES } from '@codewhale/hooks-payloads';
import { toolNameMatches } from '@codewhale/hooks-conditions';
import { parseToml } from './parse-toml.js';
import { ok, type FileIssue, type Result } from './result.js';
import { checkShape, describeValue, isTable, type Field } from './schema.js';
import { suggest } from './suggest.js';
import { scanTomlLayout } from './toml-layout.js';
import { tomlArrayEntryLines, tomlKeyLine } from './toml-key-line.js';
import { normalizePath } from './permission-glob.js';
import type { PermissionAction, PermissionIssue, PermissionIssueCode, PermissionRule, PermissionRules } from './permission-rule.js';

/** One `[[rules]]` entry. Unknown keys are rejected, as in hook entries (D8). */
export const PERMISSION_RULE_SHAPE = {
  tool: { type: 'string', required: true },
  command: { type: 'string', required: false },
  path: { type: 'string', required: false },
  workspace: { type: 'string', required: false },
  action: { type: 'string', required: true },
} as const satisfies Readonly<Record<string, Field>>;

/** The keys a rule takes, in documented order. */
export const PERMISSION_RULE_KEYS: readonly string[] = Object.keys(PERMISSION_RULE_SHAPE);
/** The top level of `permissions.toml`. */
export const PERMISSIONS_FILE_KEYS: readonly string[] = ['rules'];

/** Spellings other tools use for the three actions. */
const ACTION_ALIASES: Readonly<Record<string, PermissionAction>> = {
  block: 'deny',
  reject: 'deny',
  forbid: 'deny',
  prompt: 'ask',
  confirm: 'ask',
  approve: 'allow',
  permit: 'allow',
  accept: 'allow',
};
const ACTIONS: readonly string[] = ['allow', 'ask', 'deny'];
const ABSOLUTE = /^(?:\/|[A-Za-z]:[\\/])/;
const SAFE_TOKEN = /^[A-Za-z0-9_.-]{1,48}$/;
const tok = (v: string): string | null => (SAFE_TOKEN.test(v) ? `\`${v}\`` : null);

/**
 * Parse `permissions.toml` (text as read, once). Only a TOML syntax error fails the file (a
 * {@link FileIssue} with line and column: then no rule applies and the caller reports it).
 * Otherwise each `[[rules]]` entry is judged alone: a bad one is dropped with an issue naming
 * its line and the fix (with "did you mean" for keys and actions), and the rest load.
 * Pure: no I/O.
 */
export function parsePermissionRules(text: string, file = 'permissions.toml'): Result<PermissionRules, FileIssue> {
  const parsed = parseToml(text, file);
  if (!parsed.ok) return parsed;
  const doc = parsed.value;
  const layout = scanTomlLayout(text);
  const issues: PermissionIssue[] = [];
  const issue = (severity: PermissionIssue['severity'], code: PermissionIssueCode, line: number | null, entry: number | null, message: string, fix: string): void => {
    const where = line === null ? file : `${file}:${line}`;
    const what = entry === null ? 'permissions.toml' : `rule ${entry + 1}`;
    issues.push({ severity, code, file, line, entry, message, fix, summary: `${where}: ${severity}: ${what} \u2014 ${message} \u2014 ${fix}` });
  };

  for (const key of Object.keys(doc)) {
    if (PERMISSIONS_FILE_KEYS.includes(key)) continue;
    const near = suggest(key, PERMISSIONS_FILE_KEYS);
    issue(
      'warning',
      'unknown_setting',
      tomlKeyLine(layout, [], key),
      null,
      `${tok(key) ? `unknown key ${tok(key)}` : 'an unknown key'} is ignored${near ? `; did you mean \`${near}\`?` : ''}`,
      'write each rule as a `[[rules]]` entry',
    );
  }
  const raw = doc['rules'];
  if (raw === undefined) return ok({ file, rules: [], issues });
  if (!Array.isArray(raw)) {
    issue(
      'rejected',
      'invalid_type',
      tomlKeyLine(layout, [], 'rules'),
      null,
      `\`rules\` must be an array of tables (got ${describeValue(raw)}); no rule was loaded`,
      'write each rule as a `[[rules]]` entry',
    );
    return ok({ file, rules: [], issues });
  }

  const lines = tomlArrayEntryLines(layout, ['rules'], raw.length);
  const rules: PermissionRule[] = [];
  raw.forEach((entry: unknown, position) => {
    const line = lines[position] ?? null;
    const before = issues.length;
    const reject = (code: PermissionIssueCode, message: string, fix: string) => issue('rejected', code, line, position, message, fix);
    const rule = checkRule(entry, reject, (code, message, fix) => issue('warning', code, line, position, message, fix));
    const rejected = issues.slice(before).some((i) => i.severity === 'rejected');
    if (rule !== null && !rejected) rules.push({ ...rule, origin: { file, line, entry: position } });
  });
  return ok({ file, rules, issues });
}

type Report = (code: PermissionIssueCode, message: string, fix: string) => void;

/** Judge one entry; every problem is reported, and `null` means it cannot be used. */
export function checkRule(entry: unknown, reject: Report, warn: Report): Omit<PermissionRule, 'origin'> | null {
  if (!isTable(entry)) {
    reject('invalid_type', `a rule must be a table (got ${describeValue(entry)})`, 'write it as a `[[rules]]` entry with `tool` and `action`');
    return null;
  }
  const shape = checkShape(entry, PERMISSION_RULE_SHAPE);
  const bad = new Set<string>(shape.invalid);
  for (const key of shape.unknown) {
    const near = suggest(key, PERMISSION_RULE_KEYS);
    reject(
      'unknown_key',
      `${tok(key) ? `unknown key ${tok(key)}` : 'an unknown key'}${near ? `; did you mean \`${near}\`?` : ''}`,
      near ? `rename it to \`${near}\`` : `remove it; a rule takes ${PERMISSION_RULE_KEYS.map((k) => `\`${k}\``).join(', ')}`,
    );
  }
  for (const key of ['tool', 'action']) {
    if (entry[key] === undefined) {
      reject('missing_key', `\`${key}\` is missing`, key === 'tool' ? 'add e.g. `tool = "bash"` (`*` for every tool)' : 'add `action = "allow"`, `"ask"` or `"deny"`');
      bad.add(key);
    }
  }
  for (const key of PERMISSION_RULE_KEYS) {
    if (bad.has(key) && entry[key] !== undefined) reject('invalid_type', `\`${key}\` must be a string (got ${describeValue(entry[key])})`, `write it in quotes, e.g. \`${key} = "…"\``);
  }
  const s = (key: string): string | null => (!bad.has(key) && typeof entry[key] === 'string' ? (entry[key] as string) : null);
  const tool = s('tool');
  const command = s('command');
  const path = s('path');
  const workspace = s('workspace');
  const actionRaw = s('action');

  if (tool !== null && tool.trim() === '') reject('invalid_value', '`tool` is empty', 'name a tool, e.g. `tool = "bash"`, or `"*"` for every tool');
  if (command !== null && command.trim() === '') reject('invalid_value', '`command` is empty', 'write a command glob, e.g. `command = "git status*"`, or remove it');
  if (path !== null && path.trim() === '') reject('invalid_value', '`path` is empty', 'write a path glob, e.g. `path = "src/**"`, or remove it');
  if (command !== null && path !== null) reject('conflicting_keys', 'a rule takes `command` or `path`, not both', 'split it into two rules');
  if (workspace !== null && !ABSOLUTE.test(workspace))
    reject('invalid_value', '`workspace` must be an absolute path', 'write the workspace\u2019s full path, e.g. `workspace = "/home/me/project"`, or remove it');

  let action: PermissionAction | null = null;
  if (actionRaw !== null) {
    const a = actionRaw.trim().toLowerCase();
    if (ACTIONS.includes(a)) action = a as PermissionAction;
    else {
      const near = ACTION_ALIASES[a] ?? suggest(a, ACTIONS);
      reject(
        'invalid_value',
        `${tok(actionRaw) ? `unknown action ${tok(actionRaw)}` : 'an unknown action'}${near ? `; did you mean \`${near}\`?` : ''}`,
        'write `action = "allow"`, `"ask"` or `"deny"`',
      );
    }
  }
  if (tool === null || action === null || tool.trim() === '') return null;
  if (command !== null && !SHELL_TOOL_NAMES.some((n) => toolNameMatches(tool, n))) {
    warn('never_matches', '`command` is only matched for the shell tool (`bash`, `Bash`, `exec_shell`), which this `tool` does not name', 'set `tool = "bash"`, or use `path` for a file tool');
  }
  return {
    tool: tool.trim(),
    command: command === null ? null : command.trim(),
    path: path === null ? null : path.trim(),
    workspace: workspace === null ? null : trimTrailingSlash(normalizePath(workspace.trim())),
    action,
  };
}

function trimTrailingSlash(p: string): string {
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}
