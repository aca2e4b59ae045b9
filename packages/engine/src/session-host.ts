import {
  HOOK_EVENT_NAMES,
  INITIAL_SESSION_STATE,
  buildSessionErrorDocument,
  buildSubagentCompleteDocument,
  buildSubagentSpawnDocument,
  buildToolCallAfterDocument,
  buildTurnEndDocument,
  normalizeExitCode,
  observeSessionState,
  subagentPreview,
  toJson,
  type HookContext,
  type HookEventName,
  type HookOutcome,
  type JsonValue,
  type MessageSubmitResult,
  type SessionObservation,
  type SessionStateMachine,
  type ToolContext as HookToolContext,
} from '@codewhale/hooks-payloads';
import type { EngineHooks } from './engine-hooks.js';
import type { EngineEvent, ToolCallOutcome } from './events.js';
import { AgentSession, type AgentSessionOptions, type TurnSummary } from './session.js';
import type { Mode } from './modes.js';

/**
 * What the session host needs from a hook dispatcher: the engine's two events plus the
 * lifecycle entry points. `HookRuntime` (@codewhale/hooks-supervisor) satisfies it.
 */
export interface LifecycleHooks extends EngineHooks {
  has(event: HookEventName): boolean;
  fire(event: HookEventName, ctx: Omit<HookContext, 'event' | 'sessionId'>, stdin?: string | null): { readonly ok: true } | { readonly ok: false; readonly error: string };
  runNow(event: HookEventName, ctx: Omit<HookContext, 'event' | 'sessionId'>, stdin?: string | null): Promise<HookOutcome[]>;
  messageSubmit(
    text: string,
    facts: { workspace?: string | null; model?: string | null; mode?: string | null; totalTokens?: number | null },
  ): Promise<MessageSubmitResult>;
}

/** Which lifecycle events a surface fires (D27). */
export type HostProfile = 'tui' | 'exec' | 'runtime';

export const PROFILE_EVENTS: Readonly<Record<HostProfile, ReadonlySet<HookEventName>>> = {
  tui: new Set(HOOK_EVENT_NAMES),
  exec: new Set<HookEventName>(['tool_call_before', 'shell_env']),
  runtime: new Set<HookEventName>(['tool_call_before', 'shell_env', 'tool_call_after', 'on_error']),
};

/** Something the surface should show: an observer submission failure or a `message_submit` warning. */
export interface HostNotice {
  readonly level: 'error' | 'warning';
  readonly message: string;
  /** How long a toast should stay: 12 s for dropped observer events, 6 s for warnings. */
  readonly durationMs: number;
}

export interface SessionTotals {
  sessionTokens: number;
  conversationTokens: number;
  inputTokens: number;
  outputTokens: number;
}

export type SubmitResult =
  | { readonly kind: 'blocked'; readonly reason: string }
  | { readonly kind: 'ran'; readonly text: string; readonly warning: string | null; readonly summary: TurnSummary };

export interface SessionHostOptions extends Omit<AgentSessionOptions, 'hooks'> {
  readonly hooks: LifecycleHooks | null;
  readonly profile: HostProfile;
  /** Queued follow-up messages at fire time (`turn_end.queued_message_count`). */
  readonly queuedMessages?: () => number;
  readonly onNotice?: (notice: HostNotice) => void;
}

const SHELL_TOOLS = new Set(['bash', 'Bash', 'exec_shell']);

/**
 * The surface-neutral session host (D27): it owns an {@link AgentSession}, fires the engine's
 * two events through the injected hooks, and turns the engine's event stream into every other
 * lifecycle hook, filtered by the surface's profile. Surfaces call `start`, `submit`, `steer`,
 * `setMode` and `end`; they never re-implement firing rules.
 */
export class SessionHost {
  readonly session: AgentSession;
  readonly profile: HostProfile;
  readonly #hooks: LifecycleHooks | null;
  readonly #events: ReadonlySet<HookEventName>;
  readonly #queued: () => number;
  readonly #notice: (n: HostNotice) => void;
  #state: SessionStateMachine = INITIAL_SESSION_STATE;
  readonly totals: SessionTotals = { sessionTokens: 0, conversationTokens: 0, inputTokens: 0, outputTokens: 0 };

  constructor(options: SessionHostOptions) {
    const { hooks, profile, queuedMessages, onNotice, ...sessionOptions } = options;
    this.#hooks = hooks;
    this.profile = profile;
    this.#events = PROFILE_EVENTS[profile];
    this.#queued = queuedMessages ?? (() => 0);
    this.#notice = onNotice ?? (() => {});
    const events = this.#events;
    const engineHooks: EngineHooks | null = hooks
      ? {
          sessionId: hooks.sessionId,
          toolCallBefore: (call) => hooks.toolCallBefore(call),
          shellEnv: (tool) => hooks.shellEnv(tool),
          has: (event) => events.has(event) && hooks.has(event),
        }
      : null;
    this.session = new AgentSession({ ...sessionOptions, hooks: engineHooks });
    this.session.on((e) => this.#onEvent(e));
  }

  /** The hook session id (`sess_…`), shared by every event of the session. */
  get sessionId(): string | null {
    return this.#hooks?.sessionId ?? null;
  }

  #wants(event: HookEventName): boolean {
    return this.#hooks !== null && this.#events.has(event) && this.#hooks.has(event);
  }

  #facts(): Omit<HookContext, 'event' | 'sessionId'> {
    return { workspace: this.session.workspace, model: this.session.provider.model, mode: this.session.mode, totalTokens: this.totals.sessionTokens };
  }

  #fire(event: HookEventName, ctx: Omit<HookContext, 'event' | 'sessionId'>, stdin: string | null = null): void {
    if (!this.#wants(event)) return;
    const r = this.#hooks!.fire(event, ctx, stdin);
    if (!r.ok) this.#notice({ level: 'error', message: r.error, durationMs: 12_000 });
  }

  #observe(observation: SessionObservation): void {
    const { machine, transition } = observeSessionState(this.#state, observation);
    this.#state = machine;
    if (transition) this.#fire(transition.event, this.#facts(), JSON.stringify(transition.payload));
  }

  /** Fire `session_start` (awaited) and record the first state (idle) silently. */
  async start(): Promise<void> {
    this.#observe({ state: 'idle' });
    if (this.#wants('session_start')) await this.#hooks!.runNow('session_start', this.#facts());
  }

  /** Fire `session_end` (awaited) while the session is still live. */
  async end(): Promise<void> {
    if (this.#wants('session_end')) await this.#hooks!.runNow('session_end', this.#facts());
  }

  async #transform(text: string): Promise<MessageSubmitResult> {
    if (!this.#wants('message_submit')) return { kind: 'unchanged', text, warning: null, steps: [] };
    const f = this.#facts();
    const result = await this.#hooks!.messageSubmit(text, { workspace: f.workspace ?? null, model: f.model ?? null, mode: f.mode ?? null, totalTokens: f.totalTokens ?? null });
    if (result.kind === 'blocked') this.#notice({ level: 'warning', message: result.reason, durationMs: 6_000 });
    else if (result.warning) this.#notice({ level: 'warning', message: result.warning, durationMs: 6_000 });
    return result;
  }

  /**
   * Submit a message (fresh or dequeued): `message_submit` may replace or block it before it
   * reaches history or the model; then the turn runs. A blocked message never starts a turn.
   */
  async submit(text: string): Promise<SubmitResult> {
    const t = await this.#transform(text);
    if (t.kind === 'blocked') return { kind: 'blocked', reason: t.reason };
    const summary = await this.session.runTurn(t.text);
    return { kind: 'ran', text: t.text, warning: t.warning, summary };
  }

  /** Steer the running turn; the text crosses `message_submit` exactly once. */
  async steer(text: string): Promise<{ readonly kind: 'steered' | 'idle'; readonly text: string } | { readonly kind: 'blocked'; readonly reason: string }> {
    const t = await this.#transform(text);
    if (t.kind === 'blocked') return { kind: 'blocked', reason: t.reason };
    return { kind: this.session.steer(t.text) ? 'steered' : 'idle', text: t.text };
  }

  /** Apply a mode change (fires `mode_change` through the event stream). */
  setMode(mode: Mode): void {
    this.session.setMode(mode);
  }

  /** Start a new conversation's token count (`totals.conversation_tokens`). */
  resetConversationTotals(): void {
    this.totals.conversationTokens = 0;
  }

  #onEvent(e: EngineEvent): void {
    switch (e.type) {
      case 'turn_started':
        this.#observe({ state: 'in_progress' });
        return;
      case 'approval_required':
        this.#observe({ state: 'waiting', reason: 'approval' });
        return;
      case 'user_input_required':
        this.#observe({ state: 'waiting', reason: 'user_input' });
        return;
      case 'approval_resolved':
      case 'user_input_answered':
        if (this.session.busy) this.#observe({ state: 'in_progress' });
        return;
      case 'tool_call_completed':
        this.#toolCompleted(e.outcome);
        return;
      case 'mode_changed':
        this.#fire('mode_change', { ...this.#facts(), mode: e.to, previousMode: e.from });
        return;
      case 'subagent_spawned': {
        const f = this.#facts();
        const doc = buildSubagentSpawnDocument({ agentId: e.agentId, sessionId: this.sessionId, workspace: f.workspace ?? null, mode: f.mode ?? null, model: f.model ?? null, totalTokens: f.totalTokens ?? null, prompt: e.prompt });
        this.#fire('subagent_spawn', { ...f, message: subagentPreview(e.prompt).preview }, JSON.stringify(doc));
        return;
      }
      case 'subagent_completed': {
        const f = this.#facts();
        const doc = buildSubagentCompleteDocument({ agentId: e.agentId, sessionId: this.sessionId, workspace: f.workspace ?? null, mode: f.mode ?? null, model: f.model ?? null, totalTokens: f.totalTokens ?? null, result: e.result, status: e.status });
        this.#fire('subagent_complete', { ...f, message: subagentPreview(e.result).preview }, JSON.stringify(doc));
        return;
      }
      case 'error':
        // Transport, capacity and auth failures that ended the turn.
        this.#fire('on_error', { ...this.#facts(), error: e.message });
        return;
      case 'turn_completed': {
        const total = e.usage.inputTokens + e.usage.outputTokens;
        this.totals.sessionTokens += total;
        this.totals.conversationTokens += total;
        this.totals.inputTokens += e.usage.inputTokens;
        this.totals.outputTokens += e.usage.outputTokens;
        const f = this.#facts();
        const doc = buildTurnEndDocument({
          sessionId: this.sessionId,
          workspace: f.workspace ?? null,
          mode: this.session.mode,
          createdAt: e.createdAt,
          modelBacked: true,
          provider: e.provider,
          billingSurface: null,
          model: e.model,
          turnId: e.turnId,
          status: e.status,
          error: e.error,
          durationMs: e.durationMs,
          usage: e.usage,
          totals: { ...this.totals },
          toolCount: e.toolCount,
          queuedMessageCount: this.#queued(),
        });
        this.#fire('turn_end', f, toJson(doc as JsonValue));
        if (e.status === 'failed') this.#fire('session_error', f, JSON.stringify(buildSessionErrorDocument(e.status, e.error ?? 'the turn failed')));
        this.#observe({ state: 'idle', lastTurnStatus: e.status });
        return;
      }
      default:
        return;
    }
  }

  #toolCompleted(o: ToolCallOutcome): void {
    const failed = o.result === null || !o.result.success;
    const resultText = o.result ? o.result.content : o.modelText;
    const exit = o.result?.metadata?.exit_code;
    const status = SHELL_TOOLS.has(o.name) ? o.result?.metadata?.status ?? null : null;
    const tool: HookToolContext = {
      name: o.name,
      callId: o.id,
      input: o.input,
      result: resultText,
      success: !failed,
      exitCode: normalizeExitCode(exit) === null ? null : exit ?? null,
      status,
      executionReceipt: o.receipt?.env ?? null,
    };
    const f = this.#facts();
    if (this.#wants('tool_call_after')) {
      const doc = buildToolCallAfterDocument({ toolName: o.name, sessionId: this.sessionId, toolCallId: o.id, receipt: o.receipt });
      this.#fire('tool_call_after', { ...f, tool }, doc);
    }
    if (failed) this.#fire('on_error', { ...f, error: `tool \`${o.name}\` failed: ${resultText}`, tool });
  }
}
