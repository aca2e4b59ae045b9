import type { ApprovalDecision, ApprovalRequest, Interaction, UserInputAnswer, UserInputRequest } from '@codewhale/engine';
import { emptyComposer, type ComposerState } from './composer.js';
import { INITIAL_STATE, reduceTui, type TuiAction, type TuiState } from './tui-state.js';

/** A question waiting for the person at the keyboard, oldest first. */
export type Modal = { readonly kind: 'approval'; readonly id: number; readonly request: ApprovalRequest } | { readonly kind: 'question'; readonly id: number; readonly request: UserInputRequest };

/** The launch trust prompt (shown before the session starts, for an untrusted workspace). */
export interface TrustGate {
  readonly workspace: string;
  /** The workspace ships `.codewhale/hooks.toml`: its state (`pending`, `changed`, …). */
  readonly projectHooks: string | null;
}

export interface StoreSnapshot {
  readonly ui: TuiState;
  readonly modals: readonly Modal[];
  readonly composer: ComposerState;
  /** Selected row of the slash-command completion menu. */
  readonly menuIndex: number;
  /** Answers collected so far for the open question modal (multi-question requests). */
  readonly answers: Readonly<Record<string, string | readonly string[]>>;
  readonly gate: TrustGate | null;
  /** Set while the session is ending (`session_end` runs). */
  readonly exiting: boolean;
}

/**
 * Streamed text is drawn at most this often: deltas arriving in between are joined and reduced
 * once, so a fast stream costs one layout per frame, not one per delta, and keys stay ahead.
 */
export const STREAM_FRAME_MS = 33;

export const INITIAL_SNAPSHOT: StoreSnapshot = { ui: INITIAL_STATE, modals: [], composer: emptyComposer(), menuIndex: 0, answers: {}, gate: null, exiting: false };

/** The "always" choice of an approval: writes a typed `permissions.toml` rule, then allows. */
export type AlwaysAllow = (request: ApprovalRequest) => Promise<string>;

/**
 * The TUI's own state: the reducer's state plus the modal queue that backs the session's
 * {@link Interaction}. An external store for `useSyncExternalStore`: a new snapshot object on
 * every change, the same object between changes.
 */
export class TuiStore {
  private snapshot: StoreSnapshot = INITIAL_SNAPSHOT;
  private readonly listeners = new Set<() => void>();
  private readonly resolvers = new Map<number, (value: unknown) => void>();
  private nextModal = 1;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): StoreSnapshot => this.snapshot;

  private pending: { kind: 'text_delta' | 'reasoning_delta'; text: string; now: number }[] = [];
  private frame: NodeJS.Timeout | null = null;

  dispatch(action: TuiAction): void {
    if (action.type === 'host' && (action.event.type === 'text_delta' || action.event.type === 'reasoning_delta')) {
      const last = this.pending.at(-1);
      if (last && last.kind === action.event.type) last.text += action.event.text;
      else this.pending.push({ kind: action.event.type, text: action.event.text, now: action.now });
      this.frame ??= setTimeout(() => this.flush(), STREAM_FRAME_MS);
      return;
    }
    const ui = reduceTui(this.reducePending(), action);
    if (ui !== this.snapshot.ui) this.set({ ...this.snapshot, ui });
  }

  /** Apply the streamed text that is waiting for its frame now. */
  flush(): void {
    const ui = this.reducePending();
    if (ui !== this.snapshot.ui) this.set({ ...this.snapshot, ui });
  }

  private reducePending(): TuiState {
    if (this.frame) clearTimeout(this.frame);
    this.frame = null;
    let ui = this.snapshot.ui;
    for (const p of this.pending.splice(0)) ui = reduceTui(ui, { type: 'host', event: { type: p.kind, text: p.text }, now: p.now });
    return ui;
  }

  /** Replace parts of the snapshot that are not the reducer's (composer, menu, gate). */
  patch(change: Partial<Omit<StoreSnapshot, 'ui' | 'modals'>>): void {
    this.set({ ...this.snapshot, ...change });
  }

  private set(next: StoreSnapshot): void {
    this.snapshot = next;
    for (const l of [...this.listeners]) l();
  }

  private open<T>(modal: Omit<Modal, 'id'>, signal: AbortSignal, onAbort: T): Promise<T> {
    if (signal.aborted) return Promise.resolve(onAbort);
    const id = this.nextModal++;
    return new Promise<T>((resolve) => {
      const abort = () => this.settle(id, onAbort);
      signal.addEventListener('abort', abort, { once: true });
      this.resolvers.set(id, (v) => {
        signal.removeEventListener('abort', abort);
        resolve(v as T);
      });
      this.set({ ...this.snapshot, modals: [...this.snapshot.modals, { ...modal, id } as Modal] });
    });
  }

  /** Answer modal `id` (no-op when it was already answered or withdrawn). */
  settle(id: number, value: unknown): void {
    const r = this.resolvers.get(id);
    if (!r) return;
    this.resolvers.delete(id);
    this.set({ ...this.snapshot, modals: this.snapshot.modals.filter((m) => m.id !== id), answers: {} });
    r(value);
  }

  /** Deny every open approval and decline every question (the session is ending). */
  withdrawAll(): void {
    for (const m of this.snapshot.modals) this.settle(m.id, m.kind === 'approval' ? 'deny' : null);
  }

  /** The `Interaction` to pass to `openSession`: approvals and questions become modals, answered in order. */
  interaction(): Interaction {
    return {
      approve: (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> => this.open({ kind: 'approval', request }, signal, 'deny' as ApprovalDecision),
      askUser: (request: UserInputRequest, signal: AbortSignal): Promise<UserInputAnswer | null> => this.open({ kind: 'question', request }, signal, null as UserInputAnswer | null),
    };
  }
}
