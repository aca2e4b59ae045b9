import { canonicalMode, normalizeExitCode, type HookContext } from '@codewhale/hooks-payloads';
import type { HookCondition } from './condition.js';
import { matchToolNameGlob } from './tool-name-glob.js';
import { SHELL_TOOL_ALIASES, toolCategory } from './tool-category.js';

function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Mode equality on canonical modes (D9), falling back to ASCII case-insensitive equality for unknown spellings. */
export function modesMatch(conditionMode: string, contextMode: string): boolean {
  const a = canonicalMode(conditionMode);
  const b = canonicalMode(contextMode);
  if (a !== null && b !== null) return a === b;
  return asciiLower(conditionMode.trim()) === asciiLower(contextMode.trim());
}

/**
 * Does a `tool_name` glob match this tool? `*` is any run of characters, the rest literal and
 * case-sensitive; `bash`, `Bash` and `exec_shell` are one tool, so a pattern matching any
 * spelling matches all three. Used by `tool_name` conditions and permission rules alike.
 */
export function toolNameMatches(pattern: string, name: string): boolean {
  if (matchToolNameGlob(pattern, name)) return true;
  // `bash`, `Bash` and `exec_shell` are one tool: a pattern matching any spelling matches all.
  return SHELL_TOOL_ALIASES.includes(name) && SHELL_TOOL_ALIASES.some((alias) => matchToolNameGlob(pattern, alias));
}

/**
 * Does `condition` hold for this event context? A condition that needs context the firing
 * does not carry (a tool condition on an `on_error` with no tool behind it, an `exit_code`
 * on a tool that reported none, a `mode` with no mode) does not match: it is never satisfied
 * by a default. `all []` is true, `any []` is false.
 */
export function matchCondition(condition: HookCondition | null | undefined, ctx: HookContext): boolean {
  if (!condition) return true;
  switch (condition.type) {
    case 'always':
      return true;
    case 'tool_name':
      return ctx.tool != null && toolNameMatches(condition.name, ctx.tool.name);
    case 'tool_category':
      return ctx.tool != null && toolCategory(ctx.tool.name, ctx.tool.input) === condition.category;
    case 'mode':
      return ctx.mode != null && modesMatch(condition.mode, ctx.mode);
    case 'exit_code': {
      const code = ctx.tool ? normalizeExitCode(ctx.tool.exitCode) : null;
      return code !== null && code === condition.code;
    }
    case 'all':
      return condition.conditions.every((c) => matchCondition(c, ctx));
    case 'any':
      return condition.conditions.some((c) => matchCondition(c, ctx));
  }
}
