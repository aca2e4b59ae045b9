import type { z } from 'zod';
import { engineModeSpelling, type GateDecisionRecord } from '@codewhale/hooks-payloads';
import { isDangerousCommand } from './dangerous-command.js';
import type { Mode, Posture } from './modes.js';
import { toolSpec } from './tools/registry.js';
import { ToolError, type ToolDefinition } from './tools/tool.js';
import type { EngineHooks } from './engine-hooks.js';
import { gateOf } from '@codewhale/hooks/internal';

/** The `tool_call_before` step of the gate chain: the operator's hooks folded into one record. */
/** The `tool_call_before` step: the dispatcher's own (see {@link EngineHooks}). */
export type ToolCallGate = EngineHooks['toolCallBefore'];

/** What a typed permission rule (`permissions.toml`) says about one call; `null` when no rule matches. */
export interface PermissionVerdict {
  readonly action: 'allow' | 'ask' | 'deny';
  /** Where the rule came from, for messages: `permissions.toml:7`. */
  readonly origin: string;
}

/** The typed rules step of the gate chain. */
export type PermissionCheck = (call: { readonly name: string; readonly input: unknown; readonly workspace: string }) => PermissionVerdict | null;

/** Where in the gate chain a call stopped (or `ready` when it may run). */
export type PlanStage = 'cancelled' | 'lookup' | 'parse' | 'mode' | 'schema' | 'hooks' | 'rewrite' | 'permissions' | 'posture' | 'ready';

/** Why a call that may run still needs a person's approval. */
export type ApprovalNeed = 'posture' | 'hook' | 'permission' | null;

export type ToolPlan =
  | {
      readonly kind: 'ready';
      readonly tool: ToolDefinition;
      /** The input that runs: schema-prepared, after any hook rewrite. */
      readonly input: unknown;
      readonly approval: ApprovalNeed;
      /** `additionalContext` for the model, appended only if the tool runs. */
      readonly context: string | null;
      readonly decision: GateDecisionRecord | null;
      readonly permission: PermissionVerdict | null;
      readonly stage: 'ready';
    }
  | {
      readonly kind: 'blocked';
      readonly input: unknown;
      readonly error: ToolError;
      readonly decision: GateDecisionRecord | null;
      readonly permission: PermissionVerdict | null;
      readonly stage: Exclude<PlanStage, 'ready'>;
      /** For `schema` and `rewrite`: the tool's objections (`command: expected string`), bounded. */
      readonly issues?: string;
    };

export interface PlanToolCallInput {
  readonly call: { readonly id: string; readonly name: string; readonly arguments: string };
  /** The tools this session offers (after allow/deny lists). */
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  /** Every tool the engine knows (to tell "not allowed here" from "unknown"). */
  readonly knownTools: readonly ToolDefinition[];
  readonly workspace: string;
  readonly mode: Mode;
  readonly posture: Posture;
  readonly model: string;
  /** `null`: no `tool_call_before` hooks are configured. */
  readonly gate: ToolCallGate | null;
  readonly permissions?: PermissionCheck | null;
  /** Tools the user allowed for the rest of the session ("allow for this session"). */
  readonly sessionAllowed?: ReadonlySet<string>;
  /** Nobody can answer an approval (exec): a hook's or a rule's `ask` denies. */
  readonly askFailsClosed?: boolean;
  /** The turn's signal: aborting kills the running gates (the call is then refused as cancelled). */
  readonly signal?: AbortSignal | null;
}

/** Parse the model's argument string: `{}` for an empty one, `null` for invalid JSON. */
export function parseToolArguments(args: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } {
  if (args.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(args) };
  } catch {
    return { ok: false };
  }
}

export function zodIssuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : '(input)'}: ${i.message}`)
    .join('; ');
}

function blocked(
  stage: Exclude<PlanStage, 'ready'>,
  input: unknown,
  error: ToolError,
  decision: GateDecisionRecord | null = null,
  permission: PermissionVerdict | null = null,
  issues?: string,
): ToolPlan {
  return { kind: 'blocked', input, error, decision, permission, stage, ...(issues !== undefined ? { issues } : {}) };
}

function needsPostureApproval(tool: ToolDefinition, input: unknown, posture: Posture, sessionAllowed: ReadonlySet<string>): boolean {
  if (posture === 'full_access') return false;
  if (tool.kind === 'read' || tool.kind === 'meta' || tool.kind === 'interactive') return false;
  if (posture === 'auto_review') return tool.kind === 'shell' && isDangerousCommand(String((input as { command?: unknown }).command ?? ''));
  return !sessionAllowed.has(tool.name);
}

/**
 * The gate chain every tool call crosses before it may run — the one implementation shared by
 * a session, `hooks test` and `hooks test --replay`, so a dry run cannot drift from a real run.
 * In order:
 *
 * 1. lookup: the tool exists and is allowed in this session;
 * 2. parse: the arguments are JSON;
 * 3. mode: Plan mode refuses shell and write tools (hooks never see such a call);
 * 4. schema: the tool prepares the input (defaults filled in);
 * 5. hooks: `tool_call_before` — a deny blocks; a rewrite is prepared again (6: rewrite),
 *    and an input the tool rejects blocks; `ask` requests approval unless Full Access;
 * 7. permissions: typed `permissions.toml` rules — `deny` blocks in every posture, `ask`
 *    requests approval like a hook's `ask`, `allow` skips the posture prompt but never clears
 *    a hook's `ask`;
 * 8. posture: Ask prompts for shell and write tools (unless allowed for the session),
 *    Auto-Review refuses dangerous shell commands, Full Access never prompts.
 *
 * When nobody can answer (`askFailsClosed`), an `ask` from a hook or a rule denies.
 */
export async function planToolCall(p: PlanToolCallInput): Promise<ToolPlan> {
  const { call } = p;
  const parsedArgs = parseToolArguments(call.arguments);
  const rawInput = parsedArgs.ok ? parsedArgs.value : call.arguments;
  const tool = p.tools.get(call.name);
  if (!tool) {
    const known = p.knownTools.some((t) => t.name === call.name);
    const offered = [...p.tools.values()].filter((t) => !t.hidden).map((t) => t.name);
    return blocked(
      'lookup',
      rawInput,
      new ToolError(known ? 'not_allowed' : 'unknown_tool', known ? `tool '${call.name}' is not allowed in this session` : `unknown tool '${call.name}'. Available tools: ${offered.join(', ')}`),
    );
  }
  if (!parsedArgs.ok) return blocked('parse', rawInput, new ToolError('parse_error', `the arguments for '${call.name}' are not valid JSON`));
  if (p.mode === 'plan' && (tool.kind === 'shell' || tool.kind === 'write')) {
    return blocked('mode', rawInput, new ToolError('plan_mode', 'Plan mode does not run shell commands or change files. Switch with /mode work to proceed.'));
  }
  const prepared = tool.schema.safeParse(rawInput);
  if (!prepared.success) {
    const issues = zodIssuesText(prepared.error);
    return blocked(
      'schema',
      rawInput,
      new ToolError('invalid_input', `invalid input for '${tool.name}': ${issues}. Expected input schema: ${JSON.stringify(toolSpec(tool).parameters)}`),
      null,
      null,
      issues,
    );
  }
  let input: unknown = prepared.data;
  let decision: GateDecisionRecord | null = null;
  let context: string | null = null;
  let hookAsked = false;
  if (p.gate) {
    decision = await p.gate({ name: tool.name, callId: call.id, input, mode: engineModeSpelling(p.mode), model: p.model, posture: p.posture, ...(p.signal ? { signal: p.signal } : {}) });
    if (p.signal?.aborted) return blocked('cancelled', input, new ToolError('cancelled', 'the turn was cancelled'), decision);
    // The hook rules (deny, ask, a rewrite prepared again by the tool's schema, context) are @codewhale/hooks's.
    const gate = await gateOf(decision, input, tool.schema);
    if (gate.invalidRewrite !== null) return blocked('rewrite', gate.input, new ToolError('invalid_input', gate.reason!), decision, null, gate.invalidRewrite);
    if (gate.decision === 'deny') return blocked('hooks', input, new ToolError('hook_denied', gate.reason ?? 'denied by a tool_call_before hook'), decision);
    input = gate.input;
    context = gate.context;
    hookAsked = gate.decision === 'ask';
  }
  const permission = p.permissions ? p.permissions({ name: tool.name, input, workspace: p.workspace }) : null;
  if (permission?.action === 'deny') {
    return blocked('permissions', input, new ToolError('approval_denied', `a permission rule (${permission.origin}) denies this call`), decision, permission);
  }
  const asked = hookAsked ? 'hook' : permission?.action === 'ask' ? 'permission' : null;
  let approval: ApprovalNeed = null;
  if (asked) {
    if (p.askFailsClosed) {
      const who = asked === 'hook' ? 'a tool_call_before hook' : `a permission rule (${permission!.origin})`;
      return blocked('hooks', input, new ToolError('approval_denied', `${who} asked for approval, and this run cannot prompt anyone, so the call is denied`), decision, permission);
    }
    if (p.posture !== 'full_access') approval = asked;
  }
  const typedAllow = permission?.action === 'allow';
  if (approval === null && !typedAllow && needsPostureApproval(tool, input, p.posture, p.sessionAllowed ?? new Set())) {
    if (p.posture === 'auto_review') {
      return blocked('posture', input, new ToolError('approval_denied', 'Auto-Review refused this command as dangerous; it needs explicit approval in Ask posture'), decision, permission);
    }
    approval = 'posture';
  }
  return { kind: 'ready', tool, input, approval, context, decision, permission, stage: 'ready' };
}
