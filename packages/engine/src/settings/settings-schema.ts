import * as z from 'zod';
import { CHAT_WIRES, MAX_RETRIES_LIMIT, MAX_TIMER_MS, MAX_TIMER_SECS, REASONING_EFFORTS } from './settings.js';

/**
 * The one schema of the settings `config.toml` holds for the engine and the surfaces. Each
 * leaf has a {@link FieldDoc} that states what it takes and how to fix it; `readSettings`
 * turns every zod issue into a line-numbered {@link SettingsIssue} from those docs.
 * TOML integers arrive as `number`, or `bigint` when they do not fit a double.
 */

/** An integer in [min, max]; a `bigint` is always out of range. */
const wholeNumber = (min: number, max: number) => z.union([z.number(), z.bigint()]).pipe(z.number().int().min(min).max(max));
const text = z.string();
const oneOf = (values: readonly string[]) => z.string().refine((v) => values.includes(v.trim().toLowerCase()));
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const providerTableSchema = z.strictObject({
  api_key: text.optional(),
  api_key_env: text.refine((v) => v.trim() === '' || ENV_NAME.test(v.trim())).optional(),
  base_url: text.optional(),
  model: text.optional(),
  wire: oneOf(CHAT_WIRES).optional(),
  kind: oneOf(CHAT_WIRES).optional(),
});

export const retryTableSchema = z.strictObject({
  enabled: z.boolean().optional(),
  max_retries: wholeNumber(0, MAX_RETRIES_LIMIT).optional(),
  initial_delay_ms: wholeNumber(0, MAX_TIMER_MS).optional(),
  max_delay_ms: wholeNumber(0, MAX_TIMER_MS).optional(),
});

export const tuiTableSchema = z.strictObject({
  stream_chunk_timeout_secs: z.number().gt(0).max(MAX_TIMER_SECS).optional(),
  alternate_screen: z.boolean().optional(),
  show_reasoning: z.boolean().optional(),
  toast_ms: wholeNumber(500, 60_000).optional(),
});

/** The root: the route keys and the three owned tables. Other root keys pass through untouched. */
export const settingsSchema = z.looseObject({
  provider: text.optional(),
  api_key: text.optional(),
  base_url: text.optional(),
  default_text_model: text.optional(),
  reasoning_effort: oneOf(REASONING_EFFORTS).optional(),
  providers: z.record(z.string(), providerTableSchema).optional(),
  retry: retryTableSchema.optional(),
  tui: tuiTableSchema.optional(),
});

/** The root keys the settings own, in documented order. */
export const SETTINGS_ROOT_KEYS: readonly string[] = Object.keys(settingsSchema.shape);
export const PROVIDER_KEYS: readonly string[] = Object.keys(providerTableSchema.shape);
export const RETRY_KEYS: readonly string[] = Object.keys(retryTableSchema.shape);
export const TUI_KEYS: readonly string[] = Object.keys(tuiTableSchema.shape);

/**
 * Root keys other parts of Codewhale own. They are never reported, even when one is close to
 * a settings key (`model` is not a typo of `mode`).
 */
export const FOREIGN_ROOT_KEYS: readonly string[] = [
  'hooks',
  'projects',
  'workspace',
  'runtime_api',
  'features',
  'profiles',
  'subagents',
  'max_subagents',
  'allow_shell',
  'approval_policy',
  'sandbox_mode',
  'model',
  'notes_path',
  'mcp',
  'skills',
  'locale',
];

/** What a leaf takes and how to fix it. `*` stands for a provider id. */
export interface FieldDoc {
  readonly expected: string;
  readonly fix: string;
}

const providerWord = 'a string naming a provider (`deepseek`, `openai`, `ollama`, `vllm`, or a `[providers.<id>]` table)';

export const FIELD_DOCS: Readonly<Record<string, FieldDoc>> = {
  provider: { expected: providerWord, fix: 'write e.g. `provider = "deepseek"`' },
  api_key: { expected: 'a string', fix: 'prefer removing it and exporting `DEEPSEEK_API_KEY`' },
  base_url: { expected: 'a string holding an https:// URL', fix: 'write e.g. `base_url = "https://api.deepseek.com"`' },
  default_text_model: { expected: 'a string naming a model', fix: 'write e.g. `default_text_model = "deepseek-v4-pro"`' },
  reasoning_effort: { expected: `one of ${REASONING_EFFORTS.map((e) => `\`${e}\``).join(', ')}`, fix: 'write e.g. `reasoning_effort = "auto"`' },
  providers: { expected: 'tables, one `[providers.<id>]` per provider', fix: 'write each provider as a `[providers.<id>]` table' },
  'providers.*': { expected: 'a table', fix: 'write it as a `[providers.<id>]` table with `base_url`, `model`, `api_key_env`' },
  'providers.*.api_key': { expected: 'a string', fix: 'prefer `api_key_env` naming an environment variable that holds the key' },
  'providers.*.api_key_env': {
    expected: 'the name of an environment variable (letters, digits, `_`)',
    fix: 'write the variable\u2019s name, e.g. `api_key_env = "MYCORP_API_KEY"`, not the key itself',
  },
  'providers.*.base_url': { expected: 'a string holding an https:// URL', fix: 'write e.g. `base_url = "https://llm.example.com/v1"`' },
  'providers.*.model': { expected: 'a string naming a model', fix: 'write e.g. `model = "gpt-5-mini"`' },
  'providers.*.wire': { expected: 'an OpenAI-compatible Chat Completions wire (`chat`)', fix: 'write `wire = "chat"` (this version speaks only Chat Completions), or remove it' },
  'providers.*.kind': { expected: 'an OpenAI-compatible Chat Completions wire (`chat`)', fix: 'write `kind = "chat"` (this version speaks only Chat Completions), or remove it' },
  retry: { expected: 'a table', fix: 'write it as a `[retry]` table' },
  'retry.enabled': { expected: '`true` or `false`', fix: 'write `enabled = true` or `enabled = false`' },
  'retry.max_retries': { expected: `a whole number from 0 to ${MAX_RETRIES_LIMIT}`, fix: `set \`max_retries\` to a whole number from 0 to ${MAX_RETRIES_LIMIT} (default 3)` },
  'retry.initial_delay_ms': { expected: `a whole number of milliseconds from 0 to ${MAX_TIMER_MS}`, fix: 'set `initial_delay_ms` to e.g. 500 (the default)' },
  'retry.max_delay_ms': { expected: `a whole number of milliseconds from 0 to ${MAX_TIMER_MS}`, fix: 'set `max_delay_ms` to e.g. 8000 (the default)' },
  tui: { expected: 'a table', fix: 'write it as a `[tui]` table' },
  'tui.stream_chunk_timeout_secs': {
    expected: `a number of seconds greater than 0 and at most ${MAX_TIMER_SECS}`,
    fix: 'set `stream_chunk_timeout_secs` to e.g. 900 (the default), without quotes',
  },
  'tui.alternate_screen': { expected: '`true` or `false`', fix: 'write `alternate_screen = true` or `alternate_screen = false`' },
  'tui.show_reasoning': { expected: '`true` or `false`', fix: 'write `show_reasoning = true` or `show_reasoning = false`' },
  'tui.toast_ms': { expected: 'a whole number of milliseconds from 500 to 60000', fix: 'set `toast_ms` to e.g. 6000 (the default)' },
};

/** The doc of a path (`['providers', 'corp', 'model']` → `providers.*.model`). */
export function fieldDoc(path: readonly (string | number)[]): FieldDoc | null {
  const key = path.map((p, i) => (path[0] === 'providers' && i === 1 ? '*' : String(p))).join('.');
  return FIELD_DOCS[key] ?? null;
}
