import type { TomlTable } from './parse-toml.js';
import type { HookSource } from '@codewhale/hooks-payloads';
import { checkSeconds, describeValue, HOOKS_SETTING_KEYS, isTable, PROJECT_FILE_KEYS } from './schema.js';
import { didYouMean, named, projectFileProblem, settingProblem } from './problem.js';
import { suggest } from './suggest.js';
import type { TomlLayout } from './toml-layout.js';
import { tomlArrayEntryLines as entryLines, tomlKeyLine as settingLine } from './toml-key-line.js';
import type { RawHookEntry } from './check-hook-entry.js';
import type { ConfigProblem } from './types.js';

/**
 * The hooks part of one file, before entries are judged: the settings (for config.toml),
 * the raw entries with their header lines, and the file- and setting-level problems.
 */
export interface HooksSection {
  readonly source: HookSource;
  readonly file: string;
  /** A `[hooks]` table exists (config.toml), or the project file has entries. */
  readonly configured: boolean;
  readonly enabled: boolean;
  /** The override in force: positive, or `null` (unset or rejected). */
  readonly defaultTimeoutSecs: number | null;
  readonly workingDir: string | null;
  readonly entries: readonly RawHookEntry[];
  readonly problems: readonly ConfigProblem[];
}

const sameKey = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((s, i) => s === b[i]);

function firstHeaderLine(layout: TomlLayout, path: readonly string[]): number | null {
  return layout.headers.find((h) => sameKey(h.path, path))?.line ?? settingLine(layout, [], path[0]!);
}

const EMPTY = { configured: false, enabled: true, defaultTimeoutSecs: null, workingDir: null, entries: [] } as const;

/**
 * The `[hooks]` table of the user's config.toml: `enabled` (default `true`),
 * `default_timeout_secs`, `working_dir`, `[[hooks.hooks]]` entries. A bad setting is rejected
 * and ignored (its default applies); an unknown key is a warning; the project-file shape
 * (`[[hooks]]`) is rejected with the fix.
 */
export function readGlobalHooksSection(doc: TomlTable, layout: TomlLayout, file: string): HooksSection {
  const base = { source: 'global' as const, file };
  const hooks = doc['hooks'];
  if (hooks === undefined) return { ...base, ...EMPTY, problems: [] };
  const at = (key: string) => ({ file, line: settingLine(layout, ['hooks'], key) });
  if (Array.isArray(hooks)) {
    const problem = settingProblem(
      'rejected',
      'wrong_shape',
      `\`[[hooks]]\` is the shape of a project \`hooks.toml\`; in config.toml write each entry as \`[[hooks.hooks]]\` (${hooks.length} ${hooks.length === 1 ? 'entry was' : 'entries were'} not loaded)`,
      { file, line: firstHeaderLine(layout, ['hooks']) },
    );
    return { ...base, ...EMPTY, problems: [problem] };
  }
  if (!isTable(hooks)) {
    return {
      ...base,
      ...EMPTY,
      problems: [settingProblem('rejected', 'invalid_setting', `\`hooks\` must be the \`[hooks]\` table (got ${describeValue(hooks)})`, { file, line: settingLine(layout, [], 'hooks') })],
    };
  }

  const problems: ConfigProblem[] = [];
  let enabled = true;
  if (hooks['enabled'] !== undefined) {
    if (typeof hooks['enabled'] === 'boolean') enabled = hooks['enabled'];
    else
      problems.push(settingProblem('rejected', 'invalid_setting', `\`enabled\` must be \`true\` or \`false\` (got ${describeValue(hooks['enabled'])}); the default \`true\` applies`, at('enabled')));
  }

  let defaultTimeoutSecs: number | null = null;
  if (hooks['default_timeout_secs'] !== undefined) {
    const check = checkSeconds(hooks['default_timeout_secs']);
    if (check.kind === 'ok') defaultTimeoutSecs = check.secs;
    else if (check.kind === 'zero') {
      problems.push(
        settingProblem(
          'rejected',
          'zero_default_timeout',
          '`default_timeout_secs = 0` would expire every hook immediately; the override is ignored and per-hook `timeout_secs` applies',
          at('default_timeout_secs'),
        ),
      );
    } else {
      const got = check.kind === 'negative' ? 'a negative number' : describeValue(hooks['default_timeout_secs']);
      problems.push(
        settingProblem(
          'rejected',
          'invalid_setting',
          `\`default_timeout_secs\` must be a positive whole number of seconds (got ${got}); the override is ignored and per-hook \`timeout_secs\` applies`,
          at('default_timeout_secs'),
        ),
      );
    }
  }

  let workingDir: string | null = null;
  if (hooks['working_dir'] !== undefined) {
    const dir = hooks['working_dir'];
    if (typeof dir === 'string' && dir.trim() !== '') workingDir = dir;
    else
      problems.push(
        settingProblem(
          'rejected',
          'invalid_setting',
          `\`working_dir\` must be a non-empty string (got ${typeof dir === 'string' ? 'an empty string' : describeValue(dir)}); hooks run in the session workspace`,
          at('working_dir'),
        ),
      );
  }

  let raw: unknown[] = [];
  if (hooks['hooks'] !== undefined) {
    if (Array.isArray(hooks['hooks'])) raw = hooks['hooks'];
    else
      problems.push(
        settingProblem(
          'rejected',
          'invalid_setting',
          `\`hooks\` in \`[hooks]\` must be an array of hook tables, written \`[[hooks.hooks]]\` (got ${describeValue(hooks['hooks'])}); no hooks were loaded from it`,
          at('hooks'),
        ),
      );
  }

  for (const key of Object.keys(hooks)) {
    if (HOOKS_SETTING_KEYS.includes(key)) continue;
    const hint = didYouMean(suggest(key, HOOKS_SETTING_KEYS));
    problems.push(settingProblem('warning', 'unknown_setting', `${named('unknown key', key)} in \`[hooks]\` is ignored${hint}`, at(key)));
  }

  const lines = entryLines(layout, ['hooks', 'hooks'], raw.length);
  const entries = raw.map((r, position): RawHookEntry => ({ raw: r, position, line: lines[position] ?? null, source: 'global', file }));
  return { ...base, configured: true, enabled, defaultTimeoutSecs, workingDir, entries, problems };
}

/**
 * A project `hooks.toml`: top-level `enabled` / `default_timeout_secs` / `working_dir` are
 * parsed and ignored (the user's own config governs), `[[hooks]]` entries are kept. The
 * config.toml shape (`[hooks]`, `[[hooks.hooks]]`) skips the project hooks with the fix.
 */
export function readProjectHooksSection(doc: TomlTable, layout: TomlLayout, file: string): HooksSection {
  const base = { source: 'project' as const, file, enabled: true, defaultTimeoutSecs: null, workingDir: null };
  const problems: ConfigProblem[] = [];
  for (const key of Object.keys(doc)) {
    if (PROJECT_FILE_KEYS.includes(key)) continue;
    const hint = didYouMean(suggest(key, PROJECT_FILE_KEYS));
    problems.push(projectFileProblem('unknown_setting', `${named('unknown key', key)} is ignored${hint}`, { file, line: settingLine(layout, [], key) }));
  }
  const hooks = doc['hooks'];
  if (hooks === undefined) return { ...base, configured: false, entries: [], problems };
  if (!Array.isArray(hooks)) {
    const where = { file, line: firstHeaderLine(layout, isTable(hooks) && Array.isArray(hooks['hooks']) ? ['hooks', 'hooks'] : ['hooks']) };
    const detail = isTable(hooks)
      ? Array.isArray(hooks['hooks'])
        ? '`[[hooks.hooks]]` is the config.toml shape; in a project `hooks.toml` write each entry as `[[hooks]]`; project hooks were skipped'
        : '`[hooks]` is the config.toml shape; a project `hooks.toml` takes `[[hooks]]` entries at the top level; project hooks were skipped'
      : `\`hooks\` must be an array of hook tables, written \`[[hooks]]\` (got ${describeValue(hooks)}); project hooks were skipped`;
    problems.push(projectFileProblem('wrong_shape', detail, where));
    return { ...base, configured: false, entries: [], problems };
  }
  const lines = entryLines(layout, ['hooks'], hooks.length);
  const entries = hooks.map((r, position): RawHookEntry => ({ raw: r, position, line: lines[position] ?? null, source: 'project', file }));
  return { ...base, configured: entries.length > 0, entries, problems };
}
