/**
 * @codewhale/engine — the agent session every surface drives. A surface opens a session with
 * {@link openSession} and holds the returned {@link SessionHost}: it reads snapshots, listens
 * to events and calls the host's verbs. Provider internals live behind `@codewhale/engine/providers`,
 * tools behind `@codewhale/engine/tools`.
 */
export { openSession, createSharedPools, closeSharedPools, type SharedPools } from './open-session.js';
export { SessionHost, type LifecycleHooks, type SessionHostOptions, type Reloader } from './session-host.js';
export type {
  ActiveHook,
  ConversationSnapshot,
  HookActivityEnd,
  HostEvent,
  HostListener,
  HostNotice,
  HostProfile,
  HostState,
  MessageSource,
  OpenSessionOptions,
  ReloadReport,
  SessionFlags,
  SessionHostApi,
  SessionSnapshot,
  SessionTotals,
  SteerResult,
  SubagentInfo,
  SubmitResult,
  TodoItem,
} from './surface.js';
export { NO_INTERACTION, type Interaction, type TurnSummary } from './session.js';
export { SecretMask, MASK, MASK_MIN_CHARS } from '@codewhale/hooks';
export { planToolCall, type ApprovalNeed, type PermissionCheck, type PermissionVerdict, type PlanStage, type PlanToolCallInput, type ToolCallGate, type ToolPlan } from './plan-tool-call.js';
export type { EngineHooks } from './engine-hooks.js';
export { approvalDenialText } from './events.js';
export { alwaysRuleFor, type AlwaysRule, type AlwaysOutcome } from './always-rule.js';
export { previewWrite, PREVIEW_BOUNDS, type WritePreview, type PreviewBounds, type PreviewRead } from './write-preview.js';
export type {
  EngineEvent,
  EngineEventListener,
  ApprovalRequest,
  ApprovalDecision,
  ApprovalDenial,
  ApprovalAnswer,
  ToolCallOutcome,
  TurnStatus,
  TurnUsageTotals,
} from './events.js';
export { parseMode, parsePosture, modeTitle, postureTitle, type Mode, type Posture } from './modes.js';
export { EngineError, errorCategory, errorMessage, errorLabel, type ErrorCategory, type ErrorIssue } from './errors.js';
export { BUILTIN_TOOLS, type ToolDefinition, type ToolKind, type ToolResult, type UserInputRequest, type UserInputQuestion, type UserInputAnswer } from './tools/index.js';
export type { ChatMessage, ModelProvider, ModelUsage } from './provider/types.js';
export { ReplayProvider } from './provider/replay-provider.js';
export { ReplayScriptError } from './provider/replay-script.js';
export { RouteError } from './provider/route.js';
export {
  readSettings,
  DEFAULT_SETTINGS,
  DEFAULT_RETRY,
  DEFAULT_TUI,
  REASONING_EFFORTS,
  CHAT_WIRES,
  MAX_RETRIES_LIMIT,
  retryOptions,
  SecretText,
  permissionsPathFor,
  loadPermissionRules,
  permissionCheck,
  rememberPermissionRule,
  type ReadSettingsInput,
  type Settings,
  type ProviderSettings,
  type RetrySettings,
  type TuiSettings,
  type ReasoningEffort,
  type SettingsIssue,
  type SettingsIssueCode,
} from './settings/index.js';
export { HookHarness, type DryRunCall } from './hook-harness.js';
