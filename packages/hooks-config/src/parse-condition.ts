import { canonicalMode } from '@codewhale/hooks-payloads';
import { CONDITION_TYPES, TOOL_CATEGORIES, type ConditionType, type HookCondition, type ToolCategory } from '@codewhale/hooks-conditions';
import { checkShape, CONDITION_SHAPES, describeValue, isTable, type Shape } from './schema.js';
import { didYouMean, named } from './problem.js';
import { CONDITION_TYPE_ALIASES, suggest } from './suggest.js';
import type { ProblemCode } from './types.js';

/** One problem inside a condition tree; `path` is e.g. `condition.conditions[1]`. */
export interface ConditionIssue {
  readonly code: ProblemCode;
  readonly path: string;
  readonly detail: string;
}

export interface ParsedCondition {
  /** The condition with every invalid predicate left out; `null` when the root is invalid. */
  readonly condition: HookCondition | null;
  /** Every problem, in tree-walk order. Empty means `condition` is exactly what was written. */
  readonly issues: readonly ConditionIssue[];
}

/** Every spelling a `mode` condition accepts (D9), for suggestions. */
export const MODE_SPELLINGS: readonly string[] = ['plan', 'work', 'operate', 'act', 'agent', 'auto', 'yolo'];

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const TYPE_LIST = CONDITION_TYPES.map((t) => `\`${t}\``).join(', ');
const CATEGORY_LIST = TOOL_CATEGORIES.map((t) => `\`${t}\``).join(', ');
const EXPECTED: Record<string, string> = {
  name: 'a string',
  category: 'a string',
  mode: 'a string',
  code: 'a whole number',
  conditions: 'an array of condition tables',
};

/**
 * Turn a raw `condition` value into a {@link HookCondition}, collecting a problem for every
 * invalid predicate (nested ones too): not a table, missing or unknown `type` (with a
 * suggestion), unknown keys, wrong field types, an unknown tool category or mode, an empty
 * tool name, an exit code outside signed 64 bits. Load-time support per event is a separate
 * rule (`unsupportedConditions`).
 */
export function parseCondition(raw: unknown, path = 'condition'): ParsedCondition {
  const issues: ConditionIssue[] = [];
  const condition = parseNode(raw, path, issues);
  return { condition, issues };
}

function parseNode(raw: unknown, path: string, issues: ConditionIssue[]): HookCondition | null {
  const push = (code: ProblemCode, detail: string): null => {
    issues.push({ code, path, detail });
    return null;
  };
  if (!isTable(raw)) {
    return push('invalid_condition', `\`${path}\` must be a table such as \`{ type = "tool_name", name = "bash" }\` (got ${describeValue(raw)})`);
  }
  const type = raw['type'];
  if (type === undefined) return push('invalid_condition', `\`${path}\` has no \`type\`; use one of ${TYPE_LIST}`);
  if (typeof type !== 'string') return push('invalid_condition', `\`${path}.type\` must be a string (got ${describeValue(type)})`);
  if (!(CONDITION_TYPES as readonly string[]).includes(type)) {
    const hint = didYouMean(suggest(type, CONDITION_TYPES, { aliases: CONDITION_TYPE_ALIASES }));
    return push('unknown_condition_type', `${named('unknown condition type', type)} in \`${path}\`${hint || `; types are ${TYPE_LIST}`}`);
  }
  const kind = type as ConditionType;
  const shape: Shape = CONDITION_SHAPES[kind];
  const check = checkShape(raw, shape, ['type']);
  const valid = check.invalid.length === 0 && check.unknown.length === 0;
  const fields = Object.keys(shape);
  for (const field of check.invalid) {
    const value = raw[field];
    push(
      'invalid_condition',
      value === undefined ? `\`${path}\` (a \`${kind}\` condition) needs \`${field}\`` : `\`${path}.${field}\` must be ${EXPECTED[field] ?? 'valid'} (got ${describeValue(value)})`,
    );
  }
  for (const key of check.unknown) {
    const hint = didYouMean(suggest(key, fields));
    const allowed = fields.length ? `; a \`${kind}\` condition takes ${fields.map((f) => `\`${f}\``).join(', ')}` : '; an `always` condition takes no other keys';
    push('unknown_key', `${named('unknown key', key)} in \`${path}\`${hint}${hint ? '' : allowed}`);
  }
  if (!valid) return null;

  switch (kind) {
    case 'always':
      return { type: 'always' };
    case 'tool_name': {
      const name = raw['name'] as string;
      if (name.trim() === '') return push('invalid_condition', `\`${path}.name\` is empty, so it can never match a tool`);
      return { type: 'tool_name', name };
    }
    case 'tool_category': {
      const category = raw['category'] as string;
      if (!(TOOL_CATEGORIES as readonly string[]).includes(category)) {
        const hint = didYouMean(suggest(category, TOOL_CATEGORIES));
        return push('unknown_tool_category', `${named('unknown tool category', category)} in \`${path}\`${hint || `; categories are ${CATEGORY_LIST}`}`);
      }
      return { type: 'tool_category', category: category as ToolCategory };
    }
    case 'mode': {
      const mode = raw['mode'] as string;
      if (canonicalMode(mode) === null) {
        const hint = didYouMean(suggest(mode.trim().toLowerCase(), MODE_SPELLINGS));
        return push('unknown_mode', `${named('unknown mode', mode)} in \`${path}\`${hint || '; modes are `plan`, `work` (also `act`, `agent`, `auto`, `yolo`) and `operate`'}`);
      }
      return { type: 'mode', mode };
    }
    case 'exit_code': {
      const code = raw['code'] as number | bigint;
      if (typeof code === 'number' && !Number.isInteger(code)) {
        return push('invalid_condition', `\`${path}.code\` must be a whole number (got ${describeValue(code)})`);
      }
      const big = BigInt(code);
      if (big < I64_MIN || big > I64_MAX) return push('invalid_condition', `\`${path}.code\` must fit a signed 64-bit integer`);
      return { type: 'exit_code', code: big };
    }
    case 'all':
    case 'any': {
      const children = (raw['conditions'] as unknown[]).map((child, i) => parseNode(child, `${path}.conditions[${i}]`, issues)).filter((c): c is HookCondition => c !== null);
      return { type: kind, conditions: children };
    }
  }
}
