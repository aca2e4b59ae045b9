import { eventSpec, type HookEventName } from '@codewhale/hooks-payloads';
import type { HookCondition } from './condition.js';

/** A predicate that can never match on an event, with the contract's reason. */
export interface UnsupportedCondition {
  readonly type: HookCondition['type'];
  /** Path inside the condition tree, e.g. `condition.conditions[1].conditions[0]`. */
  readonly path: string;
  readonly detail: string;
}

/**
 * Every predicate in `condition` (walked recursively through `all` / `any`, in tree order)
 * that references context `event` never carries. A hook wearing one would be silently inert,
 * so it is rejected at load. `tool_name` / `tool_category` need tool identity, `mode` is
 * absent only on `shell_env`, `exit_code` needs a completed process (`tool_call_after`,
 * `on_error`).
 */
export function unsupportedConditions(event: HookEventName, condition: HookCondition | null | undefined): UnsupportedCondition[] {
  const out: UnsupportedCondition[] = [];
  const carries = eventSpec(event).carries;
  const walk = (c: HookCondition, path: string): void => {
    switch (c.type) {
      case 'tool_name':
      case 'tool_category':
        if (!carries.toolIdentity) {
          out.push({ type: c.type, path, detail: `\`${event}\` never carries a tool name, so this tool condition can never match` });
        }
        return;
      case 'mode':
        if (!carries.mode) {
          out.push({
            type: c.type,
            path,
            detail: `\`${event}\` runs with a narrow context that has no mode, so a \`mode\` condition can never match; scope it with \`tool_name\` or \`tool_category\` instead`,
          });
        }
        return;
      case 'exit_code':
        if (!carries.exitCode) {
          out.push({
            type: c.type,
            path,
            detail: `\`${event}\` has no completed process to read an exit code from; \`exit_code\` conditions are only supported on \`tool_call_after\` and \`on_error\``,
          });
        }
        return;
      case 'all':
      case 'any':
        for (const [i, child] of c.conditions.entries()) walk(child, `${path}.conditions[${i}]`);
        return;
      case 'always':
        return;
    }
  };
  if (condition) walk(condition, 'condition');
  return out;
}

/** True when `condition` can match on `event` at all (no unsupported predicate anywhere in it). */
export function isConditionSupported(event: HookEventName, condition: HookCondition | null | undefined): boolean {
  return unsupportedConditions(event, condition).length === 0;
}
