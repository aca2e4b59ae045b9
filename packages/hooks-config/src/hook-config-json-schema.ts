import * as z from 'zod';
import { HOOK_EVENT_NAMES, HOOK_PROTOCOLS } from '@codewhale/hooks-payloads';
import { TOOL_CATEGORIES } from '@codewhale/hooks-conditions';
import { MODE_SPELLINGS } from './parse-condition.js';
import { CONDITION_SHAPES, HOOK_ENTRY_SHAPE, type FieldType, type Shape } from './schema.js';

/**
 * JSON Schemas for editors (taplo / Even Better TOML): the user `config.toml` (its `[hooks]`
 * table) and a project `.codewhale/hooks.toml`. They are derived from the loader's own shapes
 * (`schema.ts`) — the same keys, strict where the loader is strict — with the value rules the
 * loader's rule functions apply spelled out: the 15 event names, positive whole seconds, a
 * non-blank command, the condition tree with its categories and mode spellings.
 *
 * This module is a build step, not part of the package's API: `scripts/write-json-schema.mjs`
 * writes its output to `schema/`, which is published. It is the only user of zod here, so the
 * package itself loads no validation library.
 *
 * What a schema cannot say is left to `codewhale hooks validate`: that a condition can never
 * match on an event (the load-time support matrix), and "did you mean" suggestions.
 */

/** A key's type as a zod schema (`integer`: a number or a TOML big integer). */
function fieldSchema(type: FieldType): z.ZodType {
  switch (type) {
    case 'string':
      return z.string();
    case 'integer':
      return z.union([z.number(), z.bigint()]);
    case 'boolean':
      return z.boolean();
    case 'array':
      return z.array(z.unknown());
    case 'any':
      return z.unknown();
  }
}

/** A shape as a strict zod object, with `extra` keys (a condition's `type`) in front. */
function strictFromShape(shape: Shape, extra: Record<string, z.ZodType> = {}) {
  const keys = Object.fromEntries(Object.entries(shape).map(([key, f]) => [key, f.required ? fieldSchema(f.type) : fieldSchema(f.type).optional()]));
  return z.strictObject({ ...extra, ...keys });
}

function buildSchemas() {
  const conditionSchemas = Object.fromEntries(Object.entries(CONDITION_SHAPES).map(([type, shape]) => [type, strictFromShape(shape, { type: z.literal(type) })])) as Record<
    keyof typeof CONDITION_SHAPES,
    ReturnType<typeof strictFromShape>
  >;
  const seconds = z.int().min(1);
  /** Case-insensitive, as the loader compares modes (D9). */
  const modePattern = `^(${MODE_SPELLINGS.map((m) => [...m].map((c) => `[${c.toLowerCase()}${c.toUpperCase()}]`).join('')).join('|')})$`;

  const condition: z.ZodType = z.lazy(() =>
    z.union([
      conditionSchemas.always,
      conditionSchemas.tool_name.extend({ name: z.string().min(1) }),
      conditionSchemas.tool_category.extend({ category: z.enum(TOOL_CATEGORIES) }),
      conditionSchemas.mode.extend({ mode: z.string().regex(new RegExp(modePattern)) }),
      conditionSchemas.exit_code.extend({ code: z.int() }),
      conditionSchemas.all.extend({ conditions: z.array(condition) }),
      conditionSchemas.any.extend({ conditions: z.array(condition) }),
    ]),
  );

  const entry = strictFromShape(HOOK_ENTRY_SHAPE).extend({
    event: z.enum(HOOK_EVENT_NAMES as unknown as [string, ...string[]]).describe('One of the 15 hook events, exact.'),
    command: z.string().regex(/\S/).describe('The command, run by /bin/sh -c (cmd /C on Windows). Must not be blank.'),
    name: z.string().optional().describe('A label for lists and logs (shown sanitized, ≤ 64 characters).'),
    timeout_secs: seconds.optional().describe('Whole seconds, default 30. `[hooks].default_timeout_secs` overrides it.'),
    background: z.boolean().optional().describe('Submit without waiting (never for shell_env). Default false.'),
    continue_on_error: z.boolean().optional().describe('Whether later hooks of the event still run when this one fails. Default true.'),
    condition: condition.optional().describe('When the hook runs; default always.'),
    protocol: z
      .enum(HOOK_PROTOCOLS as unknown as [string, ...string[]])
      .optional()
      .describe('How the hook talks to its command: codewhale (default) or claude-code (the stdin document and answers of Claude Code / Codex hooks).'),
  });

  const settings = {
    enabled: z.boolean().optional().describe('false suppresses every hook (they are still listed). Default true.'),
    default_timeout_secs: seconds.optional().describe('When set, it overrides every hook’s timeout_secs.'),
    working_dir: z.string().min(1).optional().describe('Where hooks run; default the session workspace.'),
  };

  /** The `config.toml` schema: a `[hooks]` table; every other table is left to its own owner. */
  const userConfigSchema = z.looseObject({
    hooks: z
      .looseObject({ ...settings, hooks: z.array(entry).optional().describe('`[[hooks.hooks]]`: one table per hook, in run order.') })
      .optional()
      .describe('Global hooks (unknown keys here are warnings, so the schema allows them).'),
  });

  /** The project `.codewhale/hooks.toml` schema: `[[hooks]]` entries (the settings are parsed and ignored). */
  const projectHooksSchema = z.looseObject({
    ...settings,
    hooks: z.array(entry).optional().describe('`[[hooks]]`: one table per hook, in run order.'),
  });
  return { config: userConfigSchema, hooks: projectHooksSchema };
}

export type HookConfigSchemaName = 'config' | 'hooks';

/** The JSON Schema (draft 2020-12) of `config.toml` (`'config'`) or a project `hooks.toml` (`'hooks'`). */
export function hookConfigJsonSchema(which: HookConfigSchemaName): Record<string, unknown> {
  const generated = z.toJSONSchema(buildSchemas()[which], { io: 'input', unrepresentable: 'throw', cycles: 'ref', reused: 'inline' });
  // zod bounds integers to the safe range; the loader takes any TOML integer (timeouts are
  // clamped, exit codes are 64-bit), so those bounds go. The condition definition gets a name.
  const text = JSON.stringify(generated)
    .replace(/,"maximum":9007199254740991|,"minimum":-9007199254740991/g, '')
    .replaceAll('__schema0', 'condition');
  const schema = JSON.parse(text) as Record<string, unknown>;
  return {
    ...schema,
    title: which === 'config' ? 'Codewhale config.toml (hooks)' : 'Codewhale project .codewhale/hooks.toml',
    description:
      which === 'config'
        ? 'The [hooks] table of ~/.codewhale/config.toml. `codewhale hooks validate` checks what a schema cannot (conditions an event can never match).'
        : 'Project hooks; they run only in a trusted workspace after `codewhale hooks approve`. `codewhale hooks validate` checks what a schema cannot.',
  };
}
