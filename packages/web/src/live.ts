import { RuntimeApiError, type RuntimeClient, type RuntimeEvent } from '@codewhale/runtime-client';

export type LinkState = 'connecting' | 'live' | 'reconnecting' | 'logged_out';

/**
 * The global event stream (`GET /v1/events`, one connection for every thread), resumed after a
 * drop from the last seq delivered: nothing is lost or delivered twice.
 */
export class LiveEvents {
  #lastSeq: number;
  readonly #client: RuntimeClient;
  readonly #onEvent: (ev: RuntimeEvent) => void;
  readonly #onState: (s: LinkState) => void;
  readonly #stop = new AbortController();

  constructor(client: RuntimeClient, after: number, onEvent: (ev: RuntimeEvent) => void, onState: (s: LinkState) => void) {
    this.#client = client;
    this.#lastSeq = after;
    this.#onEvent = onEvent;
    this.#onState = onState;
    void this.#run();
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  close(): void {
    this.#stop.abort();
  }

  async #run(): Promise<void> {
    let wait = 250;
    while (!this.#stop.signal.aborted) {
      try {
        for await (const f of this.#client.events({ after: this.#lastSeq, signal: this.#stop.signal })) {
          if (f.event === 'server.connected') {
            this.#onState('live');
            wait = 250;
          }
          if (f.id === null) continue;
          const seq = Number(f.id);
          if (seq <= this.#lastSeq) continue;
          this.#lastSeq = seq;
          this.#onEvent(f.data);
        }
      } catch (e) {
        if (this.#stop.signal.aborted) return;
        if (e instanceof RuntimeApiError && e.status === 401) {
          this.#onState('logged_out');
          return;
        }
      }
      if (this.#stop.signal.aborted) return;
      this.#onState('reconnecting');
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(wait * 2, 5_000);
    }
  }
}
