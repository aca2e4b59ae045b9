/** The tool categories a `tool_category` condition can name. */
export const TOOL_CATEGORIES = ['shell', 'file_write', 'safe', 'other'] as const;
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

/** The condition types, as written in config (`type = "…"`). */
export const CONDITION_TYPES = ['always', 'tool_name', 'tool_category', 'mode', 'exit_code', 'all', 'any'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

/**
 * A hook condition: a predicate over an event's context. Omitted in config means `always`.
 * `exit_code` holds a signed 64-bit integer (`bigint`), so `3221225477` is matchable.
 */
export type HookCondition =
  | { readonly type: 'always' }
  | { readonly type: 'tool_name'; readonly name: string }
  | { readonly type: 'tool_category'; readonly category: ToolCategory }
  | { readonly type: 'mode'; readonly mode: string }
  | { readonly type: 'exit_code'; readonly code: bigint }
  | { readonly type: 'all'; readonly conditions: readonly HookCondition[] }
  | { readonly type: 'any'; readonly conditions: readonly HookCondition[] };

export const ALWAYS: HookCondition = { type: 'always' };
