/**
 * A fixed-capacity queue drained by a fixed number of persistent workers. Submission never
 * blocks and never creates a worker: a full queue or a closed queue is a failed submission
 * the caller must report. `capacity` counts jobs waiting; up to `workers` more may be running.
 */
export class WorkQueue<J> {
  readonly capacity: number;
  readonly workers: number;
  readonly #queue: J[] = [];
  readonly #wake: (() => void)[] = [];
  readonly #run: (job: J) => Promise<void>;
  readonly #loops: Promise<void>[] = [];
  #running = 0;
  #closed = false;
  #idleWaiters: (() => void)[] = [];

  constructor(options: { capacity: number; workers: number; run: (job: J) => Promise<void> }) {
    this.capacity = options.capacity;
    this.workers = options.workers;
    this.#run = options.run;
    for (let i = 0; i < options.workers; i++) this.#loops.push(this.#loop());
  }

  /** What {@link trySubmit} would answer now, without submitting anything. */
  get status(): 'accepted' | 'full' | 'closed' {
    if (this.#closed) return 'closed';
    return this.#queue.length >= this.capacity ? 'full' : 'accepted';
  }

  /** Enqueue without blocking: `full` when every slot is taken, `closed` after {@link close}. */
  trySubmit(job: J): 'accepted' | 'full' | 'closed' {
    const status = this.status;
    if (status !== 'accepted') return status;
    this.#queue.push(job);
    this.#wake.shift()?.();
    return 'accepted';
  }

  /** Jobs waiting (not yet running). */
  get pending(): number {
    return this.#queue.length;
  }

  get running(): number {
    return this.#running;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Resolves once nothing is queued or running. */
  idle(): Promise<void> {
    if (this.#queue.length === 0 && this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Stop accepting; queued jobs still run unless `drop` is set. Resolves when the workers stop. */
  async close(options: { drop?: boolean } = {}): Promise<void> {
    this.#closed = true;
    if (options.drop) this.#queue.length = 0;
    for (const w of this.#wake.splice(0)) w();
    await Promise.all(this.#loops);
  }

  async #loop(): Promise<void> {
    for (;;) {
      const job = this.#queue.shift();
      if (job === undefined) {
        if (this.#running === 0) for (const w of this.#idleWaiters.splice(0)) w();
        if (this.#closed) return;
        await new Promise<void>((resolve) => this.#wake.push(resolve));
        continue;
      }
      this.#running++;
      try {
        await this.#run(job);
      } catch {
        // A job's failure is its own; the worker keeps serving the queue.
      } finally {
        this.#running--;
      }
    }
  }
}
