/**
 * Begin a queued job early, behind the job a worker is running (see {@link WorkQueue}).
 * `begin(next, running)` returns true when it has begun `next` so that it starts by itself the
 * moment `running` ends (the observer dispatcher hands both to the process host in order);
 * `withdraw(job, drop)` is called when a begun job must not start by itself after all: another
 * worker takes it over (`drop` false: its `run` then starts it, unless it had already
 * started), or the queue is closed with `drop` (its `run` then starts nothing more).
 */
export interface JobStaging<J> {
  readonly begin: (next: J, running: J) => boolean;
  readonly withdraw: (job: J, drop: boolean) => void;
}

interface Entry<J> {
  readonly job: J;
  readonly seq: number;
}

interface Worker<J> {
  current: J | null;
  // The job begun behind `current`: counted as waiting until this worker runs it.
  staged: Entry<J> | null;
}

/**
 * A fixed-capacity queue drained by a fixed number of persistent workers. Submission never
 * blocks and never creates a worker: a full queue or a closed queue is a failed submission
 * the caller must report. `capacity` counts jobs waiting; up to `workers` more may be running.
 *
 * With `staging`, when every worker is busy, each begins the queue's head behind the job it
 * runs, so that job starts without a round trip once the one ahead of it ends. A begun job is
 * still a waiting job: it keeps its slot until its worker runs it; a worker that falls free
 * while nothing else waits takes it over (withdrawn, then started by that worker, unless it
 * had started already); `close({ drop: true })` withdraws it. At most `workers` jobs run at
 * once, as without staging; a begun job waits for the job ahead of it, not for the oldest.
 */
export class WorkQueue<J> {
  readonly capacity: number;
  readonly workers: number;
  readonly #queue: Entry<J>[] = [];
  readonly #wake: (() => void)[] = [];
  readonly #run: (job: J) => Promise<void>;
  readonly #staging: JobStaging<J> | null;
  readonly #workers: Worker<J>[] = [];
  #seq = 0;
  #running = 0;
  #closed = false;
  readonly #loops: Promise<void>[] = [];
  #idleWaiters: (() => void)[] = [];

  constructor(options: { capacity: number; workers: number; run: (job: J) => Promise<void>; staging?: JobStaging<J> }) {
    this.capacity = options.capacity;
    this.workers = options.workers;
    this.#run = options.run;
    this.#staging = options.staging ?? null;
    for (let i = 0; i < options.workers; i++) {
      const worker: Worker<J> = { current: null, staged: null };
      this.#workers.push(worker);
      this.#loops.push(this.#loop(worker));
    }
  }

  /** What {@link trySubmit} would answer now, without submitting anything. */
  get status(): 'accepted' | 'full' | 'closed' {
    if (this.#closed) return 'closed';
    return this.pending >= this.capacity ? 'full' : 'accepted';
  }

  /** Enqueue without blocking: `full` when every slot is taken, `closed` after {@link close}. */
  trySubmit(job: J): 'accepted' | 'full' | 'closed' {
    const status = this.status;
    if (status !== 'accepted') return status;
    this.#queue.push({ job, seq: this.#seq++ });
    const idle = this.#wake.shift();
    if (idle) idle();
    else for (const w of this.#workers) this.#stage(w);
    return 'accepted';
  }

  /** Jobs waiting: queued, or begun behind a running job. */
  get pending(): number {
    let staged = 0;
    for (const w of this.#workers) if (w.staged) staged++;
    return this.#queue.length + staged;
  }

  get running(): number {
    return this.#running;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Resolves once nothing is queued or running. */
  idle(): Promise<void> {
    if (this.pending === 0 && this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Stop accepting; queued jobs still run unless `drop` is set, which also withdraws the jobs
   * begun behind running ones (their `run` still settles what had started). Resolves when the
   * workers stop.
   */
  async close(options: { drop?: boolean } = {}): Promise<void> {
    this.#closed = true;
    if (options.drop) {
      this.#queue.length = 0;
      for (const w of this.#workers) if (w.staged) this.#staging!.withdraw(w.staged.job, true);
    }
    for (const w of this.#wake.splice(0)) w();
    await Promise.all(this.#loops);
  }

  /**
   * The job this worker runs next: its own begun job, else the queue's head, else the oldest
   * job begun behind another worker's (that one still runs, and this worker is free first).
   */
  #take(worker: Worker<J>): J | undefined {
    if (worker.staged) {
      const { job } = worker.staged;
      worker.staged = null;
      return job;
    }
    const head = this.#queue.shift();
    if (head) return head.job;
    let owner: Worker<J> | null = null;
    for (const w of this.#workers) if (w !== worker && w.staged && (owner === null || w.staged.seq < owner.staged!.seq)) owner = w;
    if (owner === null) return undefined;
    const { job } = owner.staged!;
    owner.staged = null;
    this.#staging!.withdraw(job, false);
    return job;
  }

  /**
   * Begin the queue's head behind this worker's job, when it has none begun yet and every
   * worker is busy (a free worker takes the head itself).
   */
  #stage(worker: Worker<J>): void {
    if (!this.#staging || this.#closed || worker.current === null || worker.staged || this.#queue.length === 0) return;
    if (this.#workers.some((w) => w.current === null)) return;
    const head = this.#queue[0]!;
    let begun = false;
    try {
      begun = this.#staging.begin(head.job, worker.current);
    } catch {
      // Not begun: the job waits in the queue as any other.
    }
    if (!begun) return;
    this.#queue.shift();
    worker.staged = head;
  }

  async #loop(worker: Worker<J>): Promise<void> {
    for (;;) {
      const job = this.#take(worker);
      if (job === undefined) {
        this.#checkIdle();
        if (this.#closed) return;
        await new Promise<void>((resolve) => this.#wake.push(resolve));
        continue;
      }
      this.#running++;
      worker.current = job;
      try {
        const done = this.#run(job);
        // Every worker may be busy only now: each one without a begun job begins the head.
        for (const w of this.#workers) this.#stage(w);
        await done;
      } catch {
        // A job's failure is its own; the worker keeps serving the queue.
      } finally {
        worker.current = null;
        this.#running--;
      }
    }
  }

  #checkIdle(): void {
    if (this.pending === 0 && this.#running === 0) {
      for (const w of this.#idleWaiters.splice(0)) w();
    }
  }
}
