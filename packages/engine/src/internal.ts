/**
 * `@codewhale/engine/internal` — for Codewhale's own packages (the CLI, the TUI, the Runtime
 * API): pieces of the engine they share that are not part of its documented API. No
 * stability promise; an embedder uses `@codewhale/engine` and `@codewhale/hooks`.
 */
export { canonicalWorkspace, hookConfigurationNotes } from './open-session.js';
export { PROFILE_EVENTS } from './session-host.js';
export { toolErrorText } from './session.js';
export { parseToolArguments } from './plan-tool-call.js';
export { defaultSystemPrompt } from './system-prompt.js';
export { settingsSchema, SETTINGS_ROOT_KEYS, PROVIDER_KEYS, RETRY_KEYS, TUI_KEYS, FOREIGN_ROOT_KEYS } from './settings/index.js';
export { withoutSubagentMarker } from './tools/session-tools.js';
