import { describeValue, isTable, scanTomlLayout, suggest, tomlKeyLine, type Result, type TomlLayout } from '@codewhale/hooks-config';
import { SecretText } from './secret-text.js';
import { DEFAULT_RETRY, DEFAULT_TUI, REASONING_EFFORTS, type ProviderSettings, type ReasoningEffort, type RetrySettings, type Settings, type TuiSettings } from './settings.js';
import type { SettingsIssue, SettingsIssueCode } from './settings-issue.js';
import { FOREIGN_ROOT_KEYS, PROVIDER_KEYS, RETRY_KEYS, SETTINGS_ROOT_KEYS, TUI_KEYS, fieldDoc, settingsSchema } from './settings-schema.js';

/** Inputs of {@link readSettings}: the caller reads and parses config.toml once and passes both. */
export interface ReadSettingsInput {
  /** The parsed document (e.g. `parseUserConfig(text).value.document`); `undefined` for no file. */
  readonly document: unknown;
  /** The file's text, used only to find the line of each problem. */
  readonly text: string;
  /** The file, as problems should name it. */
  readonly file: string;
}

/**
 * Validate the route, `[providers.*]`, `[retry]` and `[tui]` settings of config.toml through
 * one schema. Every problem is collected — a wrong type, a value out of range, an unknown key
 * in an owned table (with "did you mean"), a near miss of an owned root key — each with
 * file, line and a fix; nothing bad is silently dropped: any issue fails the whole result.
 * Root keys other parts own (`hooks`, `projects`, …) and other unknown root keys that are not
 * a near miss are left alone. Pure: no I/O.
 */
export function readSettings(input: ReadSettingsInput): Result<Settings, SettingsIssue> {
  const { file } = input;
  const raw: unknown = input.document ?? {};
  let layout: TomlLayout | null = null;
  const lineOf = (path: readonly (string | number)[]): number | null => {
    layout ??= scanTomlLayout(input.text);
    return tomlKeyLine(layout, path.slice(0, -1).map(String), String(path[path.length - 1]));
  };
  const issues: SettingsIssue[] = [];
  const add = (code: SettingsIssueCode, path: readonly (string | number)[], message: string, fix: string): void => {
    const line = path.length === 0 ? null : lineOf(path);
    const where = line === null ? file : `${file}:${line}`;
    issues.push({ code, file, line, column: null, path: path.join('.'), message, fix, summary: `${where}: ${message} \u2014 ${fix}` });
  };

  if (!isTable(raw)) {
    add('invalid_type', [], `config.toml must be a table of settings (got ${describeValue(raw)})`, 'check that the file is a TOML document');
    return { ok: false, issues };
  }
  const doc = raw;

  const parsed = settingsSchema.safeParse(doc);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) unknownKey([...path, key], add);
        continue;
      }
      const doc_ = fieldDoc(path);
      const name = `\`${path.join('.')}\``;
      const value = at(doc, path);
      const wrongType = issue.code === 'invalid_type' || issue.code === 'invalid_union';
      const got = wrongType || typeof value === 'string' ? describeValue(value) : String(value);
      const hint = hintFor(path, value);
      add(wrongType && !(typeof value === 'bigint') ? 'invalid_type' : 'invalid_value', path, `${name} must be ${doc_?.expected ?? 'valid'} (got ${got})${hint}`, doc_?.fix ?? 'fix or remove it');
    }
  }

  // A near miss of an owned root key (`default_text_modle`) is a typo; other unknown root keys belong to someone else.
  for (const key of Object.keys(doc)) {
    if (SETTINGS_ROOT_KEYS.includes(key) || FOREIGN_ROOT_KEYS.includes(key)) continue;
    const near = suggest(key, SETTINGS_ROOT_KEYS);
    if (near !== null) add('unknown_key', [key], `unknown key ${token(key)}; did you mean \`${near}\`?`, `rename it to \`${near}\`, or remove it`);
  }

  const retry = doc['retry'];
  if (isTable(retry) && parsed.success) {
    const initial = num(retry['initial_delay_ms']) ?? DEFAULT_RETRY.initialDelayMs;
    const cap = num(retry['max_delay_ms']);
    if (cap !== null && cap < initial) {
      add('invalid_value', ['retry', 'max_delay_ms'], `\`retry.max_delay_ms\` (${cap}) is below \`initial_delay_ms\` (${initial})`, 'raise `max_delay_ms` or lower `initial_delay_ms`');
    }
  }
  const base = parsed.success ? doc : {};
  for (const [path, value] of urlFields(base)) {
    if (!isHttpUrl(value)) add('invalid_value', path, `\`${path.join('.')}\` is not an http(s) URL`, fieldDoc(path)?.fix ?? 'write an https:// URL');
  }

  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: build(doc, file) };
}

function build(doc: Record<string, unknown>, file: string): Settings {
  const providers: Record<string, ProviderSettings> = {};
  const rawProviders = isTable(doc['providers']) ? doc['providers'] : {};
  for (const [id, t] of Object.entries(rawProviders)) {
    const table = t as Record<string, unknown>;
    const wire = str(table['wire']) ?? str(table['kind']);
    providers[id] = Object.freeze({
      apiKey: secret(table['api_key']),
      apiKeyEnv: str(table['api_key_env']),
      baseUrl: str(table['base_url']),
      model: str(table['model']),
      wire: wire === null ? null : wire.toLowerCase(),
    });
  }
  const r = isTable(doc['retry']) ? doc['retry'] : {};
  const retry: RetrySettings = Object.freeze({
    enabled: typeof r['enabled'] === 'boolean' ? r['enabled'] : DEFAULT_RETRY.enabled,
    maxRetries: num(r['max_retries']) ?? DEFAULT_RETRY.maxRetries,
    initialDelayMs: num(r['initial_delay_ms']) ?? DEFAULT_RETRY.initialDelayMs,
    maxDelayMs: num(r['max_delay_ms']) ?? Math.max(DEFAULT_RETRY.maxDelayMs, num(r['initial_delay_ms']) ?? 0),
  });
  const u = isTable(doc['tui']) ? doc['tui'] : {};
  const tui: TuiSettings = Object.freeze({
    streamChunkTimeoutSecs: num(u['stream_chunk_timeout_secs']),
    alternateScreen: typeof u['alternate_screen'] === 'boolean' ? u['alternate_screen'] : DEFAULT_TUI.alternateScreen,
    showReasoning: typeof u['show_reasoning'] === 'boolean' ? u['show_reasoning'] : DEFAULT_TUI.showReasoning,
    toastMs: num(u['toast_ms']) ?? DEFAULT_TUI.toastMs,
  });
  const effort = str(doc['reasoning_effort']);
  return Object.freeze({
    file,
    provider: str(doc['provider']),
    apiKey: secret(doc['api_key']),
    baseUrl: str(doc['base_url']),
    defaultTextModel: str(doc['default_text_model']),
    reasoningEffort: effort === null ? null : (effort.toLowerCase() as ReasoningEffort),
    providers: Object.freeze(providers),
    retry,
    tui,
  });
}

type Add = (code: SettingsIssueCode, path: readonly (string | number)[], message: string, fix: string) => void;

function unknownKey(path: readonly (string | number)[], add: Add): void {
  const key = String(path[path.length - 1]);
  const table = path.slice(0, -1).map(String);
  const known = table[0] === 'providers' ? PROVIDER_KEYS : table[0] === 'retry' ? RETRY_KEYS : TUI_KEYS;
  const near = suggest(key, known);
  const where = `\`[${table.join('.')}]\``;
  const list = known.map((k) => `\`${k}\``).join(', ');
  add('unknown_key', path, `unknown key ${token(key)} in ${where}${near ? `; did you mean \`${near}\`?` : ''}`, near ? `rename it to \`${near}\`, or remove it` : `remove it; ${where} takes ${list}`);
}

function hintFor(path: readonly (string | number)[], value: unknown): string {
  if (path.join('.') !== 'reasoning_effort' || typeof value !== 'string') return '';
  const near = suggest(value.trim().toLowerCase(), REASONING_EFFORTS);
  return near ? `; did you mean \`${near}\`?` : '';
}

function* urlFields(doc: Record<string, unknown>): Generator<[string[], string]> {
  const root = str(doc['base_url']);
  if (root !== null) yield [['base_url'], root];
  if (!isTable(doc['providers'])) return;
  for (const [id, t] of Object.entries(doc['providers'])) {
    const u = isTable(t) ? str(t['base_url']) : null;
    if (u !== null) yield [['providers', id, 'base_url'], u];
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

function at(doc: unknown, path: readonly (string | number)[]): unknown {
  let v: unknown = doc;
  for (const p of path) v = isTable(v) ? v[String(p)] : undefined;
  return v;
}

/** A trimmed string, `null` when absent or blank. */
function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

function secret(v: unknown): SecretText | null {
  const s = str(v);
  return s === null ? null : new SecretText(s);
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** `` `key` `` when it is a short plain identifier, else `a key` (a key is never echoed raw). */
function token(key: string): string {
  return /^[A-Za-z0-9_.-]{1,48}$/.test(key) ? `\`${key}\`` : 'a key';
}
