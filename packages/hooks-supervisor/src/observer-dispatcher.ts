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

interface Job {
  readonly event: HookEventName;
  readonly run: () => Promise<void>;
}

/**
 * The observer dispatcher: one 32-slot queue drained by 2 persistent workers. Submission is a
 * non-blocking try: the caller never waits on a hook process and no thread or task is created
 * per event. Inside a worker, one event's hooks run in config order. A full or lost dispatcher
 * drops the event with an event-specific message the surface shows as an error toast.
 */
export class ObserverDispatcher {
  readonly #queue: WorkQueue<Job>;

  constructor(options: { capacity?: number; workers?: number } = {}) {
    this.#queue = new WorkQueue<Job>({
      capacity: options.capacity ?? LIMITS.observerQueueCapacity,
      workers: options.workers ?? LIMITS.observerWorkers,
      run: (job) => job.run(),
    });
  }

  trySubmit(event: HookEventName, run: () => Promise<void>): ObserverSubmission {
    const status = this.#queue.trySubmit({ event, run });
    if (status === 'accepted') return { ok: true };
    return { ok: false, error: status === 'full' ? observerQueueFullMessage(event) : observerUnavailableMessage(event) };
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
