import { LIMITS, backgroundOutcome, type HookOutcome } from '@codewhale/hooks-payloads';
import { runHook, type RunSpec } from './run-hook.js';
import { WorkQueue } from './work-queue.js';
import { SILENT_LOGGER, type HookLogger } from './logger.js';

export const BACKGROUND_QUEUE_FULL = 'background hook supervisor queue is full';
export const BACKGROUND_UNAVAILABLE = 'background hook supervisor is unavailable';

interface Job {
  readonly spec: RunSpec;
  readonly onSettled?: (outcome: HookOutcome) => void;
}

/**
 * The background supervisor: a 32-slot queue drained by 2 persistent workers. A background
 * hook is submitted, never awaited: its stdout and stderr are discarded, it gets the same
 * environment and stdin as the foreground form, its timeout clock starts at spawn inside the
 * worker, and revocation is checked again when it is dequeued (D14).
 */
export class BackgroundPool {
  readonly #queue: WorkQueue<Job>;
  readonly #logger: HookLogger;

  constructor(options: { capacity?: number; workers?: number; logger?: HookLogger } = {}) {
    this.#logger = options.logger ?? SILENT_LOGGER;
    this.#queue = new WorkQueue<Job>({
      capacity: options.capacity ?? LIMITS.backgroundQueueCapacity,
      workers: options.workers ?? LIMITS.backgroundWorkers,
      run: (job) => this.#execute(job),
    });
  }

  /**
   * Submit without blocking. The returned outcome is the submission's: `success` when accepted,
   * else the contract's failure message. It never carries an exit code.
   */
  submit(spec: RunSpec, onSettled?: (outcome: HookOutcome) => void): HookOutcome {
    const status = this.#queue.trySubmit({ spec: Object.assign({}, spec, { background: true }), onSettled });
    if (status === 'accepted') return backgroundOutcome(spec.hook, true);
    const error = status === 'full' ? BACKGROUND_QUEUE_FULL : BACKGROUND_UNAVAILABLE;
    this.#logger.warn('background hook was not submitted', { hook: spec.hook.label, event: spec.hook.event, detail: error });
    return backgroundOutcome(spec.hook, false, error);
  }

  get pending(): number {
    return this.#queue.pending;
  }

  get running(): number {
    return this.#queue.running;
  }

  /** Resolves when nothing is queued or running (tests, graceful shutdown). */
  idle(): Promise<void> {
    return this.#queue.idle();
  }

  /** Stop accepting submissions; later submissions fail as "unavailable". */
  close(options: { drop?: boolean } = {}): Promise<void> {
    return this.#queue.close(options);
  }

  async #execute(job: Job): Promise<void> {
    const outcome = await runHook(job.spec);
    const fields = { hook: job.spec.hook.label, event: job.spec.hook.event, duration_ms: outcome.durationMs };
    if (outcome.timedOut) this.#logger.warn('background hook timed out; process tree killed', fields);
    else if (!outcome.success) this.#logger.warn('background hook failed', { ...fields, exit_code: outcome.exitCode, detail: outcome.error ? 'hook did not run' : 'non-zero exit' });
    job.onSettled?.(Object.assign({}, outcome, { background: true, strict: false }));
  }
}
