import {
  alwaysRuleFor,
  errorCategory,
  errorMessage,
  type AlwaysOutcome,
  type ApprovalRequest,
  type UserInputRequest,
  type HostEvent,
  type Interaction,
  type Mode,
  type Posture,
  type ToolCallOutcome,
} from '@codewhale/engine';
import type { HookConfiguration } from '@codewhale/hooks-supervisor';
import type { ApprovalBroker } from './approval-broker.js';
import { resumeConversation } from './conversation-journal.js';
import { boundText, displaySafe, displaySafeJson, redact, redactJson } from './redact.js';
import type { AlwaysChoice, ThreadRecord, TurnRecord } from './store/records.js';
import type { RuntimeStore } from './store/runtime-store.js';

/** What the runner needs of a session (the engine's `SessionHost` has all of it). */
export interface ThreadSession {
  readonly sessionId: string | null;
  subscribe(listener: (event: HostEvent) => void): () => void;
  submit(text: string): Promise<{ readonly kind: string; readonly reason?: string }>;
  steer(text: string): Promise<{ readonly kind: 'steered' | 'idle'; readonly text: string } | { readonly kind: 'blocked'; readonly reason: string }>;
  cancel(): void;
  setMode(mode: Mode): void;
  setPosture(posture: Posture): void;
  /** The conversation; with `historyFrom`, only the history from that index on (it only grows). */
  conversation(options?: { readonly historyFrom?: number }): unknown;
  dispose(): Promise<void>;
  /** The hook configuration the session runs (the engine's `SessionHost.activeHooks`). */
  activeHooks?(): HookConfiguration | null;
  /** Write an approval's "always" rule and apply it in this session (the engine's `SessionHost.rememberAlways`). */
  rememberAlways?(request: ApprovalRequest): AlwaysOutcome;
}

/** Open one thread's session (the `runtime` profile, the thread's workspace, its stored history). */
export type OpenThreadSession = (options: {
  readonly workspace: string;
  readonly mode: Mode;
  readonly posture: Posture;
  readonly model: string | null;
  /** The stored conversation to resume, or `null` for a new one. */
  readonly history: unknown;
  readonly interaction: Interaction;
}) => Promise<ThreadSession>;

export type SteerOutcome = { readonly kind: 'steered' | 'idle' } | { readonly kind: 'blocked'; readonly reason: string };

/** How the routes drive turns. */
export interface TurnRunner {
  /** Threads running a turn in this process now. */
  readonly activeCount: number;
  /** Open a session and store a new thread with its session id. */
  createThread(fields: { workspace: string; mode: Mode; posture: Posture; model: string | null }): Promise<ThreadRecord>;
  /** Run a stored `in_progress` turn (returns at once; the turn ends with `turn.completed`). */
  start(thread: ThreadRecord, turn: TurnRecord): void;
  interrupt(threadId: string, turnId: string): boolean;
  steer(threadId: string, turnId: string, text: string): Promise<SteerOutcome>;
  /** Interrupt running turns, wait for them to be recorded (at most `graceMs`), dispose every session. */
  close(graceMs?: number): Promise<void>;
  /** The hooks a thread's open session runs; `undefined` when the thread has no open session. */
  liveHooks?(threadId: string): HookConfiguration | null | undefined;
  /** The thread was deleted: dispose of its session (it runs no turn). */
  forget?(threadId: string): void;
}

/** Bounds of what an item stores. */
export const ITEM_DETAIL_MAX_CHARS = 64_000;
const DELTA_FLUSH_MS = 32;
const DELTA_FLUSH_CHARS = 16_384;
/** Held back mid-stream: at most this many characters, ending the line's last words. */
const DELTA_HOLD_CHARS = 2_048;
/** How many of a line's last words are held back mid-stream. */
const DELTA_HOLD_WORDS = 3;

/**
 * Where a stream's buffered text may be cut while more may follow: complete lines go, and of
 * the last line all but its last {@link DELTA_HOLD_WORDS} words. A credential and the words
 * that name it (`Authorization: Bearer …`, `--password …`) then reach redaction in one piece
 * even when the model streams them in separate chunks. A tail over {@link DELTA_HOLD_CHARS}
 * is not held.
 */
export function safeCut(buffer: string): number {
  const lineStart = buffer.lastIndexOf('\n') + 1;
  let i = buffer.length;
  for (let words = 0; words < DELTA_HOLD_WORDS && i > lineStart; words++) {
    while (i > lineStart && /\s/.test(buffer[i - 1]!)) i--;
    while (i > lineStart && !/\s/.test(buffer[i - 1]!)) i--;
  }
  return buffer.length - i > DELTA_HOLD_CHARS ? buffer.length : i;
}

interface OpenItem {
  itemId: string;
  buffer: string;
}

interface Running {
  readonly threadId: string;
  readonly turnId: string;
  readonly posture: Posture;
  readonly done: Promise<void>;
  readonly toolItems: Map<string, string>;
  text: OpenItem | null;
  reasoning: OpenItem | null;
  timer: ReturnType<typeof setTimeout> | null;
  outcome: { status: 'completed' | 'interrupted' | 'failed'; error: string | null; errorCategory: string | null; usage: unknown } | null;
  cancelled: boolean;
  /** The thread's session, once open: its history is journaled as it grows. */
  held: Held | null;
}

interface Held {
  session: ThreadSession;
  model: string | null;
  /** How many messages of the session's history the thread's conversation log holds. */
  journaled: number;
}

// Keys that must never be persisted even if a tool put them in its metadata.
const NEVER_STORED = new Set(['receipt', 'execution_receipt', 'env', 'shell_env']);

function storableMetadata(meta: unknown): Record<string, unknown> | null {
  if (meta === null || typeof meta !== 'object') return null;
  return Object.fromEntries(Object.entries(meta as Record<string, unknown>).filter(([k]) => !NEVER_STORED.has(k)));
}

function historyOf(conversation: unknown): unknown[] {
  const h = (conversation as { history?: unknown } | null)?.history;
  return Array.isArray(h) ? h : [];
}

/**
 * A conversation with no messages that still carries the thread's session id: a thread whose
 * first turn never completed (a crash) keeps its `sess_` id when it resumes.
 */
function emptyConversation(thread: ThreadRecord): unknown {
  if (!thread.sessionId) return null;
  return {
    version: 1,
    sessionId: thread.sessionId,
    mode: thread.mode,
    posture: thread.posture,
    history: [],
    todos: [],
    totals: { sessionTokens: 0, conversationTokens: 0, inputTokens: 0, outputTokens: 0 },
  };
}

/**
 * Runs each thread's turns on its own session (one per thread, opened lazily after a restart
 * from the stored conversation, keeping its `sess_` id) and maps the session's events onto
 * items and events in the store. Approvals go through the {@link ApprovalBroker}.
 */
export class SessionTurnRunner implements TurnRunner {
  readonly #store: RuntimeStore;
  readonly #broker: ApprovalBroker;
  readonly #open: OpenThreadSession;
  readonly #secrets: readonly string[];
  readonly #sessions = new Map<string, Held>();
  readonly #opening = new Map<string, Promise<Held>>();
  readonly #running = new Map<string, Running>();

  constructor(options: { store: RuntimeStore; broker: ApprovalBroker; open: OpenThreadSession; secrets?: readonly string[] }) {
    this.#store = options.store;
    this.#broker = options.broker;
    this.#open = options.open;
    this.#secrets = options.secrets ?? [];
  }

  get activeCount(): number {
    return this.#running.size;
  }

  #interaction(threadId: string): Interaction {
    return {
      approve: async (request: ApprovalRequest, signal: AbortSignal) => {
        const run = this.#running.get(threadId);
        if (!run) return 'deny';
        this.#flush(run);
        return this.#broker.request(
          {
            threadId,
            turnId: run.turnId,
            itemId: run.toolItems.get(request.callId) ?? null,
            tool: request.tool,
            reason: request.reason,
            summary: this.#clean(boundText(request.summary, 500)),
            ...this.#askingHook(request),
            // Auto-Review never asks anyone: a request that still needs a person is denied (fail closed).
            autoDeny: run.posture === 'auto_review',
            always: this.#alwaysChoice(request, threadId),
            preview: request.preview
              ? {
                  ...request.preview,
                  path: this.#clean(boundText(request.preview.path, 1_000)),
                  text: this.#clean(request.preview.text),
                  note: request.preview.note === null ? null : this.#clean(request.preview.note),
                }
              : null,
          },
          signal,
          // Only a client's answer reaches this (POST /v1/approvals/:id); nothing a tool or the model does.
          run.held?.session.rememberAlways ? () => run.held!.session.rememberAlways!(request) : null,
        );
      },
      // Questions are durable like approvals; any client answers them (POST /v1/user-inputs/:id).
      askUser: async (request: UserInputRequest, signal: AbortSignal) => {
        const run = this.#running.get(threadId);
        if (!run) return null;
        this.#flush(run);
        return this.#broker.askUser(
          {
            threadId,
            turnId: run.turnId,
            itemId: run.toolItems.get(request.id) ?? null,
            questions: request.questions.map((q) => ({
              id: boundText(q.id, 200),
              header: this.#clean(boundText(q.header, 200)),
              question: this.#clean(boundText(q.question, 2_000)),
              options: q.options.map((o) => ({ label: this.#clean(boundText(o.label, 200)), ...(o.description !== undefined ? { description: this.#clean(boundText(o.description, 1_000)) } : {}) })),
              allowFreeText: q.allowFreeText ?? false,
              multiSelect: q.multiSelect ?? false,
            })),
          },
          signal,
        );
      },
    };
  }

  /** What "always" would write for this approval, as shown to clients (secrets redacted), or why it cannot. */
  #alwaysChoice(request: ApprovalRequest, threadId: string): AlwaysChoice {
    const workspace = this.#store.getThread(threadId)?.workspace ?? '';
    const r = alwaysRuleFor(request, workspace);
    if (!r.ok) return { rule: null, reason: this.#clean(r.reason) };
    const shown = (v: string | undefined) => (v === undefined ? null : this.#clean(boundText(v, 2_000)));
    return { rule: { tool: this.#clean(r.rule.tool), command: shown(r.rule.command), path: shown(r.rule.path), workspace: this.#clean(r.rule.workspace) }, reason: null };
  }

  /** The `tool_call_before` hook whose `ask` this approval is (its name and reason), from the decision record. */
  #askingHook(request: ApprovalRequest): { hookName: string | null; hookReason: string | null } {
    if (request.reason !== 'hook') return { hookName: null, hookReason: null };
    const asked = request.decision?.hooks.find((h) => h.outcome === 'ask');
    if (!asked) return { hookName: null, hookReason: null };
    return { hookName: this.#clean(boundText(asked.label, 200)), hookReason: asked.detail === null ? null : this.#clean(boundText(asked.detail, 1_000)) };
  }

  async createThread(fields: { workspace: string; mode: Mode; posture: Posture; model: string | null }): Promise<ThreadRecord> {
    let threadId: string | null = null;
    // The interaction looks the thread up lazily, so it can be bound before the thread exists.
    const interaction: Interaction = {
      approve: (r, s) => (threadId ? this.#interaction(threadId).approve(r, s) : Promise.resolve('deny')),
      askUser: (r, s) => (threadId ? this.#interaction(threadId).askUser(r, s) : Promise.resolve(null)),
    };
    const session = await this.#open({ ...fields, history: null, interaction });
    const thread = this.#store.createThread({ ...fields, sessionId: session.sessionId });
    threadId = thread.id;
    this.#sessions.set(thread.id, { session, model: fields.model, journaled: 0 });
    return thread;
  }

  async #sessionFor(thread: ThreadRecord, turn: TurnRecord): Promise<Held> {
    const held = this.#sessions.get(thread.id);
    if (held && held.model === turn.model) return held;
    if (held) {
      // Another model for this turn: the same conversation and session id on a new route.
      this.#sessions.delete(thread.id);
      const history = held.session.conversation();
      await held.session.dispose();
      return this.#openFor(thread, turn, history, held.journaled);
    }
    const pending = this.#opening.get(thread.id);
    if (pending) return pending;
    // The stored head and the log; calls a crash left running are closed. The log is then
    // rewritten to hold exactly the history the session starts from.
    const resumed = resumeConversation(thread.conversation ?? emptyConversation(thread), this.#store.conversationJournal(thread.id));
    const messages = historyOf(resumed);
    if (this.#store.isOpen)
      this.#store.replaceConversationLog(
        thread.id,
        messages.map((m) => redactJson(m, this.#secrets)),
      );
    return this.#openFor(thread, turn, resumed, messages.length);
  }

  async #openFor(thread: ThreadRecord, turn: TurnRecord, history: unknown, journaled: number): Promise<Held> {
    const p = this.#open({ workspace: thread.workspace, mode: turn.mode as Mode, posture: turn.posture as Posture, model: turn.model, history, interaction: this.#interaction(thread.id) }).then(
      (session) => {
        const held: Held = { session, model: turn.model, journaled };
        this.#sessions.set(thread.id, held);
        if (session.sessionId !== thread.sessionId) this.#store.setThreadSession(thread.id, session.sessionId);
        return held;
      },
    );
    this.#opening.set(thread.id, p);
    try {
      return await p;
    } finally {
      this.#opening.delete(thread.id);
    }
  }

  start(thread: ThreadRecord, turn: TurnRecord): void {
    let resolveDone!: () => void;
    const run: Running = {
      threadId: thread.id,
      turnId: turn.id,
      posture: turn.posture as Posture,
      done: new Promise<void>((r) => (resolveDone = r)),
      toolItems: new Map(),
      text: null,
      reasoning: null,
      timer: null,
      outcome: null,
      cancelled: false,
      held: null,
    };
    this.#running.set(thread.id, run);
    void this.#run(thread, turn, run).finally(() => {
      this.#running.delete(thread.id);
      resolveDone();
    });
  }

  async #run(thread: ThreadRecord, turn: TurnRecord, run: Running): Promise<void> {
    let session: ThreadSession | null = null;
    try {
      const held = await this.#sessionFor(thread, turn);
      session = held.session;
      if (run.cancelled) {
        this.#finish(run, session, { status: 'interrupted', error: null, errorCategory: 'cancelled', usage: null });
        return;
      }
      session.setMode(turn.mode as Mode);
      session.setPosture(turn.posture as Posture);
      run.held = this.#sessions.get(thread.id) ?? null;
      const unsubscribe = session.subscribe((e) => this.#onEvent(run, e));
      let result: { kind: string; reason?: string };
      try {
        result = await session.submit(turn.prompt);
      } finally {
        unsubscribe();
      }
      this.#flush(run);
      const outcome =
        run.outcome ??
        (result.kind === 'blocked'
          ? { status: 'failed' as const, error: `blocked: ${this.#clean(result.reason ?? '')}`, errorCategory: 'invalid_input', usage: null }
          : { status: run.cancelled ? ('interrupted' as const) : ('completed' as const), error: null, errorCategory: null, usage: null });
      this.#finish(run, session, outcome);
    } catch (e) {
      this.#flush(run);
      if (!this.#store.isOpen) return;
      const message = this.#clean(errorMessage(e));
      const category = errorCategory(e);
      this.#store.addItem(run.threadId, run.turnId, 'error', { status: 'failed', summary: message, detail: message, metadata: { category } });
      this.#finish(run, session, { status: run.cancelled ? 'interrupted' : 'failed', error: message, errorCategory: category, usage: null });
    }
  }

  #finish(run: Running, session: ThreadSession | null, outcome: NonNullable<Running['outcome']>): void {
    if (run.timer) clearTimeout(run.timer);
    run.timer = null;
    if (!this.#store.isOpen) return;
    // The log holds the history; the thread keeps the rest of the conversation (mode, todos, totals).
    let conversation: unknown;
    try {
      const held = this.#sessions.get(run.threadId) ?? null;
      this.#journal(held, run.threadId);
      conversation = held && session ? session.conversation({ historyFrom: held.journaled }) : undefined;
    } catch {
      conversation = undefined;
    }
    this.#store.completeTurn(run.turnId, {
      ...outcome,
      conversation: conversation === undefined ? undefined : redactJson(conversation, this.#secrets),
      ...(session ? { sessionId: session.sessionId } : {}),
    });
  }

  /** Text a client shows or stores: no secret, no invisible formatting character. */
  #clean(text: string): string {
    return displaySafe(redact(text, this.#secrets));
  }

  #cleanJson(value: unknown): unknown {
    return displaySafeJson(redactJson(value, this.#secrets));
  }

  // ---- event mapping ----

  /** Commit the messages that joined the session's history since the last time (only those are copied). */
  #journal(held: Held | null, threadId: string): void {
    if (!held || !this.#store.isOpen) return;
    const added = historyOf(held.session.conversation({ historyFrom: held.journaled }));
    if (added.length === 0) return;
    this.#store.journalConversation(
      threadId,
      held.journaled,
      added.map((m) => redactJson(m, this.#secrets)),
    );
    held.journaled += added.length;
  }

  #onEvent(run: Running, ev: HostEvent): void {
    if (!this.#store.isOpen) return;
    switch (ev.type) {
      case 'turn_started':
        // The user's message joins the history right after this event: commit it then.
        queueMicrotask(() => this.#journal(run.held, run.threadId));
        return;
      case 'text_delta':
        this.#delta(run, 'text', ev.text);
        return;
      case 'reasoning_delta':
        this.#delta(run, 'reasoning', ev.text);
        return;
      case 'tool_call_started': {
        this.#flush(run);
        this.#closeStreams(run);
        const input = this.#cleanJson(ev.input);
        const item = this.#store.startItem(run.threadId, run.turnId, 'tool_call', {
          summary: `${ev.name} ${JSON.stringify(input) ?? ''}`,
          metadata: { tool: ev.name, call_id: ev.id, input },
        });
        run.toolItems.set(ev.id, item.id);
        // The assistant message asking for the call is in the history now.
        this.#journal(run.held, run.threadId);
        return;
      }
      case 'tool_call_completed':
        this.#toolCompleted(run, ev.outcome);
        this.#journal(run.held, run.threadId);
        return;
      case 'error':
        this.#flush(run);
        this.#store.addItem(run.threadId, run.turnId, 'error', {
          status: 'failed',
          summary: this.#clean(ev.message),
          detail: this.#clean(ev.message),
          metadata: { category: ev.category, terminal: ev.terminal },
        });
        return;
      case 'notice': {
        // Hook warnings and dropped observer events are worth a line in the thread (bounded, redacted).
        const n = ev.notice;
        if (n.level === 'info') return;
        this.#store.addItem(run.threadId, run.turnId, 'status', {
          status: 'completed',
          summary: this.#clean(n.message),
          detail: this.#clean(boundText(n.message, 2_000)),
          metadata: { level: n.level },
        });
        return;
      }
      case 'turn_completed':
        this.#flush(run);
        run.outcome = {
          status: ev.status,
          error: ev.error === null ? null : this.#clean(ev.error),
          errorCategory: ev.errorCategory,
          usage: { ...ev.usage, tool_count: ev.toolCount, duration_ms: ev.durationMs, provider: ev.provider, model: ev.model },
        };
        return;
      default:
        return;
    }
  }

  #toolCompleted(run: Running, o: ToolCallOutcome): void {
    this.#flush(run);
    let itemId = run.toolItems.get(o.id);
    const input = this.#cleanJson(o.input);
    if (!itemId) itemId = this.#store.startItem(run.threadId, run.turnId, 'tool_call', { summary: o.name, metadata: { tool: o.name, call_id: o.id, input } }).id;
    const failed = o.result === null || o.result.success === false;
    // The decision record is stored with the item; the execution receipt (o.receipt) never is.
    this.#store.completeItem(itemId, {
      status: failed ? 'failed' : 'completed',
      summary: `${o.name}: ${this.#clean(o.modelText)}`,
      detail: this.#clean(boundText(o.modelText, ITEM_DETAIL_MAX_CHARS)),
      metadata: {
        tool: o.name,
        call_id: o.id,
        input,
        success: !failed,
        error: o.error ? { kind: o.error.kind, message: this.#clean(o.error.message) } : null,
        result: o.result ? (this.#cleanJson(storableMetadata(o.result.metadata ?? null)) as Record<string, unknown> | null) : null,
        duration_ms: o.durationMs,
      },
      decision: o.decision ? this.#cleanJson(o.decision) : null,
    });
  }

  #delta(run: Running, which: 'text' | 'reasoning', text: string): void {
    if (text === '') return;
    let open = which === 'text' ? run.text : run.reasoning;
    if (!open) {
      const item = this.#store.startItem(run.threadId, run.turnId, which === 'text' ? 'agent_message' : 'agent_reasoning', { summary: '' });
      open = { itemId: item.id, buffer: '' };
      if (which === 'text') run.text = open;
      else run.reasoning = open;
    }
    open.buffer += text;
    // Deltas are coalesced (32 ms or 16 KiB) so a fast stream costs a few commits, not one per token.
    if (open.buffer.length >= DELTA_FLUSH_CHARS) this.#flush(run, true);
    else if (!run.timer) run.timer = setTimeout(() => this.#flush(run, true), DELTA_FLUSH_MS);
  }

  /**
   * Store the buffered text. Mid-stream (`partial`) the last words of the line stay behind (see
   * {@link safeCut}) and go with the next chunk or at the end of the stream.
   */
  #flush(run: Running, partial = false): void {
    if (run.timer) clearTimeout(run.timer);
    run.timer = null;
    if (!this.#store.isOpen) return;
    for (const open of [run.reasoning, run.text]) {
      if (!open?.buffer) continue;
      const cut = partial ? safeCut(open.buffer) : open.buffer.length;
      if (cut === 0) continue;
      this.#store.appendDelta(open.itemId, this.#clean(open.buffer.slice(0, cut)));
      open.buffer = open.buffer.slice(cut);
    }
  }

  #closeStreams(run: Running): void {
    for (const open of [run.reasoning, run.text]) if (open) this.#store.completeItem(open.itemId, { status: 'completed' });
    run.reasoning = null;
    run.text = null;
  }

  liveHooks(threadId: string): HookConfiguration | null | undefined {
    const held = this.#sessions.get(threadId);
    if (!held) return undefined;
    return held.session.activeHooks?.() ?? null;
  }

  forget(threadId: string): void {
    const held = this.#sessions.get(threadId);
    this.#sessions.delete(threadId);
    if (held) void held.session.dispose().catch(() => {});
  }

  interrupt(threadId: string, turnId: string): boolean {
    const run = this.#running.get(threadId);
    if (!run || run.turnId !== turnId) return false;
    run.cancelled = true;
    this.#sessions.get(threadId)?.session.cancel();
    return true;
  }

  async steer(threadId: string, turnId: string, text: string): Promise<SteerOutcome> {
    const run = this.#running.get(threadId);
    const held = this.#sessions.get(threadId);
    if (!run || run.turnId !== turnId || !held) return { kind: 'idle' };
    const r = await held.session.steer(text);
    return r.kind === 'blocked' ? { kind: 'blocked', reason: this.#clean(r.reason) } : { kind: r.kind };
  }

  async close(graceMs = 5_000): Promise<void> {
    const runs = [...this.#running.values()];
    for (const run of runs) this.interrupt(run.threadId, run.turnId);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(runs.map((r) => r.done)), new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(sessions.map((h) => h.session.dispose()));
  }
}
