export { readSettings, type ReadSettingsInput } from './read-settings.js';
export {
  DEFAULT_SETTINGS,
  DEFAULT_RETRY,
  DEFAULT_TUI,
  REASONING_EFFORTS,
  CHAT_WIRES,
  MAX_RETRIES_LIMIT,
  retryOptions,
  type Settings,
  type ProviderSettings,
  type RetrySettings,
  type TuiSettings,
  type ReasoningEffort,
} from './settings.js';
export type { SettingsIssue, SettingsIssueCode } from './settings-issue.js';
export { SecretText } from './secret-text.js';
export { settingsSchema, SETTINGS_ROOT_KEYS, PROVIDER_KEYS, RETRY_KEYS, TUI_KEYS, FOREIGN_ROOT_KEYS } from './settings-schema.js';
export { permissionsPathFor, loadPermissionRules, permissionCheck, rememberPermissionRule } from './permissions-file.js';
