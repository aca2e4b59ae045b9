/**
 * @codewhale/hooks-config — configuration → validated hook set, the trust and approval model,
 * and the `hooks list` model. Pure: bytes and parsed config in, verdicts out.
 */
export type {
  HookDefinition,
  HookSet,
  ConfigProblem,
  ProblemCode,
  ProblemSeverity,
  TimeoutSource,
  Origin,
  Sha256,
} from './types.js';
export { hooksForEvent, hasHooksForEvent, matchingHooks, hookIdentity } from './select.js';

// Parsing and validation
export type { Result, FileIssue, FileIssueCode } from './result.js';
export { parseToml, type TomlTable } from './parse-toml.js';
export type { EntryRef } from './problem.js';
export { decodeProjectFile, PROJECT_FILE_TOO_LARGE, PROJECT_FILE_NOT_UTF8 } from './decode-project-file.js';
export { parseUserConfig, type UserConfig } from './parse-user-config.js';
export { parseProjectHooks, skippedProjectHooks } from './parse-project-hooks.js';
export { PROJECT_HOOKS_RELATIVE_PATH, projectHooksFile } from './project-hooks-path.js';
export { readGlobalHooksSection, readProjectHooksSection, type HooksSection } from './hooks-section.js';
export {
  checkHookEntry,
  readEntryFields,
  conditionRule,
  backgroundRule,
  zeroTimeoutRule,
  emptyCommandRule,
  type RawHookEntry,
  type CheckedEntry,
  type EntryFields,
  type Finding,
} from './check-hook-entry.js';
export { parseCondition, MODE_SPELLINGS, type ParsedCondition, type ConditionIssue } from './parse-condition.js';
export { HOOK_ENTRY_SHAPE, HOOK_ENTRY_KEYS, HOOKS_SETTING_KEYS, PROJECT_FILE_KEYS, CONDITION_SHAPES, checkShape, hasFieldType } from './schema.js';
export type { Field, FieldType, Shape, ShapeCheck } from './schema.js';
export { buildHookSet } from './build-hook-set.js';
export { effectiveTimeout, type EffectiveTimeout } from './effective-timeout.js';
export { loadHookSet, type LoadHookSetInput, type LoadedHooks } from './load-hook-set.js';
export { editDistance, suggest, toSnakeCase, FOREIGN_EVENT_ALIASES, type SuggestOptions } from './suggest.js';
export { scanTomlLayout, type TomlLayout, type TomlHeader, type TomlEntry } from './toml-layout.js';
export { tomlKeyLine, tomlArrayEntryLines } from './toml-key-line.js';
export { isTable, describeValue } from './schema.js';

// Trust and approval
export { readProjectRecord, normalizeSha256, PROJECT_KEYS, OWNED_PROJECT_KEYS, ABSENT_SCRIPT, type ProjectRecord } from './project-record.js';
export {
  projectApproval,
  projectScriptPaths,
  scriptPathsToCheck,
  type ProjectApproval,
  type ProjectApprovalInput,
  type ProjectApprovalState,
} from './project-approval.js';
export { scriptPathsInCommand, scriptPathsInCommands, normalizeWorkspacePath } from './script-paths.js';
export { matchDigest, MIN_DIGEST_PREFIX_CHARS, type DigestMatchError, type DigestMatchErrorCode } from './match-digest.js';
export {
  approveProjectHooks,
  revokeProjectHooks,
  setWorkspaceTrust,
  type ApproveInput,
  type ApproveError,
  type ApproveErrorCode,
  type ApprovedProjectHooks,
} from './approve-project-hooks.js';
export {
  reviewProjectHooks,
  renderProjectReview,
  type ProjectReview,
  type ProjectReviewInput,
  type ProjectReviewEntry,
  type ProjectReviewScript,
  type ReviewScriptStatus,
} from './project-review.js';

// Editing the user's config.toml
export { editProjectTable, type ProjectTableChange, type ConfigEditError, type ConfigEditErrorCode } from './edit-project-table.js';
export { formatTomlString, formatTomlKey, formatTomlValue, type TomlEditValue } from './toml-format.js';

// Importing a peer agent's hooks (`codewhale hooks import`)
export {
  translateToolMatcher,
  readMatcher,
  peerNamesFor,
  isMatchAll,
  type PeerAgent,
  type MatcherReading,
  type MatcherTranslation,
} from './peer-matcher.js';
export {
  importPeerHooks,
  describePeerOrigin,
  PEER_DEFAULT_TIMEOUT_SECS,
  PEER_LABEL,
  type ImportScope,
  type PeerHooksFile,
  type PeerHookOrigin,
  type ImportedHookEntry,
  type ImportedHook,
  type SkippedPeerHook,
  type PeerImport,
} from './import-peer-hooks.js';
export { appendHookEntries, renderHookEntryToml, hookEntryLines, formatConditionToml, type HooksFileShape, type AppendedHookEntries } from './append-hook-entries.js';
export { jsonSyntaxError, type JsonSyntaxError } from './json-syntax-error.js';

// `hooks list`, `hooks events`, hook-set digest
export { buildHooksList, type HooksList, type HooksListHook, type HooksListProject } from './hooks-list.js';
export {
  renderHooksList,
  describeTimeout,
  describeProjectStatus,
  NO_HOOKS_TEXT,
  NO_RUNNABLE_HOOKS_TEXT,
  HOOKS_DISABLED_BANNER,
} from './render-hooks-list.js';
export { hooksListToJson } from './hooks-list-json.js';
export { renderHookEvents } from './render-hook-events.js';
export { hookSetDigest, canonicalHookSet } from './hook-set-digest.js';
export { isStrictHook } from './is-strict-hook.js';

// Typed permission rules (permissions.toml)
export type {
  PermissionAction,
  PermissionRule,
  PermissionRuleOrigin,
  PermissionRules,
  PermissionIssue,
  PermissionIssueCode,
  PermissionCall,
  PermissionMatch,
} from './permission-rule.js';
export { PERMISSION_ACTIONS } from './permission-rule.js';
export { parsePermissionRules, PERMISSION_RULE_SHAPE, PERMISSION_RULE_KEYS, PERMISSIONS_FILE_KEYS } from './parse-permission-rules.js';
export { matchPermission, ruleMatches, commandParts } from './match-permission.js';
export { compileCommandGlob, compilePathGlob, normalizePath } from './permission-glob.js';
export { appendPermissionRule, type NewPermissionRule } from './append-permission-rule.js';
export { decidePermission, type PermissionGateInput, type PermissionGateResult } from './decide-permission.js';
