/**
 * "Did you mean …?" for names a user typed: event names, keys, condition types, tool
 * categories, modes. Pure string logic, counted in code points.
 */

/**
 * Damerau–Levenshtein distance (optimal string alignment): insertions, deletions,
 * substitutions and adjacent transpositions each cost 1. Counts code points.
 */
export function editDistance(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  const rows = s.length + 1;
  const cols = t.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j]!;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1);
      d[i * cols + j] = v;
    }
  }
  return at(rows - 1, cols - 1);
}

/** `PreToolUse` → `pre_tool_use`, `toolCallBefore` → `tool_call_before`, `tool-call before` → `tool_call_before`. */
export function toSnakeCase(s: string): string {
  return s
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[\s\-.]+/g, '_')
    .toLowerCase();
}

export interface SuggestOptions {
  /** Known foreign spellings (already snake_case) → the candidate they mean. */
  readonly aliases?: Readonly<Record<string, string>>;
}

/**
 * The candidate `input` most plausibly meant, or `null` when none is close. Tried in order:
 * the same name in another case style (`toolCallBefore`), a known alias (`PreToolUse`), the
 * same words in another order (`before_tool_call`), a unique candidate `input` abbreviates
 * (`timeout` → `timeout_secs`) or that abbreviates it (`planning` → `plan`), then the unique nearest candidate within a small edit distance
 * (1 for short names, 2 from 5 code points, 3 from 12).
 */
export function suggest(input: string, candidates: readonly string[], options: SuggestOptions = {}): string | null {
  if (candidates.includes(input)) return null;
  const snake = toSnakeCase(input);
  if (snake === '') return null;
  if (candidates.includes(snake)) return snake;
  const alias = options.aliases?.[snake] ?? options.aliases?.[snake.replace(/_/g, '')];
  if (alias !== undefined && candidates.includes(alias)) return alias;

  const words = snake.split('_').filter(Boolean).sort().join('_');
  const reordered = candidates.filter((c) => c.split('_').filter(Boolean).sort().join('_') === words);
  if (reordered.length === 1) return reordered[0]!;

  const squashed = snake.replace(/_/g, '');
  const unsquashed = candidates.filter((c) => c.replace(/_/g, '') === squashed);
  if (unsquashed.length === 1) return unsquashed[0]!;

  if (Array.from(snake).length >= 4) {
    const extended = candidates.filter((c) => c.startsWith(`${snake}_`) || c.startsWith(snake));
    if (extended.length === 1) return extended[0]!;
    const shortened = candidates.filter((c) => Array.from(c).length >= 4 && snake.startsWith(c));
    if (shortened.length === 1) return shortened[0]!;
  }

  const len = Array.from(snake).length;
  const budget = len >= 12 ? 3 : len >= 5 ? 2 : 1;
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tie = false;
  for (const c of candidates) {
    const distance = editDistance(snake, c);
    if (distance < bestDistance) {
      best = c;
      bestDistance = distance;
      tie = false;
    } else if (distance === bestDistance) {
      tie = true;
    }
  }
  if (best === null || bestDistance > budget || tie) return null;
  // A distance as large as the shorter name means nothing is shared: no suggestion.
  if (bestDistance >= Math.min(len, Array.from(best).length)) return null;
  return best;
}

/** Event names other agents use, mapped to the Codewhale event that does the same job. */
export const FOREIGN_EVENT_ALIASES: Readonly<Record<string, string>> = {
  pre_tool_use: 'tool_call_before',
  before_tool: 'tool_call_before',
  before_tool_call: 'tool_call_before',
  pre_tool_call: 'tool_call_before',
  post_tool_use: 'tool_call_after',
  after_tool: 'tool_call_after',
  post_tool_call: 'tool_call_after',
  post_tool_use_failure: 'on_error',
  user_prompt_submit: 'message_submit',
  before_agent: 'message_submit',
  prompt_submit: 'message_submit',
  stop: 'turn_end',
  after_agent: 'turn_end',
  subagent_start: 'subagent_spawn',
  subagent_stop: 'subagent_complete',
  notification: 'waiting_for_user',
  error: 'on_error',
};

/** Condition-type spellings borrowed from logic or other tools. */
export const CONDITION_TYPE_ALIASES: Readonly<Record<string, string>> = {
  and: 'all',
  or: 'any',
  tool: 'tool_name',
  category: 'tool_category',
  exit: 'exit_code',
  exit_status: 'exit_code',
  status: 'exit_code',
};
