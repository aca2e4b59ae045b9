import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import type { GateDecisionRecord } from '@codewhale/hooks-payloads';
import type { EngineHooks } from './engine-hooks.js';
import { appendHookContext, SecretMask } from '@codewhale/hooks';
import { EngineError, errorCategory, errorMessage } from './errors.js';
import {
  approvalDenialText,
  type ApprovalAnswer,
  type ApprovalDecision,
  type ApprovalRequest,
  type EngineEvent,
  type EngineEventListener,
  type ToolCallOutcome,
  type TurnStatus,
  type TurnUsageTotals,
} from './events.js';
import type { Mode, Posture } from './modes.js';
import { streamWithRetry } from './provider/retry.js';
import { ZERO_USAGE } from './provider/usage.js';
import { ProviderError, type ChatMessage, type ErrorCategory, type ModelProvider, type ModelToolCall, type ModelToolSpec, type ModelUsage } from './provider/types.js';
import { BUILTIN_TOOLS, selectTools, toolSpec } from './tools/registry.js';
import { parseToolArguments, planToolCall, type PermissionCheck, type ToolPlan } from './plan-tool-call.js';
import { ToolError, type ToolRunContext, type ToolDefinition, type ToolResult, type UserInputAnswer, type UserInputRequest } from './tools/tool.js';
import { defaultSystemPrompt } from './system-prompt.js';
import { readForPreview } from './tools/file-tools.js';
import { previewWrite } from './write-preview.js';

/** How the session asks a person (or a policy) for decisions. */
export interface Interaction {
  /** `deny` is a person's "no"; a denial for another reason says which ({@link ApprovalAnswer}). */
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  /** `null` means nobody can answer: the tool tells the model to decide autonomously. */
  askUser(request: UserInputRequest, signal: AbortSignal): Promise<UserInputAnswer | null>;
}

/** Nobody is there: approvals are denied, questions are auto-resolved. */
export const NO_INTERACTION: Interaction = {
  approve: async () => 'deny',
  askUser: async () => null,
};

export interface AgentSessionOptions {
  readonly provider: ModelProvider;
  readonly workspace: string;
  readonly mode?: Mode;
  readonly posture?: Posture;
  /** The operator's hooks (`tool_call_before`, `shell_env`); `null` fires none (sub-agents). */
  readonly hooks?: EngineHooks | null;
  readonly interaction?: Interaction;
  readonly tools?: readonly ToolDefinition[];
  readonly allowedTools?: readonly string[] | null;
  readonly disallowedTools?: readonly string[];
  /** Model requests per turn (default 50). */
  readonly maxSteps?: number;
  readonly systemPrompt?: string;
  /** Headless runs: a hook's `ask` cannot be prompted, so it denies — even under Full Access (D25). */
  readonly askFailsClosed?: boolean;
  /** Sub-agent nesting: this session's depth (0 for the top) and the deepest allowed. */
  readonly depth?: number;
  readonly maxDepth?: number;
  /** The environment shell commands draw their allowlist from (default: this process's). */
  readonly parentEnv?: Readonly<Record<string, string | undefined>>;
  readonly retry?: { readonly maxRetries?: number; readonly initialDelayMs?: number; readonly maxDelayMs?: number };
  /** Typed `permissions.toml` rules, checked in the gate chain after the hooks. */
  readonly permissions?: PermissionCheck | null;
  /** A stored conversation to continue (system messages are ignored: the prompt is rebuilt). */
  readonly history?: readonly ChatMessage[];
  readonly todos?: readonly { content: string; status: string }[];
}

/** What a finished turn reports to the caller. */
export interface TurnSummary {
  readonly turnId: string;
  readonly status: TurnStatus;
  readonly error: string | null;
  readonly errorCategory: ErrorCategory | null;
  /** The assistant's text from the turn's last model response. */
  readonly text: string;
  readonly usage: TurnUsageTotals;
  readonly toolCount: number;
  readonly durationMs: number;
}

const EMPTY_USAGE: TurnUsageTotals = {
  inputTokens: 0,
  outputTokens: 0,
  promptCacheHitTokens: null,
  promptCacheMissTokens: null,
  promptCacheWriteTokens: null,
  reasoningTokens: null,
  reasoningReplayTokens: null,
};

function addNullable(a: number | null, b: number | null): number | null {
  return a === null && b === null ? null : (a ?? 0) + (b ?? 0);
}

function addUsage(total: TurnUsageTotals, u: ModelUsage, replay: number | null): TurnUsageTotals {
  return {
    inputTokens: total.inputTokens + u.inputTokens,
    outputTokens: total.outputTokens + u.outputTokens,
    promptCacheHitTokens: addNullable(total.promptCacheHitTokens, u.promptCacheHitTokens),
    promptCacheMissTokens: addNullable(total.promptCacheMissTokens, u.promptCacheMissTokens),
    promptCacheWriteTokens: addNullable(total.promptCacheWriteTokens, u.promptCacheWriteTokens),
    reasoningTokens: addNullable(total.reasoningTokens, u.reasoningTokens),
    reasoningReplayTokens: addNullable(total.reasoningReplayTokens, replay),
  };
}

const hex = (n: number) => randomBytes(n).toString('hex');

/** The text the model sees for a call that did not run. */
export function toolErrorText(name: string, error: ToolError): string {
  switch (error.kind) {
    case 'hook_denied': {
      const suffix = /\bmode\b/i.test(error.message) ? '' : ' Adjust approval mode or request permission.';
      return `Error: Tool '${name}' was denied: ${error.message}.${suffix}`;
    }
    case 'approval_denied':
      return `Error: Tool '${name}' was denied: ${error.message}`;
    case 'plan_mode':
      return `Error: Tool '${name}' was denied: ${error.message}`;
    default:
      return `Error: ${error.message}`;
  }
}

/**
 * One agent conversation: it steps the model until it stops calling tools (bounded by
 * `maxSteps`), and runs each tool call through, in order: parse → Plan-mode gate →
 * preparation (schema) → `tool_call_before` hooks (deny, ask, rewrite re-validated against the
 * schema, context) → approval → execution → result. Every call ends with a
 * `tool_call_completed` event, refused ones included.
 */
export class AgentSession {
  readonly provider: ModelProvider;
  readonly workspace: string;
  readonly #hooks: EngineHooks | null;
  /** The values `shell_env` hooks produced in this session: masked in every tool output. */
  readonly #mask = new SecretMask();
  readonly #interaction: Interaction;
  readonly #tools: readonly ToolDefinition[];
  readonly #byName: ReadonlyMap<string, ToolDefinition>;
  /** The tool list the model is offered: built once per session, the same array on every request. */
  readonly #toolSpecs: readonly ModelToolSpec[];
  readonly #maxSteps: number;
  readonly #systemPrompt: string | undefined;
  readonly #askFailsClosed: boolean;
  readonly #depth: number;
  readonly #maxDepth: number;
  readonly #parentEnv: Readonly<Record<string, string | undefined>>;
  readonly #retry: AgentSessionOptions['retry'];
  readonly #permissions: PermissionCheck | null;
  readonly #listeners = new Set<EngineEventListener>();
  readonly #history: ChatMessage[] = [];
  readonly #sessionAllowed = new Set<string>();
  readonly #steers: string[] = [];
  #mode: Mode;
  #posture: Posture;
  #sessionTrust = false;
  #active: AbortController | null = null;
  #todos: readonly { content: string; status: string }[] = [];
  #agentCounter = 0;

  constructor(options: AgentSessionOptions) {
    this.provider = options.provider;
    try {
      this.workspace = realpathSync(options.workspace);
    } catch {
      throw new EngineError('invalid_input', `the workspace does not exist: ${options.workspace}`);
    }
    this.#mode = options.mode ?? 'work';
    this.#posture = options.posture ?? 'ask';
    this.#hooks = options.hooks ?? null;
    this.#interaction = options.interaction ?? NO_INTERACTION;
    this.#depth = options.depth ?? 0;
    this.#maxDepth = options.maxDepth ?? 1;
    let tools = selectTools(options.tools ?? BUILTIN_TOOLS, options.allowedTools ?? null, options.disallowedTools ?? []);
    if (this.#depth >= this.#maxDepth) tools = tools.filter((t) => t.kind !== 'agent');
    this.#tools = tools;
    this.#byName = new Map(tools.map((t) => [t.name, t]));
    this.#toolSpecs = Object.freeze(tools.filter((t) => !t.hidden).map(toolSpec));
    this.#maxSteps = options.maxSteps ?? 50;
    this.#systemPrompt = options.systemPrompt;
    this.#askFailsClosed = options.askFailsClosed ?? false;
    this.#parentEnv = options.parentEnv ?? process.env;
    this.#retry = options.retry;
    this.#permissions = options.permissions ?? null;
    for (const m of options.history ?? []) if (m.role !== 'system') this.#history.push(m);
    this.#todos = options.todos ?? [];
  }

  /** Start a new conversation: history and todos are cleared (refused while a turn runs). */
  clear(): void {
    if (this.#active) throw new EngineError('state', 'cannot clear the conversation while a turn is running');
    this.#history.length = 0;
    this.#todos = [];
  }

  /** Subscribe to the event stream; returns the unsubscribe function. */
  on(listener: EngineEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(event: EngineEvent): void {
    for (const l of this.#listeners) {
      try {
        l(event);
      } catch {
        // A listener's failure is its own; the session keeps going.
      }
    }
  }

  get mode(): Mode {
    return this.#mode;
  }

  /** Apply a mode change; emits `mode_changed` when the mode really changes. */
  setMode(mode: Mode): void {
    if (mode === this.#mode) return;
    const from = this.#mode;
    this.#mode = mode;
    this.#emit({ type: 'mode_changed', from, to: mode });
  }

  get posture(): Posture {
    return this.#posture;
  }

  setPosture(posture: Posture): void {
    this.#posture = posture;
  }

  /** Session trust: file tools may reach outside the workspace (never affects hooks). */
  get sessionTrust(): boolean {
    return this.#sessionTrust;
  }

  setSessionTrust(on: boolean): void {
    this.#sessionTrust = on;
  }

  get busy(): boolean {
    return this.#active !== null;
  }

  get history(): readonly ChatMessage[] {
    return this.#history;
  }

  get todos(): readonly { content: string; status: string }[] {
    return this.#todos;
  }

  /** The tools offered to the model (hidden compatibility names excluded). */
  get toolNames(): string[] {
    return this.#tools.filter((t) => !t.hidden).map((t) => t.name);
  }

  /** Cancel the running turn (no-op when idle). */
  cancel(): void {
    this.#active?.abort();
  }

  /** Queue text for the running turn; it joins the history at the next step. False when idle. */
  steer(text: string): boolean {
    if (!this.#active) return false;
    this.#steers.push(text);
    return true;
  }

  #system(): ChatMessage {
    return { role: 'system', content: this.#systemPrompt ?? defaultSystemPrompt({ workspace: this.workspace, mode: this.#mode, toolNames: this.toolNames }) };
  }

  /** Run one turn for a user message. Never throws for model or tool failures: they end the turn as `failed`. */
  async runTurn(text: string): Promise<TurnSummary> {
    if (this.#active) throw new EngineError('state', 'a turn is already running in this session');
    const controller = new AbortController();
    this.#active = controller;
    const signal = controller.signal;
    const turnId = `turn_${hex(4)}`;
    const createdAt = new Date();
    const started = performance.now();
    this.#emit({ type: 'turn_started', turnId, createdAt, provider: this.provider.id, model: this.provider.model });
    this.#history.push({ role: 'user', content: text });
    let usage = EMPTY_USAGE;
    let toolCount = 0;
    let finalText = '';
    let status: TurnStatus = 'completed';
    let error: string | null = null;
    let category: ErrorCategory | null = null;
    try {
      for (let step = 0; ; step++) {
        if (signal.aborted) {
          status = 'interrupted';
          break;
        }
        for (const s of this.#steers.splice(0)) this.#history.push({ role: 'user', content: s });
        if (step >= this.#maxSteps) {
          throw new EngineError('budget', `the turn reached its step limit (${this.#maxSteps} model requests)`);
        }
        const response = await this.#callModel(signal);
        usage = addUsage(usage, response.usage, response.replayTokens);
        finalText = response.text;
        this.#history.push({
          role: 'assistant',
          content: response.text === '' ? null : response.text,
          ...(response.reasoning ? { reasoningContent: response.reasoning } : {}),
          ...(response.calls.length ? { toolCalls: response.calls } : {}),
        });
        if (response.calls.length === 0) break;
        // Planning pass over the whole batch (hooks included) before the first call runs.
        const planned: { call: ModelToolCall; plan: ToolPlan }[] = [];
        for (const call of response.calls) {
          this.#emit({ type: 'tool_call_started', id: call.id, name: call.name, input: argumentsOrText(call.arguments) });
          planned.push({ call, plan: signal.aborted ? cancelled(call) : await this.#plan(call, signal) });
        }
        for (const { call, plan } of planned) {
          let outcome: ToolCallOutcome;
          if (signal.aborted && plan.kind === 'ready') outcome = this.#finish(call, cancelled(call) as Refusal, 0);
          else outcome = await this.#execute(call, plan, signal);
          toolCount++;
          this.#history.push({ role: 'tool', toolCallId: call.id, content: outcome.modelText });
          this.#emit({ type: 'tool_call_completed', outcome });
        }
      }
    } catch (e) {
      category = errorCategory(e);
      if (category === 'cancelled' || signal.aborted) {
        status = 'interrupted';
        category = 'cancelled';
      } else {
        status = 'failed';
        error = errorMessage(e);
        this.#emit({ type: 'error', category, message: error, terminal: true, status: ProviderError.isInstance(e) ? e.status : null });
      }
    } finally {
      this.#active = null;
    }
    const durationMs = Math.round(performance.now() - started);
    this.#emit({
      type: 'turn_completed',
      turnId,
      status,
      error,
      errorCategory: status === 'completed' ? null : category,
      usage,
      toolCount,
      durationMs,
      createdAt,
      provider: this.provider.id,
      model: this.provider.model,
      text: finalText,
    });
    return { turnId, status, error, errorCategory: status === 'completed' ? null : category, text: finalText, usage, toolCount, durationMs };
  }

  async #callModel(signal: AbortSignal): Promise<{ text: string; reasoning: string; calls: ModelToolCall[]; usage: ModelUsage; replayTokens: number | null }> {
    const messages = [this.#system(), ...this.#history];
    const replayChars = this.#history.reduce((n, m) => n + (m.role === 'assistant' && m.reasoningContent ? m.reasoningContent.length : 0), 0);
    const request = { model: this.provider.model, messages, tools: this.#toolSpecs };
    let text = '';
    let reasoning = '';
    let calls: ModelToolCall[] = [];
    let usage: ModelUsage | null = null;
    const started = performance.now();
    for await (const ev of streamWithRetry(this.provider, request, { signal, ...this.#retry })) {
      switch (ev.type) {
        case 'retry':
          text = '';
          reasoning = '';
          calls = [];
          usage = null;
          this.#emit({ type: 'retry', attempt: ev.attempt, delayMs: ev.delayMs, category: ev.category, message: ev.message, status: ev.status });
          break;
        case 'text':
          text += ev.delta;
          this.#emit({ type: 'text_delta', text: ev.delta });
          break;
        case 'reasoning':
          reasoning += ev.delta;
          this.#emit({ type: 'reasoning_delta', text: ev.delta });
          break;
        case 'tool_call':
          calls.push(ev.call);
          break;
        case 'usage':
          usage = ev.usage;
          break;
        case 'finish':
          break;
      }
    }
    const final: ModelUsage = usage ?? ZERO_USAGE;
    this.#emit({ type: 'usage', usage: final, durationMs: Math.round(performance.now() - started) });
    return { text, reasoning, calls, usage: final, replayTokens: replayChars > 0 ? Math.ceil(replayChars / 4) : null };
  }

  /** Plan one call (its gates included). */
  #plan(call: ModelToolCall, signal: AbortSignal): Promise<ToolPlan> {
    const hooks = this.#hooks;
    return planToolCall({
      call,
      tools: this.#byName,
      knownTools: BUILTIN_TOOLS,
      workspace: this.workspace,
      mode: this.#mode,
      posture: this.#posture,
      model: this.provider.model,
      gate: hooks?.has('tool_call_before') ? (c) => hooks.toolCallBefore(c) : null,
      permissions: this.#permissions,
      sessionAllowed: this.#sessionAllowed,
      askFailsClosed: this.#askFailsClosed,
      signal,
    });
  }

  async #execute(call: ModelToolCall, p: ToolPlan, signal: AbortSignal): Promise<ToolCallOutcome> {
    // A call's duration is its run alone: the gates ran in the planning pass, and the time spent
    // waiting for an approval is reported apart (`approvalWaitMs`).
    let started = performance.now();
    let approvalWaitMs: number | null = null;
    if (p.kind === 'blocked') return this.#finish(call, p, started);
    if (p.approval) {
      const request: ApprovalRequest = {
        id: `approval_${call.id}`,
        callId: call.id,
        tool: p.tool.name,
        input: p.input,
        reason: p.approval,
        summary: summarize(p.tool.name, p.input),
        decision: p.decision,
        preview: previewWrite(p.tool.name, p.input, (path) => readForPreview({ workspace: this.workspace, outsideWorkspace: this.#sessionTrust }, path)),
      };
      this.#emit({ type: 'approval_required', request });
      let answer: ApprovalAnswer;
      try {
        answer = await this.#interaction.approve(request, signal);
      } catch {
        answer = 'deny';
      }
      const decision: ApprovalDecision = typeof answer === 'string' ? answer : 'deny';
      approvalWaitMs = Math.round(performance.now() - started);
      started = performance.now();
      this.#emit({ type: 'approval_resolved', id: request.id, decision });
      if (decision === 'allow_session') this.#sessionAllowed.add(p.tool.name);
      if (decision === 'deny') {
        const text = approvalDenialText(typeof answer === 'string' ? 'user' : answer.deny, request.reason);
        return { ...this.#finish(call, { input: p.input, error: new ToolError('approval_denied', text), decision: p.decision }, started), approvalWaitMs };
      }
    }
    const ctx: ToolRunContext = this.#toolContext(call, p.tool.name, signal);
    let result: ToolResult;
    try {
      result = await p.tool.execute(p.input, ctx);
    } catch (e) {
      const err = ToolError.isInstance(e) ? e : new ToolError('failed', `'${p.tool.name}' failed: ${errorMessage(e)}`);
      return { ...this.#finish(call, { input: p.input, error: err, decision: p.decision }, started), approvalWaitMs };
    }
    // What a shell_env hook produced never leaves the command: not to the model, the history or a surface.
    const content = this.#mask.mask(result.content);
    const modelText = appendHookContext(content, p.context);
    const { receipt = null, ...rest } = result;
    const stored = { ...rest, content };
    return {
      id: call.id,
      name: p.tool.name,
      input: p.input,
      result: stored,
      error: null,
      modelText,
      decision: p.decision,
      receipt,
      durationMs: Math.round(performance.now() - started),
      approvalWaitMs,
    };
  }

  /** What a tool runs with (and what its `stage` prepares with). */
  #toolContext(call: ModelToolCall, toolName: string, signal: AbortSignal): ToolRunContext {
    return {
      workspace: this.workspace,
      callId: call.id,
      toolName,
      signal,
      hooks: this.#maskingHooks(),
      wantsReceipt: this.#hooks !== null && (this.#hooks.has('tool_call_after') || this.#hooks.has('on_error')),
      parentEnv: this.#parentEnv,
      outsideWorkspace: this.#sessionTrust,
      services: {
        setTodos: (todos) => {
          this.#todos = todos;
        },
        askUser: async (request) => {
          this.#emit({ type: 'user_input_required', request });
          try {
            return await this.#interaction.askUser(request, signal);
          } finally {
            this.#emit({ type: 'user_input_answered', id: request.id });
          }
        },
        runSubagent: (request, sig) => this.#runSubagent(request, sig),
      },
    };
  }

  /** The session's hooks, with every `shell_env` value remembered for masking. */
  #maskingHooks(): EngineHooks | null {
    const hooks = this.#hooks;
    if (!hooks) return null;
    return {
      sessionId: hooks.sessionId,
      toolCallBefore: (call) => hooks.toolCallBefore(call),
      shellEnv: async (tool) => {
        const r = await hooks.shellEnv(tool);
        this.#mask.add(r.vars.values());
        return r;
      },
      has: (event) => hooks.has(event),
    };
  }

  #finish(call: ModelToolCall, p: Refusal, started: number): ToolCallOutcome {
    return {
      id: call.id,
      name: call.name,
      input: p.input,
      result: null,
      error: { kind: p.error.kind, message: this.#mask.mask(p.error.message) },
      modelText: this.#mask.mask(toolErrorText(call.name, p.error)),
      decision: p.decision,
      receipt: null,
      durationMs: started ? Math.round(performance.now() - started) : 0,
      approvalWaitMs: null,
    };
  }

  async #runSubagent(request: { prompt: string; name?: string }, signal: AbortSignal): Promise<{ agentId: string; result: string; status: string }> {
    if (this.#depth >= this.#maxDepth) throw new ToolError('not_allowed', 'sub-agents cannot start further sub-agents');
    const agentId = `agent_${++this.#agentCounter}`;
    // A child is its own conversation; it fires no operator hooks and inherits the posture as a ceiling.
    const child = new AgentSession({
      provider: this.provider,
      workspace: this.workspace,
      mode: this.#mode,
      posture: this.#posture,
      hooks: null,
      interaction: this.#interaction,
      tools: this.#tools,
      maxSteps: this.#maxSteps,
      askFailsClosed: this.#askFailsClosed,
      depth: this.#depth + 1,
      maxDepth: this.#maxDepth,
      parentEnv: this.#parentEnv,
      permissions: this.#permissions,
      ...(this.#retry ? { retry: this.#retry } : {}),
    });
    child.setSessionTrust(this.#sessionTrust);
    this.#emit({ type: 'subagent_spawned', agentId, prompt: request.prompt, name: request.name ?? null });
    const onAbort = () => child.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    let summary: TurnSummary;
    try {
      summary = await child.runTurn(request.prompt);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    const status = summary.status === 'completed' ? 'completed' : summary.status === 'interrupted' ? 'cancelled' : 'failed';
    const result = summary.status === 'failed' ? `failed: ${summary.error ?? 'unknown error'}` : summary.text || '(no answer)';
    this.#emit({ type: 'subagent_completed', agentId, result, status });
    return { agentId, result, status };
  }
}

/** A call that did not run: refused by the gate chain, denied at approval, or failed to start. */
interface Refusal {
  readonly input: unknown;
  readonly error: ToolError;
  readonly decision: GateDecisionRecord | null;
}

/** The model's arguments as JSON, or the raw text when they are not JSON. */
function argumentsOrText(args: string): unknown {
  const parsed = parseToolArguments(args);
  return parsed.ok ? parsed.value : args;
}

function cancelled(call: ModelToolCall): ToolPlan {
  return { kind: 'blocked', input: argumentsOrText(call.arguments), error: new ToolError('cancelled', 'the turn was cancelled'), decision: null, permission: null, stage: 'cancelled' };
}

function summarize(name: string, input: unknown): string {
  const i = input as Record<string, unknown>;
  const s = typeof i?.command === 'string' ? i.command : typeof i?.path === 'string' ? i.path : JSON.stringify(input);
  const line = String(s).replace(/\s+/g, ' ');
  return `${name}: ${line.length > 120 ? `${line.slice(0, 119)}…` : line}`;
}
