/**
 * @codewhale/hooks-payloads — what each hook event carries and what a hook's answer means.
 * Pure: no I/O, no clock, no randomness; runs in any JavaScript runtime.
 */
export {
  HOOK_EVENT_NAMES,
  HOOK_EVENT_CATALOGUE,
  STEERING_EVENTS,
  eventSpec,
  isHookEventName,
  isSteeringEvent,
  type HookEventName,
  type HookEventSpec,
  type HookEnvVar,
  type SteeringClass,
  type FiredBy,
  type FailurePolicy,
  type StdinDocumentKind,
  type EventCarries,
} from './events.js';
export { LIMITS, ENV_TRUNCATION_MARKER, TEXT_TRUNCATION_MARKER, PREVIEW_ELLIPSIS, RECEIPT_PREVIEW_MARKER } from './limits.js';
export { isStrict } from './is-strict.js';
export { utf8ByteLength, utf8PrefixEnd, utf8SuffixStart, codePointLength, isWellFormed } from './utf8.js';
export { truncateBytes, type Bounded } from './bounded.js';
export { sanitizeText, sanitizeLine, sanitizeLabel, previewCommand } from './sanitize.js';
export { sanitizeDenialReason, DEFAULT_DENIAL_TEXT } from './denial-reason.js';
export {
  SECRET_NAME_RULES,
  TOKEN_SHAPE_RULES,
  secretNameRule,
  tokenShapeRule,
  normalizeSecretName,
  type SecretNameRule,
  type TokenShapeRule,
} from './secret-patterns.js';
export { genericDetail, NO_VERDICT_DETAIL, OVERSIZED_OUTPUT_DETAIL } from './generic-detail.js';
export { canonicalMode, uiModeLabel, engineModeSpelling, modeSpellingFor, type CanonicalMode } from './modes.js';
export { sessionIdFromBytes, isSessionId } from './session-id.js';
export { formatTimestamp } from './timestamp.js';
export { toJson, tryParseJson, isJsonObject, type JsonValue } from './json.js';
export {
  normalizeExitCode,
  TOOL_RUN_STATUSES,
  type HookContext,
  type ToolContext,
  type ToolRunStatus,
  type ExitCode,
} from './context.js';
export { buildHookEnv, toolArgsJson, INHERITED_VARS_TO_CLEAR } from './hook-env.js';
export { setEnvVar } from './env-var.js';
export { buildMessageSubmitDocument, type MessageSubmitInput, type MessageSubmitDocument } from './message-submit-document.js';
export {
  buildTurnEndDocument,
  buildSubagentSpawnDocument,
  buildSubagentCompleteDocument,
  buildSessionErrorDocument,
  subagentPreview,
  subagentCompletionStatus,
  type TurnEndInput,
  type TurnUsage,
  type SessionTotals,
  type SubagentCommon,
} from './observer-documents.js';
export {
  observeSessionState,
  INITIAL_SESSION_STATE,
  type SessionState,
  type SessionObservation,
  type SessionStateMachine,
  type SessionTransition,
  type WaitingReason,
} from './session-state.js';
export {
  buildExecutionReceipt,
  buildToolCallAfterDocument,
  receiptPreview,
  type ShellRunRecord,
  type ExecutionReceipt,
} from './execution-receipt.js';
export {
  observedExitCode,
  outcomeDetail,
  backgroundOutcome,
  notRunOutcome,
  type HookOutcome,
  type HookIdentity,
  type HookSource,
  type SpawnErrorKind,
} from './outcome.js';
export {
  parseToolCallBeforeStdout,
  foldToolCallBefore,
  foldLostToolCallBefore,
  ToolInputPreview,
  type ToolCallBeforeVerdict,
  type GateDecision,
  type GateDecisionRecord,
  type GateHookRecord,
  type GateHookOutcomeKind,
  type DenyKind,
  type FoldToolCallBeforeInput,
} from './tool-call-before.js';
export {
  parseMessageSubmitStdout,
  startMessageSubmitChain,
  stepMessageSubmit,
  finishMessageSubmit,
  foldMessageSubmit,
  lostMessageSubmit,
  type MessageSubmitStdout,
  type MessageSubmitChain,
  type MessageSubmitStep,
  type MessageSubmitResult,
  HOOK_CONTEXT_MARKER,
} from './message-submit.js';
export { parseShellEnvOutput, mergeShellEnv, type ShellEnvParse, type ShellEnvDrop, type ShellEnvDropReason } from './shell-env.js';
export { gateDecisionToJson, gateHookToJson } from './decision-record-json.js';
export { lifecycleHookInput, type LifecycleFact, type LifecycleSessionFacts } from './lifecycle-fact.js';
export { SHELL_TOOL_NAMES, isShellToolName, type ShellToolName } from './shell-tools.js';
export { redactSecrets } from './redact-secrets.js';
export {
  HOOK_PROTOCOLS,
  isHookProtocol,
  ourToPeerToolName,
  peerToOurToolName,
  PEER_TOOL_NAMES,
  isMcpToolName,
  sameTool,
  type HookProtocol,
} from './peer-tool-names.js';
export { PEER_EVENT_NAMES, peerToOurEvent, ourToPeerEvent, type PeerEventName } from './peer-events.js';
export { isAbsolutePath, joinPath, relativeInside, toPeerToolInput, fromPeerToolInput } from './peer-tool-input.js';
export {
  buildPeerDocument,
  peerPermissionMode,
  readPeerGateAnswer,
  readPeerPromptAnswer,
  peerObserverRequests,
  describePeerAnswer,
  peerDocumentForRecord,
  type PeerDocument,
  type PeerDocumentFacts,
  type PeerPermissionMode,
  type PeerRun,
  type PeerGateAnswer,
  type PeerGateCall,
  type PeerPromptAnswer,
} from './peer-protocol.js';
