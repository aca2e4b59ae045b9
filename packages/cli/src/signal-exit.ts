import { constants } from 'node:os';

/**
 * How `codewhale` ends on a signal. Exit codes follow the 128 + n convention (SIGHUP → 129,
 * SIGINT → 130, SIGTERM → 143). A surface with an interactive session (the TUI) registers a
 * graceful-exit handler with {@link onSignalExit}: on the first signal every handler runs (to
 * end the session, so `session_end` still fires) for at most {@link SIGNAL_GRACE_MS}; then the
 * cleanup runs (hook and shell process groups are ended) and the process exits. A second
 * signal while that is under way exits at once, after the cleanup.
 */

/** The signals that end `codewhale` this way. */
export const EXIT_SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM'] as const satisfies readonly NodeJS.Signals[];

/** How long graceful-exit handlers may take before the process exits anyway. */
export const SIGNAL_GRACE_MS = 5_000;

/** 128 + the signal's number on this platform (SIGHUP → 129, SIGINT → 130, SIGTERM → 143). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

/** Runs when a signal ends the process: end the session gracefully. May be async. */
export type SignalExitHandler = (signal: NodeJS.Signals) => void | Promise<void>;

/**
 * One registry per process, not per copy of this module: the binary runs the command line as
 * its own bundle (dist/cli.cjs), and a program that imports `@codewhale/cli` and then runs the
 * binary in the same process must reach the same handlers.
 */
const REGISTRY = Symbol.for('codewhale.signalExitHandlers');
const handlers: Set<SignalExitHandler> = ((globalThis as { [REGISTRY]?: Set<SignalExitHandler> })[REGISTRY] ??= new Set());

/**
 * Register a graceful-exit handler (the hook point for interactive surfaces). Returns the
 * function that unregisters it; unregister when the session ends normally.
 */
export function onSignalExit(handler: SignalExitHandler): () => void {
  handlers.add(handler);
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
  const finish = (signal: NodeJS.Signals): void => {
    void options
      .cleanup()
      .catch(() => undefined)
      .finally(() => exit(signalExitCode(signal)));
  };
  for (const signal of EXIT_SIGNALS) {
    process.on(signal, () => {
      if (ending !== null) {
        finish(ending); // a second signal: stop waiting for the handlers
        return;
      }
      ending = signal;
      const running = [...handlers].map(async (h) => h(signal));
      if (running.length === 0) {
        finish(signal);
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, grace);
      });
      void Promise.race([Promise.allSettled(running), timeout]).finally(() => {
        clearTimeout(timer);
        finish(signal);
      });
    });
  }
}
