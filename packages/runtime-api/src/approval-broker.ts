import type { AlwaysOutcome, ApprovalAnswer, UserInputAnswer } from '@codewhale/engine';
import type { AlwaysChoice, ApprovalRecord, ApprovalScope, UserInputQuestionRecord, UserInputRecord, WritePreviewRecord } from './store/records.js';
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
  /** What "always" would remember (display-safe), or why it cannot. */
  readonly always?: AlwaysChoice | null;
  /** A write's preview (display-safe). */
  readonly preview?: WritePreviewRecord | null;
}

/**
 * Writes the approval's "always" rule and applies it in its session (the engine's
 * `SessionHost.rememberAlways`). Synchronous: nothing else in this process runs between the
 * check that the approval is pending, the write and the decision.
 */
export type RememberAlways = () => AlwaysOutcome;

export type UserInputResult =
  | { readonly ok: true; readonly input: UserInputRecord }
  | { readonly ok: false; readonly reason: 'not_found' | 'already_settled'; readonly input: UserInputRecord | null }
  | { readonly ok: false; readonly reason: 'invalid'; readonly issues: readonly { path: string; code: string; message: string }[]; readonly input: UserInputRecord };

/**
 * What is wrong with `answers` to `questions` (empty when nothing): every question answered,
 * no unknown one; a multi-select question takes a non-empty list of distinct answers, any other
 * one text; each answer is an option's label unless the question allows free text.
 */
export function answerIssues(questions: readonly UserInputQuestionRecord[], answers: Readonly<Record<string, unknown>>): { path: string; code: string; message: string }[] {
  const issues: { path: string; code: string; message: string }[] = [];
  const ids = new Set(questions.map((q) => q.id));
  for (const k of Object.keys(answers)) if (!ids.has(k)) issues.push({ path: `answers.${k}`, code: 'unknown_question', message: 'no question has this id' });
  for (const q of questions) {
    const a = answers[q.id];
    const path = `answers.${q.id}`;
    if (a === undefined) {
      issues.push({ path, code: 'missing', message: 'answer every question' });
      continue;
    }
    const list = typeof a === 'string' ? [a] : Array.isArray(a) && a.every((x) => typeof x === 'string') ? (a as string[]) : null;
    if (list === null || (typeof a !== 'string' && !q.multiSelect)) {
      issues.push({ path, code: 'invalid_type', message: q.multiSelect ? 'a list of answers' : 'one answer (text)' });
      continue;
    }
    if (list.length === 0 || new Set(list).size !== list.length || list.some((x) => x.trim() === '' || x.length > 2_000)) {
      issues.push({ path, code: 'invalid_value', message: 'non-empty, distinct answers of at most 2,000 characters' });
      continue;
    }
    const labels = new Set(q.options.map((o) => o.label));
    if (!q.allowFreeText && list.some((x) => !labels.has(x))) issues.push({ path, code: 'invalid_option', message: `one of: ${[...labels].join(', ')}` });
  }
  return issues;
}

export type AnswerResult =
  | { readonly ok: true; readonly approval: ApprovalRecord }
  | { readonly ok: false; readonly reason: 'not_found' | 'already_decided'; readonly approval: ApprovalRecord | null }
  | { readonly ok: false; readonly reason: 'cannot_remember'; readonly message: string; readonly approval: ApprovalRecord };

/**
 * Turns the engine's approval requests into durable pending approvals that any client can
 * answer (`POST /v1/approvals/:id`). Each waits at most `timeoutMs` (300 s), then denies with
 * `approval.timeout`; a cancelled turn denies it at once. Every state change goes through the
 * store, so the answer, the event and the engine's decision always agree.
 */
export class ApprovalBroker {
  readonly #store: RuntimeStore;
  readonly #timeoutMs: number;
  readonly #waiting = new Map<string, { resolve: (d: BrokerDecision) => void; timer: ReturnType<typeof setTimeout>; off: () => void; always: RememberAlways | null }>();
  readonly #asking = new Map<string, { resolve: (a: UserInputAnswer | null) => void; timer: ReturnType<typeof setTimeout>; off: () => void }>();

  constructor(store: RuntimeStore, options: { timeoutMs?: number } = {}) {
    this.#store = store;
    this.#timeoutMs = options.timeoutMs ?? 300_000;
  }

  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** Ask: resolves when a client answers, the timeout denies, or `signal` aborts (deny). */
  request(input: ApprovalRequestInput, signal: AbortSignal, always: RememberAlways | null = null): Promise<BrokerDecision> {
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
      this.#waiting.set(approval.id, { resolve, timer, off: () => signal.removeEventListener('abort', onAbort), always });
    });
  }

  /**
   * A client's answer: `deny`, or `allow` once, for the session (the tool is allowed for the
   * rest of the session), or always — the engine writes the approval's permissions rule and
   * applies it in the session first; when no rule can remember the call nothing is decided
   * (`cannot_remember`, with the reason). A rule file that cannot be written throws the
   * engine's `config` error, the approval still pending.
   */
  answer(id: string, decision: 'allow' | 'deny', scope: ApprovalScope = 'once'): AnswerResult {
    if (decision === 'allow' && scope === 'always') {
      const current = this.#store.getApproval(id);
      if (!current) return { ok: false, reason: 'not_found', approval: null };
      if (current.status !== 'pending') return { ok: false, reason: 'already_decided', approval: current };
      const remember = this.#waiting.get(id)?.always ?? null;
      if (remember === null) return { ok: false, reason: 'cannot_remember', message: "this approval's session has no permissions file to remember a rule in", approval: current };
      const r = remember();
      if (!r.ok) return { ok: false, reason: 'cannot_remember', message: current.always?.reason ?? r.reason, approval: current };
    }
    const result = this.#store.decideApproval(id, { decision, remember: decision === 'allow' && scope !== 'once', scope, by: 'client' });
    if (!result.ok) return result;
    const waiter = this.#waiting.get(id);
    if (waiter) {
      this.#release(id);
      waiter.resolve(decision === 'deny' ? 'deny' : scope === 'session' ? 'allow_session' : 'allow');
    }
    return result;
  }

  /**
   * Questions the model asked (`request_user_input`): durable until a client answers
   * (`POST /v1/user-inputs/:id`), the timeout passes or the turn ends — then `null`, and the
   * tool tells the model nobody answered.
   */
  askUser(input: { threadId: string; turnId: string; itemId: string | null; questions: readonly UserInputQuestionRecord[] }, signal: AbortSignal): Promise<UserInputAnswer | null> {
    const record = this.#store.createUserInput({ ...input, timeoutMs: this.#timeoutMs });
    if (signal.aborted) {
      this.#store.settleUserInput(record.id, { expired: 'turn_ended' });
      return Promise.resolve(null);
    }
    return new Promise((resolve) => {
      const settle = (why: 'expired' | 'turn_ended') => {
        const w = this.#asking.get(record.id);
        if (!w) return;
        clearTimeout(w.timer);
        w.off();
        this.#asking.delete(record.id);
        if (this.#store.isOpen) this.#store.settleUserInput(record.id, { expired: why });
        resolve(null);
      };
      const timer = setTimeout(() => settle('expired'), this.#timeoutMs);
      const onAbort = () => settle('turn_ended');
      signal.addEventListener('abort', onAbort, { once: true });
      this.#asking.set(record.id, { resolve, timer, off: () => signal.removeEventListener('abort', onAbort) });
    });
  }

  /** A client's answers to pending questions; invalid answers change nothing. */
  answerUserInput(id: string, answers: Readonly<Record<string, string | readonly string[]>>): UserInputResult {
    const current = this.#store.getUserInput(id);
    if (!current) return { ok: false, reason: 'not_found', input: null };
    if (current.status !== 'pending') return { ok: false, reason: 'already_settled', input: current };
    const issues = answerIssues(current.questions, answers);
    if (issues.length > 0) return { ok: false, reason: 'invalid', issues, input: current };
    const r = this.#store.settleUserInput(id, { answers });
    if (!r.ok) return r;
    const w = this.#asking.get(id);
    if (w) {
      clearTimeout(w.timer);
      w.off();
      this.#asking.delete(id);
      w.resolve(answers);
    }
    return r;
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

  /** Deny everything still waiting (shutdown), recorded as interrupted; questions end unanswered. */
  close(): void {
    for (const [id, w] of [...this.#asking]) {
      clearTimeout(w.timer);
      w.off();
      this.#asking.delete(id);
      if (this.#store.isOpen) this.#store.settleUserInput(id, { expired: 'turn_ended' });
      w.resolve(null);
    }
    for (const [id, w] of [...this.#waiting]) {
      this.#release(id);
      if (this.#store.isOpen) this.#store.decideApproval(id, { decision: 'deny', remember: false, by: 'cancelled' });
      w.resolve({ deny: 'interrupted' });
    }
  }
}
