import { sanitizeLine } from '@codewhale/hooks-payloads';
import type { HookCondition } from './condition.js';

const v = (s: string): string => sanitizeLine(s, 64).text;

/**
 * A one-line summary for `hooks list`: ``tool_name=`x` ``, ``tool_category=`x` ``,
 * ``mode=`x` ``, `exit_code=N`, `all of [a, b]`, `any of [a, b]`, `always`. Operator-supplied
 * values are sanitized and bounded.
 */
export function summarizeCondition(condition: HookCondition): string {
  switch (condition.type) {
    case 'always':
      return 'always';
    case 'tool_name':
      return `tool_name=\`${v(condition.name)}\``;
    case 'tool_category':
      return `tool_category=\`${v(condition.category)}\``;
    case 'mode':
      return `mode=\`${v(condition.mode)}\``;
    case 'exit_code':
      return `exit_code=${condition.code.toString()}`;
    case 'all':
      return `all of [${condition.conditions.map(summarizeCondition).join(', ')}]`;
    case 'any':
      return `any of [${condition.conditions.map(summarizeCondition).join(', ')}]`;
  }
}

/** The condition as plain JSON (snake_case, `exit_code` as a number when safe, else a decimal string). */
export function conditionToJson(condition: HookCondition): Record<string, unknown> {
  switch (condition.type) {
    case 'exit_code': {
      const n = Number(condition.code);
      return { type: 'exit_code', code: Number.isSafeInteger(n) ? n : condition.code.toString() };
    }
    case 'all':
    case 'any':
      return { type: condition.type, conditions: condition.conditions.map(conditionToJson) };
    default:
      return { ...condition };
  }
}
