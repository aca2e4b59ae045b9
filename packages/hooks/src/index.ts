/**
 * @codewhale/hooks — the user's own Codewhale hooks in any agent loop. `openHooks()` returns
 * one object: `beforeToolCall` gates a call (deny, ask with its reason, a re-validated
 * rewrite, context, `shell_env` values for a shell command), `decorate` finishes the result
 * the model sees, `afterToolCall` fires the observers, `lifecycle` the session's events.
 */
export {
  openHooks,
  Hooks,
  Lifecycle,
  HooksConfigError,
  type OpenHooksOptions,
  type BeforeToolCall,
  type ApprovalRequest,
  type CallOptions,
  type HooksNotice,
  type TurnEnd,
} from './hooks.js';
export { appendHookContext, type ToolGate, type Validate, type ValidationResult, type StandardSchemaLike } from './tool-gate.js';
export { shellEnvCall, type ToolCallResult } from './tool-rules.js';
export { shellCommandEnv, isAllowedParentVar } from './shell-command-env.js';
export { SecretMask, MASK, MASK_MIN_CHARS } from './secret-mask.js';
export type { GateDecisionRecord, MessageSubmitResult, HookOutcome, HookEventName } from '@codewhale/hooks-payloads';
