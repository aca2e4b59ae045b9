/**
 * @codewhale/engine — the agent session every surface drives: model providers, the turn loop,
 * tools, modes and postures, a typed event stream, and the session host that fires lifecycle
 * hooks.
 */
export { AgentSession, NO_INTERACTION, toolErrorText, type AgentSessionOptions, type Interaction, type TurnSummary } from './session.js';
export {
  SessionHost,
  PROFILE_EVENTS,
  type LifecycleHooks,
  type HostProfile,
  type HostNotice,
  type SessionHostOptions,
  type SubmitResult,
  type SessionTotals,
} from './session-host.js';
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
export { EngineError, errorCategory, errorMessage } from './errors.js';
export { isDangerousCommand } from './dangerous-command.js';
export { defaultSystemPrompt } from './system-prompt.js';
export {
  ToolError,
  type ToolDefinition,
  type ToolKind,
  type ToolResult,
  type ToolContext,
  type ToolServices,
  type ToolErrorKind,
  type UserInputRequest,
  type UserInputQuestion,
  type UserInputAnswer,
} from './tools/tool.js';
export { BUILTIN_TOOLS, toolSpec, selectTools } from './tools/registry.js';
export { readTool, writeTool, editTool, listDirTool, grepTool } from './tools/file-tools.js';
export { todoWriteTool, requestUserInputTool, agentTool } from './tools/session-tools.js';
export { bashTool, BashTool, execShellTool, SHELL_DEFAULTS } from './tools/shell-tool.js';
export { buildChildEnv, isAllowedParentVar } from './tools/child-env.js';
export { resolveInWorkspace } from './tools/workspace-path.js';
export * from './provider/index.js';
// The surface contract (temporary export from the tui branch until the SessionHost redesign lands on main).
export type {
  HostState,
  TodoItem,
  SubagentInfo,
  ActiveHook,
  SessionSnapshot,
  MessageSource,
  HookActivityEnd,
  HostEvent,
  HostListener,
  ReloadReport,
  ConversationSnapshot,
  SteerResult,
  SessionHostApi,
  SessionFlags,
  OpenSessionOptions,
} from './surface.js';
export { openSession, createSharedPools, type SharedPools } from './open-session.js';
