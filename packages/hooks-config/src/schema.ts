/**
 * The raw shapes, as plain data. They say which keys exist and what type each holds; the rule
 * functions turn any mismatch into a problem line with a reason and a suggestion. They are data,
 * not a validation library's schemas, so that importing this package loads nothing but itself
 * (the JSON Schemas for editors are built from these shapes at build time, see
 * `hook-config-json-schema.ts`).
 */

/**
 * What a key holds before its value rules run. `integer` is a finite number or a `bigint` (TOML
 * integers that do not fit a double arrive as `bigint`; whole-ness is a value rule); `array` is
 * any array; `any` is anything.
 */
export type FieldType = 'string' | 'integer' | 'boolean' | 'array' | 'any';

/** One key of a shape. */
export interface Field {
  readonly type: FieldType;
  readonly required: boolean;
}

/** A table's keys, in documented order. A table with any other key is rejected (D8). */
export type Shape = Readonly<Record<string, Field>>;

const required = (type: FieldType): Field => ({ type, required: true });
const optional = (type: FieldType): Field => ({ type, required: false });

/** One `[[hooks.hooks]]` / `[[hooks]]` entry. */
export const HOOK_ENTRY_SHAPE = {
  event: required('string'),
  command: required('string'),
  name: optional('string'),
  timeout_secs: optional('integer'),
  background: optional('boolean'),
  continue_on_error: optional('boolean'),
  condition: optional('any'),
  protocol: optional('string'),
} as const satisfies Shape;

/** The keys an entry accepts, in documented order. */
export const HOOK_ENTRY_KEYS = Object.keys(HOOK_ENTRY_SHAPE) as readonly (keyof typeof HOOK_ENTRY_SHAPE)[];

/** The keys the `[hooks]` table of config.toml accepts (others are warnings). */
export const HOOKS_SETTING_KEYS: readonly string[] = ['enabled', 'default_timeout_secs', 'working_dir', 'hooks'];

/** The top level of a project `hooks.toml`: the `[hooks]` shape, of which only `hooks` is used. */
export const PROJECT_FILE_KEYS: readonly string[] = ['enabled', 'default_timeout_secs', 'working_dir', 'hooks'];

/** Each condition type's own fields (besides `type`, which selects the shape), by type. */
export const CONDITION_SHAPES = {
  always: {},
  tool_name: { name: required('string') },
  tool_category: { category: required('string') },
  mode: { mode: required('string') },
  exit_code: { code: required('integer') },
  all: { conditions: required('array') },
  any: { conditions: required('array') },
} as const satisfies Readonly<Record<string, Shape>>;

/** Whether `value` is of `type` (see `FieldType`). */
export function hasFieldType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value));
    case 'array':
      return Array.isArray(value);
    case 'any':
      return true;
  }
}

/** How a table differs from a shape. */
export interface ShapeCheck {
  /** Keys of the shape that are missing (when required) or hold the wrong type, in shape order. */
  readonly invalid: readonly string[];
  /** Keys the shape does not have, in the table's order. */
  readonly unknown: readonly string[];
}

/**
 * Compare a table with a shape. `ignore` names keys checked elsewhere (a condition's `type`).
 * A key holding `undefined` counts as absent, as TOML never produces one.
 */
export function checkShape(table: Readonly<Record<string, unknown>>, shape: Shape, ignore: readonly string[] = []): ShapeCheck {
  const invalid: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const value = table[key];
    if (value === undefined ? field.required : !hasFieldType(value, field.type)) invalid.push(key);
  }
  const unknown = Object.keys(table).filter((key) => !Object.hasOwn(shape, key) && !ignore.includes(key));
  return { invalid, unknown };
}

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
