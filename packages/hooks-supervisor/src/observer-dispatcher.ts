import { LIMITS, type HookEventName } from '@codewhale/hooks-payloads';
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
 * The observer dispatcher: one 32-slot queue drained by 2 persistent workers. Submission is a
 * non-blocking try: the caller never waits on a hook process and no thread or task is created
 * per event. Inside a worker, one event's hooks run in config order. A full or lost dispatcher
 * drops the event with an event-specific message the surface shows as an error toast.
 */
export class ObserverDispatcher {
  readonly #queue: WorkQueue<() => Promise<void>>;

  constructor(options: { capacity?: number; workers?: number } = {}) {
    this.#queue = new WorkQueue<() => Promise<void>>({
      capacity: options.capacity ?? LIMITS.observerQueueCapacity,
      workers: options.workers ?? LIMITS.observerWorkers,
      run: (work) => work(),
    });
  }

  /** Submit an event's work (it runs the event's hooks in config order). */
  trySubmit(event: HookEventName, work: () => Promise<void>): ObserverSubmission {
    return submission(event, this.#queue.trySubmit(work));
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
