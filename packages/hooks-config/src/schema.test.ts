import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import * as z from 'zod';
import { CONDITION_TYPES } from '@codewhale/hooks-conditions';
import { checkShape, CONDITION_SHAPES, HOOK_ENTRY_KEYS, HOOK_ENTRY_SHAPE, type Shape } from './schema.js';
import { PERMISSION_RULE_KEYS, PERMISSION_RULE_SHAPE } from './parse-permission-rules.js';

/**
 * The shapes replaced zod schemas on the load path. These zod schemas are the ones the loader
 * used before, written out by hand, and serve as an independent oracle: for any table, the
 * keys `checkShape` finds wrong are exactly the keys zod reports.
 */
const integer = () => z.union([z.number(), z.bigint()]);
const zodEntry = z.strictObject({
  event: z.string(),
  command: z.string(),
  name: z.string().optional(),
  timeout_secs: integer().optional(),
  background: z.boolean().optional(),
  continue_on_error: z.boolean().optional(),
  condition: z.unknown().optional(),
  protocol: z.string().optional(),
});
const zodRule = z.strictObject({
  tool: z.string(),
  command: z.string().optional(),
  path: z.string().optional(),
  workspace: z.string().optional(),
  action: z.string(),
});
const zodConditions: Record<string, z.ZodObject> = {
  always: z.strictObject({ type: z.literal('always') }),
  tool_name: z.strictObject({ type: z.literal('tool_name'), name: z.string() }),
  tool_category: z.strictObject({ type: z.literal('tool_category'), category: z.string() }),
  mode: z.strictObject({ type: z.literal('mode'), mode: z.string() }),
  exit_code: z.strictObject({ type: z.literal('exit_code'), code: integer() }),
  all: z.strictObject({ type: z.literal('all'), conditions: z.array(z.unknown()) }),
  any: z.strictObject({ type: z.literal('any'), conditions: z.array(z.unknown()) }),
};

function zodFindings(schema: z.ZodObject, table: Record<string, unknown>): { invalid: string[]; unknown: string[] } {
  const parsed = schema.safeParse(table);
  const invalid: string[] = [];
  const unknown: string[] = [];
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') unknown.push(...issue.keys);
      else invalid.push(String(issue.path[0]));
    }
  return { invalid, unknown };
}

/** Shrinking these dictionaries can take minutes, so a failure is reported as found (`endOnFailure`). */
/** Values of every kind TOML produces, and a few it does not (non-finite numbers). */
const tomlValue = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.double(),
  fc.bigInt(),
  fc.boolean(),
  fc.date({ noInvalidDate: true }),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.constant(Object.create(null) as object),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);

/** A table that mixes the shape's keys (present or absent) with near and foreign keys. */
function tables(shape: Shape, extra: Record<string, unknown> = {}) {
  const keys = [...Object.keys(shape), 'Event', 'commnd', 'x', 'timeout', 'constructor'];
  return fc.dictionary(fc.constantFrom(...keys), tomlValue, { maxKeys: keys.length }).map((t) => ({ ...t, ...extra }));
}

describe('checkShape agrees with the zod schemas it replaced', () => {
  it('hook entries', () => {
    fc.assert(
      fc.property(tables(HOOK_ENTRY_SHAPE), (table) => {
        expect(checkShape(table, HOOK_ENTRY_SHAPE)).toEqual(zodFindings(zodEntry, table));
      }),
      { numRuns: 2000, endOnFailure: true },
    );
  });
  it('permission rules', () => {
    fc.assert(
      fc.property(tables(PERMISSION_RULE_SHAPE), (table) => {
        expect(checkShape(table, PERMISSION_RULE_SHAPE)).toEqual(zodFindings(zodRule, table));
      }),
      { numRuns: 2000, endOnFailure: true },
    );
  });
  it('every condition type, its `type` checked elsewhere', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CONDITION_TYPES), fc.gen(), (type, gen) => {
        const shape: Shape = CONDITION_SHAPES[type];
        const table = gen(() => tables(shape, { type }));
        expect(checkShape(table, shape, ['type'])).toEqual(zodFindings(zodConditions[type]!, table));
      }),
      { numRuns: 2000, endOnFailure: true },
    );
  });
  it('a null-prototype table (as smol-toml builds them) is read like any other', () => {
    const table = Object.assign(Object.create(null) as Record<string, unknown>, { event: 1, command: 'x', bogus: true });
    expect(checkShape(table, HOOK_ENTRY_SHAPE)).toEqual({ invalid: ['event'], unknown: ['bogus'] });
  });
});

describe('the shapes', () => {
  it('list the documented keys in documented order', () => {
    expect([...HOOK_ENTRY_KEYS]).toEqual(['event', 'command', 'name', 'timeout_secs', 'background', 'continue_on_error', 'condition', 'protocol']);
    expect([...PERMISSION_RULE_KEYS]).toEqual(['tool', 'command', 'path', 'workspace', 'action']);
  });
  it('have one condition shape per condition type', () => {
    expect(Object.keys(CONDITION_SHAPES).sort()).toEqual([...CONDITION_TYPES].sort());
  });
});
