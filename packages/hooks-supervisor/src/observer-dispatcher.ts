import { LIMITS, type HookEventName, type HookOutcome } from '@codewhale/hooks-payloads';
import { HookChain, type ChainStopRule, type RunSpec } from './run-hook.js';
import { WorkQueue } from './work-queue.js';

/** The exact, event-specific message for a dropped observer event. */
export function observerQueueFullMessage(event: HookEventName): string {
  return `${event} observer hook queue is full; event was not submitted`;
}

export function observerUnavailableMessage(event: HookEventName): string {
  return `${event} observer hook dispatcher is unavailable; event was not submitted`;
}

export type ObserverSubmission = { readonly ok: true } | { readonly ok: false; readonly error: string };

function submission(event: HookEventName, status: 'accepted' | 'full' | 'closed'): ObserverSubmission {
  if (status === 'accepted') return { ok: true };
  return { ok: false, error: status === 'full' ? observerQueueFullMessage(event) : observerUnavailableMessage(event) };
}

/**
 * An observer event's work that the dispatcher may begin early: behind the job a worker is
 * running, so that it starts the moment that one ends (see {@link ObserverChainJob}).
 */
export interface StageableJob {
  /** Run the job; when it was begun, wait for it and settle its outcomes. */
  run(): Promise<void>;
  /** Begin this job so it starts by itself when `running` ends; false (nothing sent) when it cannot. */
  stageBehind(running: StageableJob): boolean;
  /** Undo {@link stageBehind} if the job has not started; with `drop` it starts nothing at all. */
  withdraw(drop: boolean): void;
}

/**
 * One observer event whose hooks are all foreground: one {@link HookChain}, which the
 * dispatcher can stage behind the chain a worker runs (`HookChain.stageBehind`; a hook with
 * an `authorize` check is never staged, so D14 is asked right before its start). `onOutcome`
 * gets every outcome, in config order.
 */
export class ObserverChainJob implements StageableJob {
  readonly #chain: HookChain;
  readonly #onOutcome: (outcome: HookOutcome) => void;

  constructor(specs: readonly RunSpec[], stopAfter: ChainStopRule | null, onOutcome: (outcome: HookOutcome) => void) {
    this.#chain = new HookChain(specs, stopAfter ? { stopAfter } : {});
    this.#onOutcome = onOutcome;
  }

  async run(): Promise<void> {
    for (;;) {
      const outcome = await this.#chain.next();
      if (outcome === null) return;
      this.#onOutcome(outcome);
    }
  }

  stageBehind(running: StageableJob): boolean {
    return running instanceof ObserverChainJob && this.#chain.stageBehind(running.#chain);
  }

  withdraw(drop: boolean): void {
    this.#chain.withdraw({ drop });
  }
}

interface Job {
  readonly event: HookEventName;
  readonly run: () => Promise<void>;
  readonly stageable: StageableJob | null;
}

/**
 * The observer dispatcher: one 32-slot queue drained by 2 persistent workers. Submission is a
 * non-blocking try: the caller never waits on a hook process and no thread or task is created
 * per event. Inside a worker, one event's hooks run in config order. A full or lost dispatcher
 * drops the event with an event-specific message the surface shows as an error toast.
 *
 * When both workers are busy, each begins the queue's head behind the event it runs
 * ({@link StageableJob}; only events run in the process host), so the host starts that event's
 * hooks the moment the running one's end, without a round trip through this process. The
 * begun event keeps its queue slot until its worker takes it, and a worker that falls free
 * while nothing else waits takes it over (WorkQueue's staging).
 */
export class ObserverDispatcher {
  readonly #queue: WorkQueue<Job>;

  constructor(options: { capacity?: number; workers?: number } = {}) {
    this.#queue = new WorkQueue<Job>({
      capacity: options.capacity ?? LIMITS.observerQueueCapacity,
      workers: options.workers ?? LIMITS.observerWorkers,
      run: (job) => job.run(),
      staging: {
        begin: (next, running) => next.stageable !== null && running.stageable !== null && next.stageable.stageBehind(running.stageable),
        withdraw: (job, drop) => job.stageable?.withdraw(drop),
      },
    });
  }

  /** Submit an event's work: a function, or a {@link StageableJob} the dispatcher may begin early. */
  trySubmit(event: HookEventName, work: (() => Promise<void>) | StageableJob): ObserverSubmission {
    const job: Job = typeof work === 'function' ? { event, run: work, stageable: null } : { event, run: () => work.run(), stageable: work };
    return submission(event, this.#queue.trySubmit(job));
  }

  /**
   * The refusal {@link trySubmit} would give `event` now (the queue is full or closed), or
   * `null` when it would accept: a caller checks before it builds an event's work, so an
   * event that cannot be queued costs nothing more.
   */
  refusal(event: HookEventName): ObserverSubmission | null {
    const status = this.#queue.status;
    return status === 'accepted' ? null : submission(event, status);
  }

  get pending(): number {
    return this.#queue.pending;
  }

  idle(): Promise<void> {
    return this.#queue.idle();
  }

  close(options: { drop?: boolean } = {}): Promise<void> {
    return this.#queue.close(options);
  }
}
