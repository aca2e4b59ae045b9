import type { HookEventName, HookOutcome, LifecycleFact, MessageSubmitResult, SessionTotals } from '@codewhale/hooks-payloads';
import type { BackgroundPool, ObserverDispatcher } from '@codewhale/hooks-supervisor';
import type { EngineHooks } from './engine-hooks.js';
import type { EngineEvent, TurnStatus } from './events.js';
import type { Mode, Posture } from './modes.js';
import type { ChatMessage } from './provider/types.js';
import type { TurnSummary } from './session.js';

/**
 * The types every surface (the TUI, `exec`, the Runtime API, an embedder) sees of a session.
 * A surface holds one {@link SessionHost} per conversation and nothing else of the engine:
 * it reads {@link SessionSnapshot}s, listens to {@link HostEvent}s, and calls the host's verbs.
 */

/** Which lifecycle events a surface fires: every event in the TUI, two in `exec`, four in the Runtime API. */
export type HostProfile = 'tui' | 'exec' | 'runtime';

/** Session activity as the four session-state events and the control socket report it. */
export type HostState = 'idle' | 'in_progress' | 'waiting';

/** One todo item the model keeps with `todo_write`. */
export interface TodoItem {
  readonly content: string;
  readonly status: string;
}

/** Token totals of the session (`turn_end.totals`). */
export type { SessionTotals };

/** A sub-agent the session started (`/agents`). */
export interface SubagentInfo {
  readonly agentId: string;
  readonly name: string | null;
  readonly prompt: string;
  readonly status: 'running' | 'completed' | 'failed' | 'cancelled';
  readonly result: string | null;
}

/** A gate or `message_submit` hook that is running right now (`name (i/n)` in a status row). */
export interface ActiveHook {
  readonly event: HookEventName;
  /** Control-stripped label, safe to display. */
  readonly label: string;
  /** 1-based position among the hooks that matched this firing. */
  readonly index: number;
  readonly total: number;
  readonly startedAt: number;
}

/**
 * One immutable picture of the session. A new object on every change and the same object
 * between changes, so `useSyncExternalStore(host.subscribe, host.getSnapshot)` and a control
 * socket read the same thing.
 */
export interface SessionSnapshot {
  readonly sessionId: string | null;
  readonly profile: HostProfile;
  readonly workspace: string;
  readonly provider: string;
  readonly model: string;
  readonly state: HostState;
  /** Why the session waits (`state === 'waiting'`), else `null`. */
  readonly reason: 'approval' | 'user_input' | null;
  /** The running turn's id, else `null`. */
  readonly turnId: string | null;
  readonly mode: Mode;
  readonly posture: Posture;
  /** Session trust (`/trust on`): file tools may reach outside the workspace. Never enables project hooks. */
  readonly sessionTrust: boolean;
  readonly busy: boolean;
  readonly todos: readonly TodoItem[];
  readonly totals: SessionTotals;
  /** Messages queued behind the running turn, oldest first. */
  readonly queued: readonly string[];
  readonly queuedCount: number;
  readonly activeHook: ActiveHook | null;
  readonly subagents: readonly SubagentInfo[];
  readonly lastTurnStatus: TurnStatus | null;
  /** Whether the host was ended or disposed: every verb then refuses. */
  readonly closed: boolean;
}

/** Something the surface should show: an observer submission failure or a hook warning. */
export interface HostNotice {
  readonly level: 'error' | 'warning' | 'info';
  readonly message: string;
  /** How long a toast should stay: 12 s for dropped observer events, 6 s for warnings. */
  readonly durationMs: number;
}

/** Where a submitted text came from. */
export type MessageSource = 'fresh' | 'queued' | 'steer';

/** How one hook that ran for a gate or `message_submit` ended (for a transcript line). */
export interface HookActivityEnd {
  readonly event: HookEventName;
  readonly label: string;
  readonly index: number;
  readonly total: number;
  readonly durationMs: number;
  /** `ok` (quiet success), or what it did that a person should see. */
  readonly result: 'ok' | 'failed' | 'blocked' | 'denied' | 'asked' | 'rewrote' | 'context';
  /** Bounded, redacted reason or detail; `null` for a quiet success. */
  readonly detail: string | null;
  /** The hook's exit status, when it exited (a `tool_call_before` hook's); absent or `null` otherwise. */
  readonly exitCode?: number | null;
}

/**
 * What a host's listeners receive: the engine's own events plus the host's. A listener that
 * only needs to re-read the snapshot can ignore the argument.
 */
export type HostEvent =
  | EngineEvent
  | { readonly type: 'snapshot' }
  | { readonly type: 'notice'; readonly notice: HostNotice }
  | { readonly type: 'message_queued'; readonly text: string; readonly queuedCount: number }
  | { readonly type: 'message_submitted'; readonly source: MessageSource; readonly original: string; readonly text: string; readonly rewritten: boolean }
  | { readonly type: 'message_blocked'; readonly source: MessageSource; readonly original: string; readonly reason: string }
  | { readonly type: 'hook_started'; readonly hook: ActiveHook }
  | { readonly type: 'hook_finished'; readonly hook: HookActivityEnd }
  | { readonly type: 'config_reloaded'; readonly report: ReloadReport }
  | { readonly type: 'closed' };

export type HostListener = (event: HostEvent) => void;

/** What {@link SessionHost.reload} found: the hook set changed or not, and why project hooks stopped. */
export interface ReloadReport {
  readonly changed: boolean;
  readonly hookCount: number;
  /** Human-readable lines (problems, a project file whose digest changed and needs re-approval). */
  readonly notes: readonly string[];
  /** Set when the configuration could not be read: nothing was reloaded, the hooks loaded before stay. */
  readonly failed?: true;
}

/**
 * The conversation as data: what the Runtime API stores to resume a thread after a restart.
 * Plain JSON (no Dates, no BigInts); `version` guards the shape.
 */
export interface ConversationSnapshot {
  readonly version: 1;
  readonly sessionId: string | null;
  readonly mode: Mode;
  readonly posture: Posture;
  readonly history: readonly ChatMessage[];
  readonly todos: readonly TodoItem[];
  readonly totals: SessionTotals;
}

/** What `submit` and a dispatched queued message end with. */
export type SubmitResult = { readonly kind: 'blocked'; readonly reason: string } | { readonly kind: 'ran'; readonly text: string; readonly warning: string | null; readonly summary: TurnSummary };

export type SteerResult = { readonly kind: 'steered' | 'idle'; readonly text: string } | { readonly kind: 'blocked'; readonly reason: string };

/**
 * The verbs of a session host (implemented by `SessionHost`). Every surface drives a session
 * through exactly these; none reaches into the engine behind it.
 */
export interface SessionHostApi {
  readonly sessionId: string | null;
  readonly profile: HostProfile;
  /** Subscribe to events; the returned function unsubscribes (idempotent). */
  subscribe(listener: HostListener): () => void;
  getSnapshot(): SessionSnapshot;
  /** Fire `session_start` (awaited) and record the first state. Call once, before the first frame. */
  start(): Promise<void>;
  /** Run a message now: `message_submit` may rewrite or block it. Refuses (`state` error) while a turn runs. */
  submit(text: string): Promise<SubmitResult>;
  /** Queue a message behind the running turn (or run it now when idle). It crosses `message_submit` when dispatched. */
  queue(text: string): void;
  /** Remove queued messages (all, or the one at `index`); returns what was removed. */
  dequeue(index?: number): readonly string[];
  /** Add text to the running turn; crosses `message_submit` once. */
  steer(text: string): Promise<SteerResult>;
  /** Cancel the running turn; queued messages stay queued. */
  cancel(): void;
  setMode(mode: Mode): void;
  setPosture(posture: Posture): void;
  /** Session trust for file tools (`/trust on|off`); never saved, never enables project hooks. */
  setSessionTrust(on: boolean): void;
  /** Re-read the configuration (hot reload): the same session id, a new hook set. */
  reload(): ReloadReport;
  /**
   * The conversation as data (for storage and resume). With `historyFrom`, `history` holds only
   * the messages from that index on: a store that keeps the history as an append-only log
   * copies what is new, not the whole conversation (the history only grows, until `clear`).
   */
  conversation(options?: { readonly historyFrom?: number }): ConversationSnapshot;
  /** Clear the conversation (a new conversation in the same session: history, todos, conversation tokens). */
  clear(): void;
  /** Fire `session_end` (awaited) after pending writes. Idempotent. */
  end(): Promise<void>;
  /** Cancel, wait for background hooks, release pools this host owns. Idempotent; implies no `session_end`. */
  dispose(): Promise<void>;
}

/** Flags a surface passes through from its command line. */
export interface SessionFlags {
  readonly provider?: string;
  readonly model?: string;
  /** A recorded model script (JSONL, see the replay format): the session runs offline. */
  readonly replay?: string;
  /** `--config PATH` (else `$CODEWHALE_CONFIG_PATH`, else `<home>/config.toml`). */
  readonly configPath?: string;
  /** Whether to load hooks from disk (`exec --hooks`; the TUI and the Runtime API always do). */
  readonly hooks?: boolean;
  readonly mode?: Mode;
  readonly posture?: Posture;
  readonly allowedTools?: readonly string[] | null;
  readonly disallowedTools?: readonly string[];
  /** Model requests per turn. */
  readonly maxSteps?: number;
}

/** Everything {@link openSession} needs. */
export interface OpenSessionOptions {
  readonly workspace: string;
  /** `$CODEWHALE_HOME` (default: from `env`, else `~/.codewhale`). */
  readonly home?: string;
  /** The environment: route keys, `CODEWHALE_*`, and what shell commands and hooks inherit. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly flags?: SessionFlags;
  readonly profile: HostProfile;
  /** How approvals and questions reach a person; default: nobody (deny, auto-resolve). */
  readonly interaction?: import('./session.js').Interaction;
  /** Resume a stored conversation (its session id is kept). */
  readonly history?: ConversationSnapshot;
  /** An embedder's own dispatcher: wins over loading hooks from disk. `null`: no hooks at all. */
  readonly hooks?: LifecycleHooks | null;
  /** Pools shared by many sessions of one process (the Runtime API); created per session when omitted. */
  readonly pools?: SharedPools;
  /** An already-built provider (tests, embedders): skips route resolution. */
  readonly provider?: import('./provider/types.js').ModelProvider;
  /** A hook's `ask` denies when nobody can answer (exec). Default: true for `exec`, false otherwise. */
  readonly askFailsClosed?: boolean;
  /** Log `tool_call_before` decision records to this JSONL file (default: `$CODEWHALE_TOOL_AUDIT_LOG`). */
  readonly decisionLogPath?: string | null;
  /** Whether hooks write the `shell_env` audit log (default true; `hooks test` turns it off). */
  readonly auditLog?: boolean;
  /** The tools the model is offered (default: the built-ins); see `@codewhale/engine/tools`. */
  readonly tools?: readonly import('./tools/tool.js').ToolDefinition[];
  /** Replace the default system prompt. */
  readonly systemPrompt?: string;
}

/**
 * What the session host needs from a hook dispatcher: the engine's two events plus the
 * lifecycle entry points, taking typed facts. `HookRuntime` (@codewhale/hooks-supervisor)
 * satisfies it; an embedder may bring its own.
 */
export interface LifecycleHooks extends EngineHooks {
  has(event: HookEventName): boolean;
  /** Submit an observer event without waiting. */
  emit(fact: LifecycleFact): { readonly ok: true } | { readonly ok: false; readonly error: string };
  /** Run an event's hooks now and wait (`session_start`, `session_end`). */
  runLifecycle(fact: LifecycleFact): Promise<readonly HookOutcome[]>;
  messageSubmit(text: string, facts: { workspace?: string | null; model?: string | null; mode?: string | null; totalTokens?: number | null; posture?: string | null }): Promise<MessageSubmitResult>;
  /** Optional: foreground gate / `message_submit` hooks starting and ending (for `name (i/n)`). */
  observeActivity?(listener: (a: { phase: 'start' | 'end'; event: 'tool_call_before' | 'message_submit'; label: string; index: number; total: number; durationMs: number | null }) => void): () => void;
  /** Optional: wait for background hook work (graceful shutdown). */
  idle?(): Promise<void>;
}

/** Hook pools several sessions of one process share (the Runtime API runs many threads). */
export interface SharedPools {
  readonly backgroundPool: BackgroundPool;
  readonly observerDispatcher: ObserverDispatcher;
}
