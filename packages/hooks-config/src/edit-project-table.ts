import type { TomlTable } from './parse-toml.js';
import { deepEqual } from './deep-equal.js';
import { parseToml } from './parse-toml.js';
import { OWNED_PROJECT_KEYS } from './project-record.js';
import { fail, ok, type Result } from './result.js';
import { isTable } from './schema.js';
import { formatTomlKey, formatTomlValue, type TomlEditValue } from './toml-format.js';
import { scanTomlLayout, type TomlEntry } from './toml-layout.js';

export type ConfigEditErrorCode = 'config_unparseable' | 'unsupported_layout' | 'not_owned' | 'verification_failed' | 'invalid_rule';

export interface ConfigEditError {
  readonly code: ConfigEditErrorCode;
  readonly message: string;
}

/** Keys to set (to these values) and keys to remove, all from {@link OWNED_PROJECT_KEYS}. */
export interface ProjectTableChange {
  readonly set?: Readonly<Record<string, TomlEditValue>>;
  readonly remove?: readonly string[];
}

interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const sameKey = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((s, i) => s === b[i]);
const editError = (code: ConfigEditErrorCode, message: string) => fail<ConfigEditError>({ code, message });

/**
 * Set or remove keys of `[projects."<workspace>"]` in the user's config.toml text, touching
 * nothing else (D10): every other byte, comment and blank line is kept. The table is found
 * under any header spelling (`[projects."/a/b"]`, `[projects.'/a/b']`, escapes, spaces); an
 * existing single-line key keeps its position and trailing comment and only its value
 * changes; a new key goes after the table's last key; a missing table is appended at the end.
 * The result is re-parsed and checked — the intended values are there and nothing else
 * changed — or an error is returned instead of a damaged file. Only the keys this package
 * owns can be edited. Applying the same change twice gives the same text.
 */
export function editProjectTable(text: string, workspace: string, change: ProjectTableChange): Result<string, ConfigEditError> {
  const set = change.set ?? {};
  const setKeys = OWNED_PROJECT_KEYS.filter((k) => Object.hasOwn(set, k));
  const removeKeys = (change.remove ?? []).filter((k) => !Object.hasOwn(set, k));
  const foreign = [...Object.keys(set), ...removeKeys].filter((k) => !OWNED_PROJECT_KEYS.includes(k));
  if (foreign.length) return editError('not_owned', `only ${OWNED_PROJECT_KEYS.map((k) => `\`${k}\``).join(', ')} can be edited`);

  const before = parseToml(text, 'config.toml');
  if (!before.ok) return editError('config_unparseable', `config.toml cannot be edited safely: ${before.issues[0]!.summary}`);
  const layout = scanTomlLayout(text);
  const nl = layout.newline;
  const lineFor = (key: string): string => `${key} = ${formatTomlValue(set[key]!)}`;
  const header = layout.headers.findIndex((h) => h.kind === 'table' && sameKey(h.path, ['projects', workspace]));
  let out: string;

  if (header === -1) {
    const projects = before.value['projects'];
    if (isTable(projects) && Object.hasOwn(projects, workspace)) {
      return editError('unsupported_layout', 'this workspace\u2019s `[projects]` entry is not written as its own `[projects."<path>"]` table; edit config.toml by hand');
    }
    if (setKeys.length === 0) return ok(text);
    const separator = text === '' ? '' : !text.endsWith('\n') ? nl + nl : text.endsWith(nl + nl) || text.trim() === '' ? '' : nl;
    out = `${text}${separator}[projects.${formatTomlKey(workspace)}]${nl}${setKeys.map(lineFor).join(nl)}${nl}`;
  } else {
    const inTable = layout.entries.filter((e) => e.table === header);
    const splices: Splice[] = [];
    const removed = new Set<TomlEntry>();
    const inserts: string[] = [];
    for (const key of [...setKeys, ...removeKeys]) {
      const matches = inTable.filter((e) => e.key[0] === key);
      if (Object.hasOwn(set, key) && matches.length === 1 && matches[0]!.key.length === 1) {
        const m = matches[0]!;
        splices.push({ start: m.valueStart, end: m.valueEnd, text: formatTomlValue(set[key]!) });
        continue;
      }
      for (const m of matches) {
        removed.add(m);
        splices.push({ start: m.start, end: m.end, text: '' });
      }
      if (Object.hasOwn(set, key)) inserts.push(lineFor(key));
    }
    if (inserts.length) {
      const kept = inTable.filter((e) => !removed.has(e));
      const at = kept.length ? Math.max(...kept.map((e) => e.end)) : layout.headers[header]!.end;
      const lead = at === text.length && !text.endsWith('\n') ? nl : '';
      splices.push({ start: at, end: at, text: `${lead}${inserts.join(nl)}${nl}` });
    }
    // Right to left, so earlier offsets stay valid; at one offset, a removal goes before an insertion.
    splices.sort((a, b) => b.start - a.start || b.end - a.end);
    out = text;
    for (const s of splices) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  }

  const after = parseToml(out, 'config.toml');
  if (!after.ok || !verify(before.value, after.value, workspace, set, removeKeys)) {
    return editError('verification_failed', 'the edit could not be applied without changing other settings; config.toml was left as it was');
  }
  return ok(out);
}

function projectTable(doc: TomlTable, workspace: string): Record<string, unknown> | undefined {
  const projects = doc['projects'];
  return isTable(projects) && isTable(projects[workspace]) ? projects[workspace] : undefined;
}

/** `doc` without the owned keys of `workspace`'s table (and without that table or `projects` once empty). */
function restOf(doc: TomlTable, workspace: string): Record<string, unknown> {
  const projects = doc['projects'];
  if (!isTable(projects) || !isTable(projects[workspace])) return doc;
  const table = Object.fromEntries(Object.entries(projects[workspace]).filter(([k]) => !OWNED_PROJECT_KEYS.includes(k)));
  const others = Object.fromEntries(Object.entries(projects).filter(([k]) => k !== workspace));
  const nextProjects = Object.keys(table).length ? { ...others, [workspace]: table } : others;
  const rest = Object.fromEntries(Object.entries(doc).filter(([k]) => k !== 'projects'));
  return Object.keys(nextProjects).length ? { ...rest, projects: nextProjects } : rest;
}

function verify(before: TomlTable, after: TomlTable, workspace: string, set: Readonly<Record<string, TomlEditValue>>, removed: readonly string[]): boolean {
  const table = projectTable(after, workspace) ?? {};
  for (const [key, value] of Object.entries(set)) if (!deepEqual(table[key], value)) return false;
  for (const key of removed) if (Object.hasOwn(table, key)) return false;
  return deepEqual(restOf(before, workspace), restOf(after, workspace));
}
