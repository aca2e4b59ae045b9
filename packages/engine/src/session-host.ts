import { randomBytes } from 'node:crypto';
import {
  HOOK_EVENT_NAMES,
  INITIAL_SESSION_STATE,
  observeSessionState,
  sanitizeLine,
  type HookEventName,
  type LifecycleFact,
  type LifecycleSessionFacts,
  type MessageSubmitResult,
  type SessionObservation,
  type SessionStateMachine,
} from '@codewhale/hooks-payloads';
import type { HookConfiguration } from '@codewhale/hooks-supervisor';
import { toolCallAfterFacts } from '@codewhale/hooks/internal';
import type { EngineHooks } from './engine-hooks.js';
import { EngineError, errorMessage } from './errors.js';
import type { AlwaysOutcome } from './always-rule.js';
import type { ApprovalRequest, EngineEvent, ToolCallOutcome, TurnStatus } from './events.js';
import type { Mode, Posture } from './modes.js';
import { AgentSession, type AgentSessionOptions } from './session.js';
import type { Settings } from './settings/settings.js';
import type {
  ActiveHook,
  ConversationSnapshot,
  HookActivityEnd,
  HostEvent,
  HostListener,
  HostNotice,
  HostProfile,
  MessageSource,
  ReloadReport,
  SessionHostApi,
  SessionSnapshot,
  SessionTotals,
  SteerResult,
  SubagentInfo,
  SubmitResult,
  TodoItem,
} from './surface.js';

import type { LifecycleHooks } from './surface.js';

export type { LifecycleHooks } from './surface.js';

export const PROFILE_EVENTS: Readonly<Record<HostProfile, ReadonlySet<HookEventName>>> = {
  tui: new Set(HOOK_EVENT_NAMES),
  exec: new Set<HookEventName>(['tool_call_before', 'shell_env']),
  runtime: new Set<HookEventName>(['tool_call_before', 'shell_env', 'tool_call_after', 'on_error']),
};

/** How the host reloads its configuration (supplied by `openSession` for disk-loaded hooks). */
export type Reloader = () => ReloadReport;

export interface SessionHostOptions extends Omit<AgentSessionOptions, 'hooks'> {
  readonly hooks: LifecycleHooks | null;
  readonly profile: HostProfile;
  /** The session id when no dispatcher supplies one (resume, no hooks); minted when omitted. */
  readonly sessionId?: string | null;
  readonly totals?: SessionTotals;
  /** The configuration the hooks were loaded from, when they came from disk (`openSession`). */
  readonly activeHooks?: () => HookConfiguration | null;
  /** Re-read the configuration for {@link SessionHost.reload}. */
  readonly reloader?: Reloader;
  /** Runs once at {@link SessionHost.dispose}: close pools and logs the host owns. */
  readonly onDispose?: () => Promise<void>;
  /** Write the "always" rule of an approval and apply it in this session ({@link SessionHost.rememberAlways}). */
  readonly rememberAlways?: (request: ApprovalRequest) => AlwaysOutcome;
  /** The validated settings the session was opened with (`[tui]` for the TUI). */
  readonly settings?: Settings | null;
}

const ZERO_TOTALS: SessionTotals = { sessionTokens: 0, conversationTokens: 0, inputTokens: 0, outputTokens: 0 };
const MAX_SUBAGENTS_KEPT = 50;

/** A hook label fit for a status row: control characters stripped, bounded. */
function displayLabel(label: string): string {
  return sanitizeLine(label, 80).text;
}

/**
 * The one object every surface drives (the TUI, `exec`, the Runtime API, an embedder). It owns
 * an agent session, fires the engine's two events through the injected hooks, turns the
 * engine's event stream into every other lifecycle hook (filtered by the surface's profile),
 * queues messages behind a running turn, and publishes one immutable {@link SessionSnapshot}.
 */
export class SessionHost implements SessionHostApi {
  readonly profile: HostProfile;
  /** The validated `config.toml` settings when opened by `openSession` (`[tui]`, `[retry]`, the route), else `null`. */
  readonly settings: Settings | null;
  readonly #session: AgentSession;
  readonly #hooks: LifecycleHooks | null;
  readonly #activeHooks: () => HookConfiguration | null;
  readonly #events: ReadonlySet<HookEventName>;
  readonly #sessionId: string;
  readonly #reloader: Reloader | null;
  readonly #onDispose: (() => Promise<void>) | null;
  readonly #rememberAlways: ((request: ApprovalRequest) => AlwaysOutcome) | null;
  readonly #listeners = new Set<HostListener>();
  readonly #early: HostNotice[] = [];
  readonly #queue: string[] = [];
  readonly #subagents: SubagentInfo[] = [];
  /** How long each `message_submit` hook of the current submission took, by position (its steps carry no duration). */
  readonly #submitDurations = new Map<number, number>();
  readonly #unobserve: () => void;
  #machine: SessionStateMachine = INITIAL_SESSION_STATE;
  #state: SessionSnapshot['state'] = 'idle';
  #reason: SessionSnapshot['reason'] = null;
  #totals: SessionTotals;
  #turnId: string | null = null;
  #lastTurnStatus: TurnStatus | null = null;
  #activeHook: ActiveHook | null = null;
  /** True from the moment a submission starts (before `message_submit`) until its turn ends. */
  #running = false;
  #drainPaused = false;
  /** Esc pressed while `message_submit` hooks ran: the turn is interrupted as soon as it starts. */
  #cancelPending = false;
  #current: Promise<unknown> = Promise.resolve();
  #started = false;
  #closed = false;
  #ending: Promise<void> | null = null;
  #disposing: Promise<void> | null = null;
  #snapshot: SessionSnapshot | null = null;
  /** Tokens of the running turn's model requests so far (reset when the turn's usage is added). */
  #turnTokens = { input: 0, output: 0 };

  constructor(options: SessionHostOptions) {
    const { hooks, profile, sessionId, totals, reloader, onDispose, settings, activeHooks, rememberAlways, ...sessionOptions } = options;
    this.#rememberAlways = rememberAlways ?? null;
    this.#activeHooks = activeHooks ?? (() => null);
    this.settings = settings ?? null;
    this.#hooks = hooks;
    this.profile = profile;
    this.#events = PROFILE_EVENTS[profile];
    this.#sessionId = hooks?.sessionId ?? sessionId ?? `sess_${randomBytes(4).toString('hex')}`;
    this.#totals = totals ?? ZERO_TOTALS;
    this.#reloader = reloader ?? null;
    this.#onDispose = onDispose ?? null;
    const events = this.#events;
    const engineHooks: EngineHooks | null = hooks
      ? {
          sessionId: this.#sessionId,
          toolCallBefore: (call) => hooks.toolCallBefore(call),
          shellEnv: (tool) => hooks.shellEnv(tool),
          has: (event) => events.has(event) && hooks.has(event),
        }
      : null;
    this.#session = new AgentSession({ ...sessionOptions, hooks: engineHooks });
    this.#session.on((e) => this.#onEngineEvent(e));
    this.#unobserve = hooks?.observeActivity ? hooks.observeActivity((a) => this.#onActivity(a)) : () => {};
  }

  /** The session id (`sess_…`), shared by every hook event of the session and kept across resumes. */
  get sessionId(): string {
    return this.#sessionId;
  }

  // ── subscription and snapshot ────────────────────────────────────────────────────────────

  subscribe = (listener: HostListener): (() => void) => {
    this.#listeners.add(listener);
    // Notices posted before anyone listened (configuration problems at open) reach the first listener.
    for (const notice of this.#early.splice(0)) {
      try {
        listener({ type: 'notice', notice });
      } catch {
        // a listener's failure is its own
      }
    }
    return () => {
      this.#listeners.delete(listener);
    };
  };

  getSnapshot = (): SessionSnapshot => {
    if (this.#snapshot === null) {
      const s = this.#session;
      this.#snapshot = Object.freeze({
        sessionId: this.#sessionId,
        profile: this.profile,
        workspace: s.workspace,
        provider: s.provider.id,
        model: s.provider.model,
        state: this.#state,
        reason: this.#reason,
        turnId: this.#turnId,
        mode: s.mode,
        posture: s.posture,
        sessionTrust: s.sessionTrust,
        busy: this.#running,
        todos: Object.freeze(s.todos.map((t): TodoItem => ({ content: t.content, status: t.status }))),
        totals: Object.freeze(this.#shownTotals()),
        queued: Object.freeze([...this.#queue]),
        queuedCount: this.#queue.length,
        activeHook: this.#activeHook,
        subagents: Object.freeze([...this.#subagents]),
        lastTurnStatus: this.#lastTurnStatus,
        closed: this.#closed,
      });
    }
    return this.#snapshot;
  };

  /**
   * The totals a surface shows: those of the finished turns plus the model requests of the
   * running turn so far, so the count moves during a turn (a turn's `usage` is the sum of its
   * requests'). Hooks get the finished turns' totals (`turn_end`), as the contract says.
   */
  #shownTotals(): SessionTotals {
    const t = this.#totals;
    const { input, output } = this.#turnTokens;
    if (input === 0 && output === 0) return { ...t };
    return {
      sessionTokens: t.sessionTokens + input + output,
      conversationTokens: t.conversationTokens + input + output,
      inputTokens: t.inputTokens + input,
      outputTokens: t.outputTokens + output,
    };
  }

  #emit(event: HostEvent): void {
    for (const l of this.#listeners) {
      try {
        l(event);
      } catch {
        // A listener's failure is its own; the session keeps going.
      }
    }
  }

  /** The snapshot changed: drop the cached one and tell listeners. */
  #touch(): void {
    this.#snapshot = null;
    this.#emit({ type: 'snapshot' });
  }

  #notice(notice: HostNotice): void {
    if (this.#listeners.size === 0) {
      if (this.#early.length < 20) this.#early.push(notice);
      return;
    }
    this.#emit({ type: 'notice', notice });
  }

  /** Show a notice through the host's listeners (configuration problems, a surface's own warnings). */
  postNotice(notice: HostNotice): void {
    this.#notice(notice);
  }

  // ── hooks ────────────────────────────────────────────────────────────────────────────────

  #wants(event: HookEventName): boolean {
    return this.#hooks !== null && this.#events.has(event) && this.#hooks.has(event);
  }

  #facts(): LifecycleSessionFacts {
    return { workspace: this.#session.workspace, model: this.#session.provider.model, mode: this.#session.mode, totalTokens: this.#totals.sessionTokens, posture: this.#session.posture };
  }

  #fire(fact: LifecycleFact): void {
    if (!this.#wants(fact.event)) return;
    const r = this.#hooks!.emit(fact);
    if (!r.ok) this.#notice({ level: 'error', message: r.error, durationMs: 12_000 });
  }

  #observe(observation: SessionObservation): void {
    const { machine, transition } = observeSessionState(this.#machine, observation);
    this.#machine = machine;
    this.#state = observation.state;
    this.#reason = observation.state === 'waiting' ? (observation.reason === 'user_input' ? 'user_input' : 'approval') : null;
    this.#touch();
    if (transition) this.#fire({ event: transition.event, facts: this.#facts(), transition });
  }

  #onActivity(a: { phase: 'start' | 'end'; event: 'tool_call_before' | 'message_submit'; label: string; index: number; total: number; durationMs: number | null }): void {
    if (a.phase === 'start') {
      const hook: ActiveHook = { event: a.event, label: displayLabel(a.label), index: a.index, total: a.total, startedAt: Date.now() };
      this.#activeHook = hook;
      this.#touch();
      this.#emit({ type: 'hook_started', hook });
    } else {
      if (a.event === 'message_submit') this.#submitDurations.set(a.index, a.durationMs ?? 0);
      this.#activeHook = null;
      this.#touch();
    }
  }

  /** One `hook_finished` per `message_submit` step, in order, with its result. */
  #reportSteps(result: MessageSubmitResult): void {
    const total = result.steps.length;
    result.steps.forEach((s, i) => {
      const kind: HookActivityEnd['result'] = s.result === 'blocked' ? 'blocked' : s.result === 'replaced' ? 'rewrote' : s.result === 'failed' || s.result === 'invalid' ? 'failed' : 'ok';
      this.#emit({
        type: 'hook_finished',
        hook: { event: 'message_submit', label: displayLabel(s.label), index: i + 1, total, durationMs: this.#submitDurations.get(i + 1) ?? 0, result: kind, detail: s.detail },
      });
    });
  }

  /**
   * One `hook_finished` per gate hook of a decision record. A gate that failed (no verdict: it
   * timed out, could not start, was killed, or exited non-zero without a decision) is reported
   * as `failed` with how it failed and what that did to the call, strict or lenient alike.
   */
  #reportGates(o: ToolCallOutcome): void {
    const d = o.decision;
    if (!d) return;
    const total = d.hooks.length;
    d.hooks.forEach((h, i) => {
      const failed = h.outcome === 'no_verdict' || (h.outcome === 'no_decision' && h.exitCode !== null && h.exitCode !== 0);
      const kind: HookActivityEnd['result'] =
        h.outcome === 'deny' || h.outcome === 'deny_exit_2' ? 'denied' : h.outcome === 'ask' ? 'asked' : failed ? 'failed' : h.rewroteInput ? 'rewrote' : h.addedContext ? 'context' : 'ok';
      const detail = failed ? `${h.detail ?? 'no verdict'}; ${h.strict ? 'the call is denied (continue_on_error = false)' : 'ignored (continue_on_error = true)'}` : h.detail;
      this.#emit({
        type: 'hook_finished',
        hook: { event: 'tool_call_before', label: displayLabel(h.label), index: i + 1, total, durationMs: h.durationMs, result: kind, detail, exitCode: h.exitCode },
      });
    });
  }

  async #transform(
    text: string,
    source: MessageSource,
  ): Promise<{ readonly kind: 'ok'; readonly text: string; readonly warning: string | null } | { readonly kind: 'blocked'; readonly reason: string }> {
    if (!this.#wants('message_submit')) {
      this.#emit({ type: 'message_submitted', source, original: text, text, rewritten: false });
      return { kind: 'ok', text, warning: null };
    }
    const f = this.#facts();
    this.#submitDurations.clear();
    let result: MessageSubmitResult;
    try {
      result = await this.#hooks!.messageSubmit(text, f);
    } catch (e) {
      // A dispatcher that throws fails closed: the message does not reach the model.
      result = { kind: 'blocked', reason: `message_submit hooks could not run: ${errorMessage(e)}`, steps: [] };
    }
    this.#reportSteps(result);
    if (result.kind === 'blocked') {
      this.#notice({ level: 'warning', message: result.reason, durationMs: 6_000 });
      this.#emit({ type: 'message_blocked', source, original: text, reason: result.reason });
      return { kind: 'blocked', reason: result.reason };
    }
    if (result.warning) this.#notice({ level: 'warning', message: result.warning, durationMs: 6_000 });
    this.#emit({ type: 'message_submitted', source, original: text, text: result.text, rewritten: result.kind === 'replaced' });
    return { kind: 'ok', text: result.text, warning: result.warning };
  }

  // ── verbs ────────────────────────────────────────────────────────────────────────────────

  #refuseClosed(): void {
    if (this.#closed) throw new EngineError('state', 'the session has ended');
  }

  async start(): Promise<void> {
    this.#refuseClosed();
    if (this.#started) return;
    this.#started = true;
    this.#observe({ state: 'idle' });
    if (this.#wants('session_start')) await this.#hooks!.runLifecycle({ event: 'session_start', facts: this.#facts() });
  }

  async submit(text: string): Promise<SubmitResult> {
    this.#refuseClosed();
    if (this.#running) throw new EngineError('state', 'a turn is already running in this session; queue the message or wait');
    this.#drainPaused = false;
    return this.#run(text, 'fresh');
  }

  async #run(text: string, source: MessageSource): Promise<SubmitResult> {
    this.#running = true;
    this.#cancelPending = false;
    this.#touch();
    const work = (async (): Promise<SubmitResult> => {
      try {
        const t = await this.#transform(text, source);
        if (t.kind === 'blocked') return { kind: 'blocked', reason: t.reason };
        const turn = this.#session.runTurn(t.text);
        if (this.#cancelPending) this.#session.cancel();
        const summary = await turn;
        if (summary.status === 'interrupted') this.#drainPaused = true;
        return { kind: 'ran', text: t.text, warning: t.warning, summary };
      } finally {
        this.#running = false;
        this.#turnId = null;
        this.#touch();
      }
    })();
    this.#current = work.catch(() => undefined);
    const result = await work;
    this.#scheduleDrain();
    // Nothing follows after all (the queued message was blocked, or dropped meanwhile): settle.
    if (!this.#running && this.#state === 'in_progress') this.#observe({ state: 'idle', lastTurnStatus: this.#lastTurnStatus });
    return result;
  }

  /** Whether the turn that just ended with `status` is followed at once by a queued message. */
  #followUpQueued(status: string): boolean {
    return status !== 'interrupted' && !this.#closed && !this.#drainPaused && this.#queue.length > 0;
  }

  queue(text: string): void {
    this.#refuseClosed();
    if (!this.#running && this.#queue.length === 0) {
      this.#drainPaused = false;
      void this.#run(text, 'queued').catch((e) => this.#notice({ level: 'error', message: errorMessage(e), durationMs: 12_000 }));
      return;
    }
    this.#queue.push(text);
    this.#touch();
    this.#emit({ type: 'message_queued', text, queuedCount: this.#queue.length });
    if (!this.#running) this.#scheduleDrain();
  }

  dequeue(index?: number): readonly string[] {
    const removed = index === undefined ? this.#queue.splice(0) : index >= 0 && index < this.#queue.length ? this.#queue.splice(index, 1) : [];
    if (removed.length > 0) this.#touch();
    return removed;
  }

  /**
   * Dispatch the next queued message once the current turn has ended (after its `turn_end`).
   * An interrupted turn pauses the queue: the messages stay queued until the next submission
   * or `queue` call, so Esc never fires the next message by surprise.
   */
  #scheduleDrain(): void {
    if (this.#closed || this.#running || this.#drainPaused || this.#queue.length === 0) return;
    const next = this.#queue.shift()!;
    this.#touch();
    void this.#run(next, 'queued').catch((e) => this.#notice({ level: 'error', message: errorMessage(e), durationMs: 12_000 }));
  }

  async steer(text: string): Promise<SteerResult> {
    this.#refuseClosed();
    const t = await this.#transform(text, 'steer');
    if (t.kind === 'blocked') return { kind: 'blocked', reason: t.reason };
    return { kind: this.#session.steer(t.text) ? 'steered' : 'idle', text: t.text };
  }

  /**
   * Cancel the running turn. Pressed while the message is still crossing `message_submit`,
   * the turn it starts is interrupted at once (the message is in history, the model is not asked).
   */
  cancel(): void {
    if (this.#running && !this.#session.busy) this.#cancelPending = true;
    this.#session.cancel();
  }

  setMode(mode: Mode): void {
    this.#refuseClosed();
    this.#session.setMode(mode);
  }

  setPosture(posture: Posture): void {
    this.#refuseClosed();
    if (posture === this.#session.posture) return;
    this.#session.setPosture(posture);
    this.#touch();
  }

  /**
   * Session trust (`/trust on|off`): file tools may read and write outside the workspace for
   * the rest of this session. It never enables project hooks (those need trust in the user's
   * config and an approved digest) and is never saved.
   */
  setSessionTrust(on: boolean): void {
    this.#refuseClosed();
    if (on === this.#session.sessionTrust) return;
    this.#session.setSessionTrust(on);
    this.#touch();
  }

  /**
   * "Always allow" for a pending approval: write the `permissions.toml` rule
   * `alwaysRuleFor` gives for it (locked, comment-preserving) and apply the rules at once
   * in this session, so the next identical call runs without asking. Returns the rule and the
   * file, or why no rule can remember the call (nothing written). A file that cannot be
   * written is an `EngineError` (`config`), the file unchanged. Only a surface's answer to an
   * approval calls this; nothing the model or a tool does reaches it. A session without a
   * permissions file (an embedder's own) refuses.
   */
  rememberAlways(request: ApprovalRequest): AlwaysOutcome {
    this.#refuseClosed();
    if (!this.#rememberAlways) return { ok: false, reason: 'this session has no permissions file to remember a rule in' };
    return this.#rememberAlways(request);
  }

  reload(): ReloadReport {
    this.#refuseClosed();
    const report: ReloadReport = this.#reloader ? this.#reloader() : { changed: false, hookCount: 0, notes: ['hooks are supplied by the embedder; nothing to reload'] };
    this.#emit({ type: 'config_reloaded', report });
    return report;
  }

  /**
   * The hook configuration this session runs (the set, its project state and digest) — what
   * it was opened with or last reloaded; `null` when the hooks are an embedder's or none.
   */
  activeHooks(): HookConfiguration | null {
    return this.#activeHooks();
  }

  conversation(options: { readonly historyFrom?: number } = {}): ConversationSnapshot {
    const s = this.#session;
    return {
      version: 1,
      sessionId: this.#sessionId,
      mode: s.mode,
      posture: s.posture,
      history: structuredClone(s.history.slice(options.historyFrom ?? 0)),
      todos: s.todos.map((t) => ({ content: t.content, status: t.status })),
      totals: { ...this.#totals },
    };
  }

  clear(): void {
    this.#refuseClosed();
    this.#session.clear();
    this.#totals = { ...this.#totals, conversationTokens: 0 };
    this.#touch();
  }

  end(): Promise<void> {
    if (!this.#ending) {
      this.#ending = (async () => {
        if (this.#closed) return;
        this.#drainPaused = true;
        this.#session.cancel();
        await this.#current;
        // Pending observer writes first, so `session_end` is the last thing hooks see.
        await this.#hooks?.idle?.();
        if (this.#started && this.#wants('session_end')) {
          try {
            await this.#hooks!.runLifecycle({ event: 'session_end', facts: this.#facts() });
          } catch (e) {
            this.#notice({ level: 'error', message: `session_end hooks failed: ${errorMessage(e)}`, durationMs: 12_000 });
          }
        }
        await this.dispose();
      })();
    }
    return this.#ending;
  }

  dispose(): Promise<void> {
    if (!this.#disposing) {
      this.#disposing = (async () => {
        this.#drainPaused = true;
        this.#session.cancel();
        await this.#current;
        this.#closed = true;
        this.#unobserve();
        try {
          await this.#hooks?.idle?.();
          await this.#onDispose?.();
        } finally {
          this.#touch();
          this.#emit({ type: 'closed' });
        }
      })();
    }
    return this.#disposing;
  }

  // ── the engine's event stream → lifecycle hooks and snapshot ─────────────────────────────

  #onEngineEvent(e: EngineEvent): void {
    switch (e.type) {
      case 'turn_started':
        this.#turnId = e.turnId;
        this.#turnTokens = { input: 0, output: 0 };
        this.#observe({ state: 'in_progress' });
        break;
      case 'approval_required':
        this.#observe({ state: 'waiting', reason: 'approval' });
        break;
      case 'user_input_required':
        this.#observe({ state: 'waiting', reason: 'user_input' });
        break;
      case 'approval_resolved':
      case 'user_input_answered':
        if (this.#session.busy) this.#observe({ state: 'in_progress' });
        break;
      case 'tool_call_completed':
        this.#reportGates(e.outcome);
        this.#toolCompleted(e.outcome);
        if (e.outcome.name === 'todo_write') this.#touch();
        break;
      case 'mode_changed':
        this.#touch();
        this.#fire({ event: 'mode_change', facts: { ...this.#facts(), mode: e.to }, previousMode: e.from });
        break;
      case 'subagent_spawned':
        this.#subagents.push({ agentId: e.agentId, name: e.name, prompt: e.prompt, status: 'running', result: null });
        if (this.#subagents.length > MAX_SUBAGENTS_KEPT) this.#subagents.splice(0, this.#subagents.length - MAX_SUBAGENTS_KEPT);
        this.#touch();
        this.#fire({ event: 'subagent_spawn', facts: this.#facts(), agentId: e.agentId, prompt: e.prompt });
        break;
      case 'subagent_completed': {
        const i = this.#subagents.findIndex((a) => a.agentId === e.agentId);
        const status: SubagentInfo['status'] = e.status === 'completed' ? 'completed' : e.status === 'cancelled' ? 'cancelled' : 'failed';
        if (i >= 0) this.#subagents[i] = { ...this.#subagents[i]!, status, result: e.result };
        this.#touch();
        this.#fire({ event: 'subagent_complete', facts: this.#facts(), agentId: e.agentId, result: e.result, status: e.status });
        break;
      }
      case 'error':
        // Transport, capacity and auth failures that ended the turn.
        this.#fire({ event: 'on_error', facts: this.#facts(), error: e.message });
        break;
      case 'usage':
        this.#turnTokens = { input: this.#turnTokens.input + e.usage.inputTokens, output: this.#turnTokens.output + e.usage.outputTokens };
        this.#touch();
        break;
      case 'turn_completed': {
        this.#turnTokens = { input: 0, output: 0 };
        const total = e.usage.inputTokens + e.usage.outputTokens;
        const t = this.#totals;
        this.#totals = {
          sessionTokens: t.sessionTokens + total,
          conversationTokens: t.conversationTokens + total,
          inputTokens: t.inputTokens + e.usage.inputTokens,
          outputTokens: t.outputTokens + e.usage.outputTokens,
        };
        this.#lastTurnStatus = e.status;
        const f = this.#facts();
        this.#fire({
          event: 'turn_end',
          facts: f,
          turn: {
            mode: this.#session.mode,
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
            totals: { ...this.#totals },
            toolCount: e.toolCount,
            queuedMessageCount: this.#queue.length,
          },
        });
        if (e.status === 'failed') this.#fire({ event: 'session_error', facts: f, status: e.status, error: e.error ?? 'the turn failed' });
        // A queued follow-up keeps the session busy (D31): no idle/busy pair between this turn and
        // it. (An interrupted turn pauses the queue, so it does settle.)
        if (!this.#followUpQueued(e.status)) this.#observe({ state: 'idle', lastTurnStatus: e.status });
        break;
      }
      default:
        break;
    }
    this.#emit(e);
  }

  #toolCompleted(o: ToolCallOutcome): void {
    const failed = o.result === null || !o.result.success;
    const resultText = o.result ? o.result.content : o.modelText;
    const exit = o.result?.metadata?.exit_code;
    // A call refused by a hook, a permission rule, the posture or the user never ran.
    const denied = o.error !== null && (o.error.kind === 'hook_denied' || o.error.kind === 'approval_denied');
    // The tool_call_after / on_error rules (exit code only when reported, status and receipt
    // only for a shell tool, no on_error for a refusal) are @codewhale/hooks's.
    const { tool, receipt, onError } = toolCallAfterFacts({
      name: o.name,
      callId: o.id,
      input: o.input,
      result: resultText,
      success: !failed,
      exitCode: typeof exit === 'number' || typeof exit === 'bigint' ? exit : null,
      status: o.result?.metadata?.status ?? null,
      receipt: o.receipt,
      denied,
    });
    const f = this.#facts();
    this.#fire({ event: 'tool_call_after', facts: f, tool, receipt });
    if (onError) this.#fire({ event: 'on_error', facts: f, error: `tool \`${o.name}\` failed: ${resultText}`, tool });
  }
}
