import * as z from 'zod';

/**
 * The raw shapes, as zod schemas. They say which keys exist and what type each holds; the
 * rule functions turn any mismatch into a problem line with a reason and a suggestion.
 * Integers arrive as `number`, or `bigint` when they do not fit a double.
 */
const integer = () => z.union([z.number(), z.bigint()]);

/**
 * A schema built on its first use and kept. Building zod schemas costs milliseconds at start-up,
 * which every command would pay even when it reads no configuration (`hooks list` with no hooks,
 * `--help`); so the schemas of this package are functions, not constants.
 */
export function builtOnce<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/** One `[[hooks.hooks]]` / `[[hooks]]` entry. Unknown keys are rejected (D8). */
export const hookEntrySchema = builtOnce(() =>
  z.strictObject({
    event: z.string(),
    command: z.string(),
    name: z.string().optional(),
    timeout_secs: integer().optional(),
    background: z.boolean().optional(),
    continue_on_error: z.boolean().optional(),
    condition: z.unknown().optional(),
    protocol: z.string().optional(),
  }),
);

/** The keys an entry accepts, in documented order (the keys of `hookEntrySchema()`; a test holds them equal). */
export const HOOK_ENTRY_KEYS = ['event', 'command', 'name', 'timeout_secs', 'background', 'continue_on_error', 'condition', 'protocol'] as const;

/** The keys the `[hooks]` table of config.toml accepts (others are warnings). */
export const HOOKS_SETTING_KEYS: readonly string[] = ['enabled', 'default_timeout_secs', 'working_dir', 'hooks'];

/** The top level of a project `hooks.toml`: the `[hooks]` shape, of which only `hooks` is used. */
export const PROJECT_FILE_KEYS: readonly string[] = ['enabled', 'default_timeout_secs', 'working_dir', 'hooks'];

/** Each condition type's own fields (besides `type`), as strict schemas, by type. */
export const conditionSchemas = builtOnce(() => ({
  always: z.strictObject({ type: z.literal('always') }),
  tool_name: z.strictObject({ type: z.literal('tool_name'), name: z.string() }),
  tool_category: z.strictObject({ type: z.literal('tool_category'), category: z.string() }),
  mode: z.strictObject({ type: z.literal('mode'), mode: z.string() }),
  exit_code: z.strictObject({ type: z.literal('exit_code'), code: integer() }),
  all: z.strictObject({ type: z.literal('all'), conditions: z.array(z.unknown()) }),
  any: z.strictObject({ type: z.literal('any'), conditions: z.array(z.unknown()) }),
}));

/** A TOML table as smol-toml returns it (null-prototype objects are tables too). */
export function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** "a string", "an integer", … — what the user wrote, for a problem line (never the value itself). */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'bigint') return 'an integer';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'a non-finite number';
    return Number.isInteger(value) ? 'an integer' : 'a fractional number';
  }
  if (value instanceof Date) return 'a date';
  if (Array.isArray(value)) return 'an array';
  if (isTable(value)) return 'a table';
  return 'an unsupported value';
}

/** A whole, positive number of seconds, or why not. */
export type SecondsCheck =
  | { readonly kind: 'ok'; readonly secs: number }
  | { readonly kind: 'zero' }
  | { readonly kind: 'negative' }
  | { readonly kind: 'fractional' }
  | { readonly kind: 'wrong_type' };

/** Classify a `timeout_secs` / `default_timeout_secs` value. Huge integers are kept (clamped later). */
export function checkSeconds(value: unknown): SecondsCheck {
  if (typeof value === 'bigint') return value < 0n ? { kind: 'negative' } : value === 0n ? { kind: 'zero' } : { kind: 'ok', secs: Number(value) };
  if (typeof value !== 'number') return { kind: 'wrong_type' };
  if (!Number.isFinite(value)) return value === Number.NEGATIVE_INFINITY ? { kind: 'negative' } : { kind: 'wrong_type' };
  if (value < 0) return { kind: 'negative' };
  if (!Number.isInteger(value)) return { kind: 'fractional' };
  return value === 0 ? { kind: 'zero' } : { kind: 'ok', secs: value };
}
