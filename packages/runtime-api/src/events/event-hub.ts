import type { StoredEvent } from '../store/records.js';

export type EventSubscriber = (event: StoredEvent) => void;

/**
 * Committed events fanned out to live subscribers, per thread. The store publishes here only
 * after a commit, so a subscriber never sees an event that is not durable.
 */
export class EventHub {
  readonly #byThread = new Map<string, Set<EventSubscriber>>();
  readonly #streams = new Map<() => void, Promise<void>>();
  #ended = false;

  /** True once {@link end} was called: streams finish what is queued and end. */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Register a stream that must end on shutdown: `wake` is called when the hub ends, `done`
   * resolves when the stream has ended. Returns the function that unregisters it.
   */
  holdStream(wake: () => void, done: Promise<void>): () => void {
    this.#streams.set(wake, done);
    return () => {
      this.#streams.delete(wake);
    };
  }

  /** Shutdown: wake every stream so it ends after delivering what it has; wait at most `ms` for them. */
  async end(ms: number): Promise<void> {
    this.#ended = true;
    const done = [...this.#streams.values()];
    for (const wake of [...this.#streams.keys()]) wake();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled(done), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }

  publish(events: readonly StoredEvent[]): void {
    for (const e of events) {
      const subs = this.#byThread.get(e.threadId);
      if (subs) for (const s of [...subs]) s(e);
      for (const s of [...this.#everything]) s(e);
    }
  }

  readonly #everything = new Set<EventSubscriber>();

  /** Subscribe to one thread (`null`: every thread); the returned function unsubscribes (idempotent). */
  subscribe(threadId: string | null, subscriber: EventSubscriber): () => void {
    let subs = threadId === null ? this.#everything : this.#byThread.get(threadId);
    if (!subs) {
      subs = new Set();
      this.#byThread.set(threadId!, subs);
    }
    subs.add(subscriber);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (threadId === null) {
        this.#everything.delete(subscriber);
        return;
      }
      const set = this.#byThread.get(threadId);
      set?.delete(subscriber);
      if (set && set.size === 0) this.#byThread.delete(threadId);
    };
  }

  /** Live subscribers (all threads and the global stream): what a disconnect must release. */
  subscriberCount(): number {
    let n = this.#everything.size;
    for (const s of this.#byThread.values()) n += s.size;
    return n;
  }
}

const wireText = new WeakMap<StoredEvent, string>();

/** The envelope as JSON text, built once per event however many streams send it. */
export function envelopeText(e: StoredEvent): string {
  let text = wireText.get(e);
  if (text === undefined) {
    text = JSON.stringify(eventEnvelope(e));
    wireText.set(e, text);
  }
  return text;
}

/** The wire envelope of an event. */
export function eventEnvelope(e: StoredEvent): Record<string, unknown> {
  return {
    schema_version: 1,
    seq: e.seq,
    event: e.event,
    thread_id: e.threadId,
    turn_id: e.turnId,
    item_id: e.itemId,
    created_at: e.createdAt,
    payload: e.payload,
  };
}
