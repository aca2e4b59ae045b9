import type { ApprovalAnswer } from '@codewhale/engine';
import type { ApprovalRecord } from './store/records.js';
import type { RuntimeStore } from './store/runtime-store.js';

/**
 * What the engine gets back for an approval: a client's answer (`deny` is a person's "no"), or
 * a denial with its cause (expired, Auto-Review, interrupted), which the engine words for the model.
 */
export type BrokerDecision = ApprovalAnswer;

export interface ApprovalRequestInput {
  readonly threadId: string;
  readonly turnId: string;
  readonly itemId: string | null;
  readonly tool: string;
  readonly reason: 'posture' | 'hook' | 'permission';
  readonly summary: string;
  /** `reason: hook`: the hook that asked and its reason. */
  readonly hookName?: string | null;
  readonly hookReason?: string | null;
  /** Deny at once (Auto-Review threads: nobody is asked), recorded like any other approval. */
  readonly autoDeny?: boolean;
}

export type AnswerResult =
  | { readonly ok: true; readonly approval: ApprovalRecord }
  | { readonly ok: false; readonly reason: 'not_found' | 'already_decided'; readonly approval: ApprovalRecord | null };

/**
 * Turns the engine's approval requests into durable pending approvals that any client can
 * answer (`POST /v1/approvals/:id`). Each waits at most `timeoutMs` (300 s), then denies with
 * `approval.timeout`; a cancelled turn denies it at once. Every state change goes through the
 * store, so the answer, the event and the engine's decision always agree.
 */
export class ApprovalBroker {
  readonly #store: RuntimeStore;
  readonly #timeoutMs: number;
  readonly #waiting = new Map<string, { resolve: (d: BrokerDecision) => void; timer: ReturnType<typeof setTimeout>; off: () => void }>();

  constructor(store: RuntimeStore, options: { timeoutMs?: number } = {}) {
    this.#store = store;
    this.#timeoutMs = options.timeoutMs ?? 300_000;
  }

  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** Ask: resolves when a client answers, the timeout denies, or `signal` aborts (deny). */
  request(input: ApprovalRequestInput, signal: AbortSignal): Promise<BrokerDecision> {
    const approval = this.#store.createApproval({ ...input, timeoutMs: this.#timeoutMs });
    if (input.autoDeny) {
      this.#store.decideApproval(approval.id, { decision: 'deny', remember: false, by: 'policy' });
      return Promise.resolve({ deny: 'auto_review' });
    }
    if (signal.aborted) {
      this.#store.decideApproval(approval.id, { decision: 'deny', remember: false, by: 'cancelled' });
      return Promise.resolve({ deny: 'interrupted' });
    }
    return new Promise<BrokerDecision>((resolve) => {
      const settle = (by: 'timeout' | 'cancelled') => {
        if (!this.#waiting.has(approval.id)) return;
        this.#release(approval.id);
        if (this.#store.isOpen) this.#store.decideApproval(approval.id, { decision: 'deny', remember: false, by });
        resolve({ deny: by === 'timeout' ? 'expired' : 'interrupted' });
      };
      const timer = setTimeout(() => settle('timeout'), this.#timeoutMs);
      const onAbort = () => settle('cancelled');
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(approval.id, { resolve, timer, off: () => signal.removeEventListener('abort', onAbort) });
    });
  }

  /** A client's answer. `remember` with `allow` allows the tool for the rest of the session. */
  answer(id: string, decision: 'allow' | 'deny', remember: boolean): AnswerResult {
    const result = this.#store.decideApproval(id, { decision, remember, by: 'client' });
    if (!result.ok) return result;
    const waiter = this.#waiting.get(id);
    if (waiter) {
      this.#release(id);
      waiter.resolve(decision === 'deny' ? 'deny' : remember ? 'allow_session' : 'allow');
    }
    return result;
  }

  /** Approvals still waiting in this process. */
  get pendingCount(): number {
    return this.#waiting.size;
  }

  #release(id: string): void {
    const w = this.#waiting.get(id);
    if (!w) return;
    clearTimeout(w.timer);
    w.off();
    this.#waiting.delete(id);
  }

  /** Deny everything still waiting (shutdown), recorded as interrupted. */
  close(): void {
    for (const [id, w] of [...this.#waiting]) {
      this.#release(id);
      if (this.#store.isOpen) this.#store.decideApproval(id, { decision: 'deny', remember: false, by: 'cancelled' });
      w.resolve({ deny: 'interrupted' });
    }
  }
}
