import { deepEqual } from './deep-equal.js';
import { parseToml } from './parse-toml.js';
import { checkRule, PERMISSION_RULE_KEYS } from './parse-permission-rules.js';
import type { PermissionAction } from './permission-rule.js';
import { fail, ok, type Result } from './result.js';
import type { ConfigEditError } from './edit-project-table.js';
import { formatTomlString } from './toml-format.js';
import { scanTomlLayout } from './toml-layout.js';

/** A rule to remember ("always allow" in the TUI). */
export interface NewPermissionRule {
  readonly tool: string;
  readonly command?: string;
  readonly path?: string;
  readonly workspace?: string;
  readonly action: PermissionAction;
}

/**
 * Append one `[[rules]]` entry to the text of `permissions.toml` (empty text: a new file),
 * touching nothing else (D10): every existing byte, comment and blank line stays. The rule
 * is validated like any entry first, the result is re-parsed and checked to hold exactly the
 * old document plus the new rule, or an error is returned instead of a damaged file. When an
 * identical rule is already there, the text comes back unchanged (appending twice = once).
 * Pure: the caller reads and writes the file (atomically, under its lock).
 */
export function appendPermissionRule(text: string, rule: NewPermissionRule): Result<string, ConfigEditError> {
  const problems: string[] = [];
  const fields = Object.fromEntries(PERMISSION_RULE_KEYS.flatMap((k) => (rule[k as keyof NewPermissionRule] === undefined ? [] : [[k, rule[k as keyof NewPermissionRule]]])));
  const checked = checkRule(
    fields,
    (_c, message) => problems.push(message),
    () => {},
  );
  if (checked === null || problems.length > 0) return fail({ code: 'invalid_rule', message: `the rule is not valid: ${problems.join('; ')}` });

  const before = parseToml(text, 'permissions.toml');
  if (!before.ok) return fail({ code: 'config_unparseable', message: `permissions.toml cannot be edited safely: ${before.issues[0]!.summary}` });
  const existing = Array.isArray(before.value['rules']) ? before.value['rules'] : null;
  if (before.value['rules'] !== undefined && existing === null) {
    return fail({ code: 'unsupported_layout', message: '`rules` in permissions.toml is not an array of `[[rules]]` tables; edit the file by hand' });
  }
  if (existing?.some((r) => deepEqual(r, fields))) return ok(text);
  if (existing !== null && existing.length > 0 && scanTomlLayout(text).headers.filter((h) => h.kind === 'array' && h.path.length === 1 && h.path[0] === 'rules').length !== existing.length) {
    return fail({ code: 'unsupported_layout', message: 'the rules in permissions.toml are written as an inline array; edit the file by hand' });
  }

  const nl = scanTomlLayout(text).newline;
  const body = Object.entries(fields).map(([k, v]) => `${k} = ${formatTomlString(String(v))}`);
  const separator = text === '' ? '' : text.endsWith(nl + nl) ? '' : text.endsWith('\n') ? nl : nl + nl;
  const out = `${text}${separator}[[rules]]${nl}${body.join(nl)}${nl}`;

  const after = parseToml(out, 'permissions.toml');
  const expected = { ...before.value, rules: [...(existing ?? []), fields] };
  if (!after.ok || !deepEqual(after.value, expected)) {
    return fail({ code: 'verification_failed', message: 'the rule could not be appended without changing other rules; permissions.toml was left as it was' });
  }
  return ok(out);
}
