/**
 * @codewhale/hooks-ai-sdk — the user's own Codewhale hooks around the tools of a Vercel AI SDK
 * (v6) agent. `withHooks(tools, hooks)` returns the same tool set with every tool's
 * `execute` gated by `tool_call_before`, its shell command given the `shell_env` values, its
 * result finished for the model and `tool_call_after` fired.
 */
import { asSchema, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import type { ApprovalRequest, Hooks, ToolGate, ValidationResult } from '@codewhale/hooks';

export interface WithHooksOptions {
  /**
   * Ask a person when a hook says `ask` (`true`: run the call). Without it, an `ask` goes
   * through the AI SDK's own approval flow: the tool reports `needsApproval`, and the call
   * runs once your app answers the `tool-approval-request` with an approval.
   */
  readonly approve?: (request: ApprovalRequest) => boolean | PromiseLike<boolean>;
  /** The mode hooks see in `DEEPSEEK_MODE` (default: the one `openHooks` was given). */
  readonly mode?: string;
}

/** The refusal a hook (or a person) gave: thrown from `execute`, so the model gets it as the tool's error. */
export class ToolCallDenied extends Error {
  readonly hook: string | null;
  readonly aborted: boolean;
  constructor(gate: Pick<ToolGate, 'reason' | 'hook' | 'aborted'>) {
    super(gate.reason ?? 'denied by a tool_call_before hook');
    this.name = 'ToolCallDenied';
    this.hook = gate.hook;
    this.aborted = gate.aborted;
  }
}

const envs = new WeakMap<object, ReadonlyMap<string, string>>();
const NO_ENV: ReadonlyMap<string, string> = new Map();

/**
 * The `shell_env` values for the call a wrapped `execute` is running (empty for any tool but
 * the shell tool). Give them to the command's environment only, e.g. with
 * `shellCommandEnv(process.env, hookEnv(options))` of `@codewhale/hooks`.
 */
export function hookEnv(options: ToolExecutionOptions): ReadonlyMap<string, string> {
  return envs.get(options) ?? NO_ENV;
}

type Validator = (input: unknown) => Promise<ValidationResult>;

/** The tool's input schema as a validator: its Standard Schema when it has one (zod), else the AI SDK's own check. */
function validatorOf(t: Tool): Validator {
  const raw = t.inputSchema as unknown;
  if (raw && typeof raw === 'object' && '~standard' in raw) {
    const std = (raw as { '~standard': { validate: (v: unknown) => unknown } })['~standard'];
    return async (input) => {
      const r = (await std.validate(input)) as { value?: unknown; issues?: readonly { message: string; path?: readonly unknown[] }[] };
      if (!r.issues) return { ok: true, value: r.value };
      const text = r.issues
        .slice(0, 5)
        .map((i) => `${i.path?.length ? i.path.map((p) => (typeof p === 'object' && p !== null && 'key' in p ? String((p as { key: unknown }).key) : String(p))).join('.') : '(input)'}: ${i.message}`)
        .join('; ');
      return { ok: false, issues: text };
    };
  }
  const schema = asSchema(t.inputSchema);
  return async (input) => {
    if (!schema.validate) return { ok: true, value: input };
    const r = await schema.validate(input);
    // The SDK's error quotes the whole value: say only that it does not match.
    return r.success ? { ok: true, value: r.value } : { ok: false, issues: "the input does not match the tool's input schema" };
  };
}

const resultText = (output: unknown): string => (typeof output === 'string' ? output : (JSON.stringify(output) ?? ''));

/**
 * Wrap every tool of an AI SDK tool set with the user's hooks. For each call, in order:
 *
 * 1. `tool_call_before` (the SDK already checked the model's input against the schema). A
 *    `deny` throws {@link ToolCallDenied}: the model gets the reason as the tool's error.
 *    An `ask` goes to `approve`, or — without it — to the SDK's approval flow
 *    (`needsApproval`). A rewrite is checked again against the tool's input schema; one the
 *    tool refuses denies the call.
 * 2. `shell_env`, for the shell tool (`bash`, `Bash`, `exec_shell`) only: read the values with
 *    {@link hookEnv} inside `execute`.
 * 3. The tool's own `execute`, with the (rewritten) input and the SDK's abort signal, which
 *    also kills running hooks.
 * 4. `tool_call_after` (and `on_error` if `execute` threw) — for refused calls too.
 * 5. What the model sees: `shell_env` values masked as `***`, the hooks' `additionalContext`
 *    appended as `[hook context] …` (through `toModelOutput`; the output your app gets is the
 *    tool's own).
 *
 * Parallel calls of one step are gated independently (by tool call id). Tools without
 * `execute` (client-side tools) and provider-executed tools are returned unchanged: nothing
 * runs them here.
 */
export function withHooks<TOOLS extends ToolSet>(tools: TOOLS, hooks: Hooks, options: WithHooksOptions = {}): TOOLS {
  const out: Record<string, Tool> = {};
  for (const [name, t] of Object.entries(tools) as [string, Tool][]) {
    out[name] = t.execute && t.type !== 'provider' ? wrap(name, t, hooks, options) : t;
  }
  return out as TOOLS;
}

function wrap(name: string, t: Tool, hooks: Hooks, options: WithHooksOptions): Tool {
  const execute = t.execute!;
  const validate = validatorOf(t);
  // Gates decided in needsApproval (SDK approval flow), by tool call id, for execute to use.
  const gates = new Map<string, ToolGate>();
  // The hooks' context of each call that ran, by tool call id, for toModelOutput.
  const contexts = new Map<string, string>();
  const mode = options.mode !== undefined ? { mode: options.mode } : {};
  const gate = (input: unknown, callId: string, signal: AbortSignal | null, approve: WithHooksOptions['approve'] | null) =>
    hooks.beforeToolCall({ name, callId, input, validate, signal, shellEnv: false, ...(approve ? { approve } : {}), ...mode });

  const wrapped: Tool = { ...t };
  if (!options.approve) {
    const own = t.needsApproval;
    wrapped.needsApproval = async (input: unknown, o: Parameters<Extract<NonNullable<Tool['needsApproval']>, (...a: never[]) => unknown>>[1]) => {
      const g = await gate(input, o.toolCallId, null, null);
      gates.set(o.toolCallId, g);
      if (g.decision === 'ask') return true;
      // A deny runs execute, which reports it to the model as the tool's error.
      if (g.decision === 'deny') return false;
      return typeof own === 'function' ? await own(g.input as never, o) : own === true;
    };
  }
  wrapped.execute = async (input: unknown, o: ToolExecutionOptions) => {
    const signal = o.abortSignal ?? null;
    let g = gates.get(o.toolCallId);
    gates.delete(o.toolCallId);
    // Without a decision from needsApproval, the gate runs now; with the SDK's flow an `ask`
    // that reaches execute was approved by the app.
    g ??= await gate(input, o.toolCallId, signal, options.approve ?? null);
    if (g.decision === 'deny') {
      await hooks.afterToolCall({ name, callId: o.toolCallId, input, result: g.reason ?? '', success: false, gate: g });
      throw new ToolCallDenied(g);
    }
    const env = (await hooks.shellEnv({ name, input: g.input, signal })).vars;
    if (signal?.aborted) throw new ToolCallDenied({ reason: 'the tool call was cancelled', hook: null, aborted: true });
    const opts: ToolExecutionOptions = { ...o };
    envs.set(opts, env);
    let output: unknown;
    try {
      output = await execute(g.input as never, opts);
    } catch (e) {
      await hooks.afterToolCall({ name, callId: o.toolCallId, input: g.input, result: e instanceof Error ? e.message : String(e), success: false, gate: g });
      throw e;
    }
    await hooks.afterToolCall({ name, callId: o.toolCallId, input: g.input, result: resultText(output), success: true, gate: g });
    if (g.context) contexts.set(o.toolCallId, g.context);
    return output;
  };
  const ownOutput = t.toModelOutput;
  wrapped.toModelOutput = async (o: Parameters<NonNullable<Tool['toModelOutput']>>[0]) => {
    const context = contexts.get(o.toolCallId) ?? null;
    const base = ownOutput ? await ownOutput(o) : typeof o.output === 'string' ? { type: 'text' as const, value: o.output } : { type: 'json' as const, value: o.output };
    if (base.type === 'text') return { ...base, value: hooks.decorate({ context }, base.value) };
    if (base.type === 'json') {
      const text = JSON.stringify(base.value) ?? '';
      const finished = hooks.decorate({ context }, text);
      return finished === text ? base : { type: 'text' as const, value: finished };
    }
    return base;
  };
  return wrapped;
}
