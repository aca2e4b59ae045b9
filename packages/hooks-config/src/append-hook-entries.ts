import type { HookCondition } from '@codewhale/hooks-conditions';
import { sanitizeLine } from '@codewhale/hooks-payloads';
import { deepEqual } from './deep-equal.js';
import type { ConfigEditError } from './edit-project-table.js';
import type { ImportedHookEntry } from './import-peer-hooks.js';
import { parseToml } from './parse-toml.js';
import { fail, ok, type Result } from './result.js';
import { isTable } from './schema.js';
import { formatTomlString } from './toml-format.js';
import { scanTomlLayout } from './toml-layout.js';

/** Which file the entries go to: the user's config.toml (`[[hooks.hooks]]`) or a project hooks.toml (`[[hooks]]`). */
export type HooksFileShape = 'config' | 'project';

const HEADER: Record<HooksFileShape, string> = { config: '[[hooks.hooks]]', project: '[[hooks]]' };
const PATH: Record<HooksFileShape, readonly string[]> = { config: ['hooks', 'hooks'], project: ['hooks'] };
const FILE: Record<HooksFileShape, string> = { config: 'config.toml', project: 'hooks.toml' };

/** A condition as a TOML inline table: `{ type = "tool_name", name = "bash" }`. */
export function formatConditionToml(c: HookCondition): string {
  switch (c.type) {
    case 'always':
      return '{ type = "always" }';
    case 'tool_name':
      return `{ type = "tool_name", name = ${formatTomlString(c.name)} }`;
    case 'tool_category':
      return `{ type = "tool_category", category = ${formatTomlString(c.category)} }`;
    case 'mode':
      return `{ type = "mode", mode = ${formatTomlString(c.mode)} }`;
    case 'exit_code':
      return `{ type = "exit_code", code = ${c.code.toString()} }`;
    case 'all':
    case 'any':
      return `{ type = "${c.type}", conditions = [${c.conditions.map(formatConditionToml).join(', ')}] }`;
  }
}

/** The lines of one entry's table (without its header), keys in a fixed order. */
export function hookEntryLines(e: ImportedHookEntry): string[] {
  const lines = [
    `name = ${formatTomlString(e.name)}`,
    `event = ${formatTomlString(e.event)}`,
    `protocol = ${formatTomlString(e.protocol)}`,
    `command = ${formatTomlString(e.command)}`,
    `timeout_secs = ${e.timeout_secs}`,
  ];
  if (e.background) lines.push('background = true');
  if (e.condition) lines.push(`condition = ${formatConditionToml(e.condition)}`);
  return lines;
}

/**
 * One entry as a TOML block for `shape`, header included, lines joined with `nl`; `comment`
 * (one line, control characters removed) goes on a `# …` line above the header.
 */
export function renderHookEntryToml(e: ImportedHookEntry, shape: HooksFileShape, nl = '\n', comment: string | null = null): string {
  const lead = comment === null ? [] : [`# ${sanitizeLine(comment, 200).text}`];
  return [...lead, HEADER[shape], ...hookEntryLines(e)].join(nl) + nl;
}

/** An entry as TOML parses it, without `name` and with defaults spelled out: what "the same hook" means. */
function identity(entry: Record<string, unknown>): Record<string, unknown> {
  const { name: _name, ...rest } = entry;
  return { background: false, continue_on_error: true, protocol: 'codewhale', ...rest };
}

export interface AppendedHookEntries {
  readonly text: string;
  /** Indices (into the entries given) that were appended. */
  readonly added: readonly number[];
  /** Indices of entries the file already had (the same hook under any name), so not appended again. */
  readonly present: readonly number[];
}

/**
 * Append hook entries to the text of a config.toml (`[[hooks.hooks]]`) or a project
 * hooks.toml (`[[hooks]]`), touching nothing else (D10): every existing byte, comment and blank
 * line stays. An entry the file already holds — the same event, command, protocol, timeout,
 * background and condition, whatever its name — is not appended again (and one given twice is
 * appended once), so importing twice changes nothing. The result is re-parsed and checked to be
 * exactly the old document plus the new entries, or an error is returned instead of a damaged
 * file. `comments[i]`, when given, is written on a `# …` line above entry `i` (where it came
 * from). Pure: the caller reads and writes the file (atomically, under its lock).
 */
export function appendHookEntries(text: string, entries: readonly ImportedHookEntry[], shape: HooksFileShape, comments: readonly (string | null)[] = []): Result<AppendedHookEntries, ConfigEditError> {
  const file = FILE[shape];
  const before = parseToml(text, file);
  if (!before.ok) return fail({ code: 'config_unparseable', message: `${file} cannot be edited safely: ${before.issues[0]!.summary}` });
  const path = PATH[shape];

  let existing: unknown[] | null = null;
  if (shape === 'config') {
    const hooks = before.value['hooks'];
    if (hooks !== undefined && !isTable(hooks)) return fail({ code: 'unsupported_layout', message: '`hooks` in config.toml is not a `[hooks]` table; edit the file by hand' });
    const list = isTable(hooks) ? hooks['hooks'] : undefined;
    if (list !== undefined && !Array.isArray(list))
      return fail({ code: 'unsupported_layout', message: '`hooks.hooks` in config.toml is not a list of `[[hooks.hooks]]` entries; edit the file by hand' });
    existing = list ?? null;
  } else {
    const list = before.value['hooks'];
    if (list !== undefined && !Array.isArray(list)) return fail({ code: 'unsupported_layout', message: '`hooks` in hooks.toml is not a list of `[[hooks]]` entries; edit the file by hand' });
    existing = list ?? null;
  }
  const layout = scanTomlLayout(text);
  if (existing !== null && existing.length > 0) {
    const headers = layout.headers.filter((h) => h.kind === 'array' && h.path.length === path.length && h.path.every((p, i) => p === path[i])).length;
    if (headers !== existing.length) return fail({ code: 'unsupported_layout', message: `the hooks in ${file} are written as an inline array; edit the file by hand` });
  }

  const nl = layout.newline;
  const known = (existing ?? []).filter(isTable).map(identity);
  const added: number[] = [];
  const present: number[] = [];
  const blocks: string[] = [];
  const parsedNew: Record<string, unknown>[] = [];
  entries.forEach((e, i) => {
    const parsed = parseToml(renderHookEntryToml(e, shape, nl), file);
    const value = parsed.ok ? (shape === 'config' ? (parsed.value['hooks'] as { hooks: Record<string, unknown>[] }).hooks[0]! : (parsed.value['hooks'] as Record<string, unknown>[])[0]!) : null;
    if (value === null) return;
    const id = identity(value);
    if (known.some((k) => deepEqual(k, id))) {
      present.push(i);
      return;
    }
    known.push(id);
    added.push(i);
    blocks.push(renderHookEntryToml(e, shape, nl, comments[i] ?? null));
    parsedNew.push(value);
  });
  if (blocks.length === 0) return ok({ text, added, present });

  const separator = text === '' ? '' : text.endsWith(nl + nl) ? '' : text.endsWith('\n') ? nl : nl + nl;
  const out = `${text}${separator}${blocks.join(nl)}`;

  const after = parseToml(out, file);
  const list = [...(existing ?? []), ...parsedNew];
  const expected = shape === 'config' ? { ...before.value, hooks: { ...(isTable(before.value['hooks']) ? before.value['hooks'] : {}), hooks: list } } : { ...before.value, hooks: list };
  if (!after.ok || !deepEqual(after.value, expected)) {
    return fail({ code: 'verification_failed', message: `the hooks could not be appended without changing other settings; ${file} was left as it was` });
  }
  return ok({ text: out, added, present });
}
