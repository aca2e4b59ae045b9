import type { HookContext, ToolContext } from './context.js';
import type { ExecutionReceipt } from './execution-receipt.js';
import { buildToolCallAfterDocument } from './execution-receipt.js';
import type { JsonValue } from './json.js';
import { toJson } from './json.js';
import { buildSessionErrorDocument, buildSubagentCompleteDocument, buildSubagentSpawnDocument, buildTurnEndDocument, subagentPreview, type TurnEndInput } from './observer-documents.js';
import type { SessionTransition } from './session-state.js';

/** Session-wide facts every lifecycle event carries. */
export interface LifecycleSessionFacts {
  readonly workspace: string | null;
  readonly model: string | null;
  /** Any accepted mode spelling; each event's documented spelling is applied when the hook runs. */
  readonly mode: string | null;
  readonly totalTokens: number | null;
  /** The approval posture, when the surface has one (a peer-protocol hook's `permission_mode`). */
  readonly posture?: string | null;
}

/**
 * A lifecycle event as typed facts. A surface (or the session host) says what happened; the
 * hook runtime turns it into each hook's environment and stdin document with
 * {@link lifecycleHookInput}, so no caller serializes a hook document itself.
 */
export type LifecycleFact =
  | { readonly event: 'session_start' | 'session_end'; readonly facts: LifecycleSessionFacts }
  | { readonly event: 'mode_change'; readonly facts: LifecycleSessionFacts; readonly previousMode: string }
  | { readonly event: 'turn_end'; readonly facts: LifecycleSessionFacts; readonly turn: Omit<TurnEndInput, 'sessionId' | 'workspace'> }
  | { readonly event: 'session_error'; readonly facts: LifecycleSessionFacts; readonly status: string; readonly error: string }
  | { readonly event: 'subagent_spawn'; readonly facts: LifecycleSessionFacts; readonly agentId: string; readonly prompt: string }
  | {
      readonly event: 'subagent_complete';
      readonly facts: LifecycleSessionFacts;
      readonly agentId: string;
      readonly result: string;
      readonly status: string | null;
    }
  | {
      readonly event: 'tool_call_after';
      readonly facts: LifecycleSessionFacts;
      readonly tool: ToolContext;
      readonly receipt: ExecutionReceipt | null;
    }
  | { readonly event: 'on_error'; readonly facts: LifecycleSessionFacts; readonly error: string; readonly tool?: ToolContext | null }
  | { readonly event: SessionTransition['event']; readonly facts: LifecycleSessionFacts; readonly transition: SessionTransition };

/** A turn's facts with the session's id and workspace (theirs win), copied with define semantics. */
function turnWith(turn: Omit<TurnEndInput, 'sessionId' | 'workspace'>, sessionId: string | null, workspace: string | null): TurnEndInput {
  const out = { sessionId, workspace, ...turn } as { -readonly [K in keyof TurnEndInput]: TurnEndInput[K] };
  out.sessionId = sessionId;
  out.workspace = workspace;
  return out;
}

/** The hook context (env source) and stdin document (`null`: env only) of a lifecycle fact. */
export function lifecycleHookInput(fact: LifecycleFact, sessionId: string | null): { readonly ctx: HookContext; readonly stdin: string | null } {
  const f = fact.facts;
  const base: HookContext = { event: fact.event, sessionId, workspace: f.workspace, model: f.model, mode: f.mode, totalTokens: f.totalTokens, posture: f.posture ?? null };
  const sub = { sessionId, workspace: f.workspace, mode: f.mode, model: f.model, totalTokens: f.totalTokens };
  // `Object.assign` onto a fresh object rather than `{ ...base, more }`: on Node 20 each property
  // a literal adds after a spread costs ~1–2 µs, and this runs for every observer event. Only
  // the literals above (fixed keys) are assigned from.
  const ctx = (extra: Partial<HookContext>): HookContext => Object.assign({}, base, extra);
  switch (fact.event) {
    case 'session_start':
    case 'session_end':
      return { ctx: base, stdin: null };
    case 'mode_change':
      return { ctx: ctx({ previousMode: fact.previousMode }), stdin: null };
    case 'turn_end':
      return { ctx: base, stdin: toJson(buildTurnEndDocument(turnWith(fact.turn, sessionId, f.workspace)) as JsonValue) };
    case 'session_error':
      return { ctx: base, stdin: toJson(buildSessionErrorDocument(fact.status, fact.error) as JsonValue) };
    case 'subagent_spawn':
      return {
        ctx: ctx({ message: subagentPreview(fact.prompt).preview }),
        stdin: toJson(buildSubagentSpawnDocument(Object.assign({}, sub, { agentId: fact.agentId, prompt: fact.prompt })) as JsonValue),
      };
    case 'subagent_complete':
      return {
        ctx: ctx({ message: subagentPreview(fact.result).preview }),
        stdin: toJson(buildSubagentCompleteDocument(Object.assign({}, sub, { agentId: fact.agentId, result: fact.result, status: fact.status })) as JsonValue),
      };
    case 'tool_call_after':
      return {
        ctx: ctx({ tool: fact.tool }),
        stdin: buildToolCallAfterDocument({ toolName: fact.tool.name, sessionId, toolCallId: fact.tool.callId ?? null, receipt: fact.receipt }),
      };
    case 'on_error':
      return { ctx: ctx({ error: fact.error, tool: fact.tool ?? null }), stdin: null };
    case 'session_busy':
    case 'waiting_for_user':
    case 'session_idle':
      return { ctx: base, stdin: toJson(fact.transition.payload as unknown as JsonValue) };
  }
}
