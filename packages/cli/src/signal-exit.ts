import { constants } from 'node:os';

/**
 * How `codewhale` ends on a signal. Exit codes follow the 128 + n convention (SIGHUP → 129,
 * SIGINT → 130, SIGTERM → 143). A surface with an interactive session (the TUI) registers a
 * graceful-exit handler with {@link onSignalExit}: on the first signal every handler runs (to
 * end the session, so `session_end` still fires) for at most {@link SIGNAL_GRACE_MS} (or the
 * longest grace a handler registered with); then the cleanup runs (hook and shell process
 * groups are ended) and the process exits — with the code a handler chose (`serve` exits 0
 * once it has closed), or 128 + n. A second signal while that is under way exits at once,
 * after the cleanup.
 */

/** The signals that end `codewhale` this way. */
export const EXIT_SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM'] as const satisfies readonly NodeJS.Signals[];

/** How long graceful-exit handlers may take before the process exits anyway. */
export const SIGNAL_GRACE_MS = 5_000;

/** 128 + the signal's number on this platform (SIGHUP → 129, SIGINT → 130, SIGTERM → 143). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

/**
 * Runs when a signal ends the process: end the session gracefully. May be async. A handler that
 * resolves to a number chooses the exit code (a server that stopped cleanly exits 0); otherwise
 * the code is 128 + the signal's number.
 */
export type SignalExitHandler = (signal: NodeJS.Signals) => undefined | number | Promise<undefined | number>;

export interface SignalExitRegistration {
  /** How long this handler may take (default {@link SIGNAL_GRACE_MS}); the longest registered wins. */
  readonly graceMs?: number;
}

/**
 * One registry per process, not per copy of this module: the binary runs the command line as
 * its own bundle (dist/cli.cjs), and a program that imports `@codewhale/cli` and then runs the
 * binary in the same process must reach the same handlers.
 */
const REGISTRY = Symbol.for('codewhale.signalExitHandlers');
const handlers: Map<SignalExitHandler, SignalExitRegistration> = ((globalThis as { [REGISTRY]?: Map<SignalExitHandler, SignalExitRegistration> })[REGISTRY] ??= new Map());

/**
 * Register a graceful-exit handler (the hook point for interactive surfaces and `serve`).
 * Returns the function that unregisters it; unregister when the session ends normally.
 */
export function onSignalExit(handler: SignalExitHandler, registration: SignalExitRegistration = {}): () => void {
  handlers.set(handler, registration);
  return () => {
    handlers.delete(handler);
  };
}

export interface InstallSignalExitOptions {
  /** Always run last, before exiting (ends hook and shell process groups). */
  readonly cleanup: () => Promise<void>;
  readonly graceMs?: number;
  readonly exit?: (code: number) => void;
}

/** Install the handlers for {@link EXIT_SIGNALS}. Call once, from the binary's entry. */
export function installSignalExit(options: InstallSignalExitOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const grace = options.graceMs ?? SIGNAL_GRACE_MS;
  let ending: NodeJS.Signals | null = null;
  const finish = (code: number): void => {
    void options
      .cleanup()
      .catch(() => undefined)
      .finally(() => exit(code));
  };
  for (const signal of EXIT_SIGNALS) {
    process.on(signal, () => {
      if (ending !== null) {
        finish(signalExitCode(ending)); // a second signal: stop waiting for the handlers
        return;
      }
      ending = signal;
      const registered = [...handlers];
      if (registered.length === 0) {
        finish(signalExitCode(signal));
        return;
      }
      const running = registered.map(async ([h]) => h(signal));
      const wait = Math.max(...registered.map(([, r]) => r.graceMs ?? grace));
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), wait);
      });
      void Promise.race([Promise.allSettled(running), timeout]).then((settled) => {
        clearTimeout(timer);
        // Every handler finished and one chose a code: use it (the first, in registration order).
        const chosen = settled === 'timeout' ? undefined : settled.find((r): r is PromiseFulfilledResult<number> => r.status === 'fulfilled' && typeof r.value === 'number');
        finish(chosen ? chosen.value : signalExitCode(signal));
      });
    });
  }
}
