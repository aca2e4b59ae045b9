/**
 * @codewhale/engine — the agent session every surface drives. A surface opens a session with
 * {@link openSession} and holds the returned {@link SessionHost}: it reads snapshots, listens
 * to events and calls the host's verbs. Provider internals live behind `@codewhale/engine/providers`,
 * tools behind `@codewhale/engine/tools`.
 */
export { openSession, createSharedPools, closeSharedPools, canonicalWorkspace, hookConfigurationNotes, type SharedPools } from './open-session.js';
export { SessionHost, PROFILE_EVENTS, type LifecycleHooks, type SessionHostOptions, type Reloader } from './session-host.js';
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
export { NO_INTERACTION, toolErrorText, type Interaction, type TurnSummary } from './session.js';
export { SecretMask, MASK, MASK_MIN_CHARS } from './secret-mask.js';
export {
  planToolCall,
  parseToolArguments,
  type ApprovalNeed,
  type PermissionCheck,
  type PermissionVerdict,
  type PlanStage,
  type PlanToolCallInput,
  type ToolCallGate,
  type ToolPlan,
} from './plan-tool-call.js';
export type { EngineHooks } from './engine-hooks.js';
export type {
  EngineEvent,
  EngineEventListener,
  ApprovalRequest,
  ApprovalDecision,
  ToolCallOutcome,
  TurnStatus,
  TurnUsageTotals,
} from './events.js';
export { parseMode, parsePosture, modeTitle, postureTitle, type Mode, type Posture } from './modes.js';
export { EngineError, errorCategory, errorMessage, type ErrorCategory, type ErrorIssue } from './errors.js';
export { withoutSubagentMarker } from './tools/session-tools.js';
export { BUILTIN_TOOLS, type ToolDefinition, type ToolKind, type ToolResult, type UserInputRequest, type UserInputQuestion, type UserInputAnswer } from './tools/index.js';
export type { ChatMessage, ModelProvider, ModelUsage } from './provider/types.js';
export { ReplayProvider } from './provider/replay-provider.js';
export { ReplayScriptError } from './provider/replay-script.js';
export { RouteError } from './provider/route.js';
export { defaultSystemPrompt } from './system-prompt.js';
export * from './settings/index.js';
export { HookHarness, type DryRunCall } from './hook-harness.js';
