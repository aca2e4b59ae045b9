import type { ExecutionReceipt, GateDecisionRecord, TurnUsage } from '@codewhale/hooks-payloads';
import type { ErrorCategory, ModelUsage } from './provider/types.js';
import type { Mode } from './modes.js';
import type { WritePreview } from './write-preview.js';
import type { ToolResult, UserInputRequest } from './tools/tool.js';

/**
 * Cumulative usage of a turn (the sum over its model requests): the `turn_end` usage of
 * `@codewhale/hooks-payloads` (`TurnUsage`, one definition of the counts) with every count
 * present — `null` when unknown.
 */
export type TurnUsageTotals = Required<TurnUsage>;

export type TurnStatus = 'completed' | 'interrupted' | 'failed';

/** A pending approval. */
export interface ApprovalRequest {
  readonly id: string;
  readonly callId: string;
  readonly tool: string;
  readonly input: unknown;
  /** Why approval is needed: the posture, a `tool_call_before` hook's `ask`, or a typed `ask` rule. */
  readonly reason: 'posture' | 'hook' | 'permission';
  readonly summary: string;
  /**
   * The `tool_call_before` decision record when hooks were consulted: which hook asked and
   * its (redacted, bounded) reason, and the original input when a hook rewrote it.
   */
  readonly decision?: GateDecisionRecord | null;
  /** A `write` or `edit` call: the diff of what it would change (or the new file), bounded. */
  readonly preview?: WritePreview | null;
}

export type ApprovalDecision = 'allow' | 'allow_session' | 'deny';

/**
 * A denial that is not a person's "no", and why: nobody answered in time (`expired`), the
 * posture asks nobody (`auto_review`), or the turn ended before an answer (`interrupted`).
 * The engine words what the model is told for each (see {@link approvalDenialText}); a
 * surface only says which one happened.
 */
export interface ApprovalDenial {
  readonly deny: 'expired' | 'auto_review' | 'interrupted';
}

/** What an interaction answers to an approval request: a decision (`deny` is a person's), or a denial with its cause. */
export type ApprovalAnswer = ApprovalDecision | ApprovalDenial;

/** The one place that words what the model is told when an approval ends in a denial. */
export function approvalDenialText(cause: 'user' | ApprovalDenial['deny'], reason: ApprovalRequest['reason']): string {
  const why = reason === 'hook' ? 'a tool_call_before hook asked for approval' : reason === 'permission' ? 'a permission rule asked for approval' : 'the posture requires approval for it';
  switch (cause) {
    case 'user':
      return 'the user denied this call. Do not retry the same call.';
    case 'expired':
      return `${why}, and nobody answered in time, so the call was denied (the user did not refuse it). Do not retry the same call now; continue without it or ask the user.`;
    case 'auto_review':
      return `${why}, and Auto-Review asks nobody, so the call was denied (the user was not asked). Do not retry the same call; choose another approach or tell the user it needs approval in Ask posture.`;
    case 'interrupted':
      return `${why}, and the turn ended before anyone answered, so the call did not run.`;
  }
}

/** How a tool call ended, as the engine reports it. */
export interface ToolCallOutcome {
  readonly id: string;
  readonly name: string;
  /** The input that ran (after any hook rewrite), or the model's input for a refused call. */
  readonly input: unknown;
  /** The executed result, or `null` when the call was refused or errored before running. */
  readonly result: ToolResult | null;
  /** For a refused/errored call: the error kind and the text the model saw. */
  readonly error: { readonly kind: string; readonly message: string } | null;
  /** What the model received as the tool message. */
  readonly modelText: string;
  /** The `tool_call_before` decision record, when hooks were consulted. */
  readonly decision: GateDecisionRecord | null;
  /** Side channel: the execution receipt for a settled local shell run (never stored in the result). */
  readonly receipt: ExecutionReceipt | null;
  /** How long the call ran (ms): its gates and any wait for an approval are not included. */
  readonly durationMs: number;
  /** How long it waited for an approval prompt's answer (ms); `null` (or absent) when it asked nobody. */
  readonly approvalWaitMs?: number | null;
}

/** The typed event stream every surface and the session host consume. */
export type EngineEvent =
  | { readonly type: 'turn_started'; readonly turnId: string; readonly createdAt: Date; readonly provider: string; readonly model: string }
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'reasoning_delta'; readonly text: string }
  | { readonly type: 'retry'; readonly attempt: number; readonly delayMs: number; readonly category: ErrorCategory; readonly message: string; readonly status?: number | null }
  | { readonly type: 'tool_call_started'; readonly id: string; readonly name: string; readonly input: unknown }
  | { readonly type: 'tool_call_completed'; readonly outcome: ToolCallOutcome }
  | { readonly type: 'approval_required'; readonly request: ApprovalRequest }
  | { readonly type: 'approval_resolved'; readonly id: string; readonly decision: ApprovalDecision }
  | { readonly type: 'user_input_required'; readonly request: UserInputRequest }
  | { readonly type: 'user_input_answered'; readonly id: string }
  | { readonly type: 'subagent_spawned'; readonly agentId: string; readonly prompt: string; readonly name: string | null }
  | { readonly type: 'subagent_completed'; readonly agentId: string; readonly result: string; readonly status: string }
  | { readonly type: 'usage'; readonly usage: ModelUsage; readonly durationMs: number }
  | { readonly type: 'mode_changed'; readonly from: Mode; readonly to: Mode }
  /** `status`: the HTTP status the model server answered with, when the failure was its answer (see `errorLabel`). */
  | { readonly type: 'error'; readonly category: ErrorCategory; readonly message: string; readonly terminal: boolean; readonly status?: number | null }
  | {
      readonly type: 'turn_completed';
      readonly turnId: string;
      readonly status: TurnStatus;
      readonly error: string | null;
      readonly errorCategory: ErrorCategory | null;
      readonly usage: TurnUsageTotals;
      readonly toolCount: number;
      readonly durationMs: number;
      readonly createdAt: Date;
      readonly provider: string;
      readonly model: string;
      readonly text: string;
    };

export type EngineEventListener = (event: EngineEvent) => void;
