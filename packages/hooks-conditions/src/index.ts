/**
 * @codewhale/hooks-conditions — the hook condition model, matching against an event context,
 * and the load-time support matrix. Pure: no I/O.
 */
export { TOOL_CATEGORIES, CONDITION_TYPES, ALWAYS, type HookCondition, type ToolCategory, type ConditionType } from './condition.js';
export { toolCategory, SHELL_TOOL_ALIASES } from './tool-category.js';
export { compileToolNameGlob, matchToolNameGlob, type ToolNameGlob } from './tool-name-glob.js';
export { matchCondition, modesMatch, toolNameMatches } from './match.js';
export { unsupportedConditions, isConditionSupported, type UnsupportedCondition } from './support.js';
export { summarizeCondition, conditionToJson } from './summary.js';
