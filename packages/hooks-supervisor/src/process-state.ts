/**
 * The supervisor state there must be one of per process, however many copies of this package
 * the process has loaded. A program can hold several: the `codewhale` binary carries its own
 * bundled copy, and `@codewhale/tui` (loaded by it for the interactive UI) imports another
 * from `node_modules`. With module-level state, an exit or a signal handled by one copy would
 * not end the process groups the other started.
 *
 * The state lives on `globalThis` under a registered symbol whose key carries a version: bump
 * {@link PROCESS_STATE_VERSION} whenever the shape below changes.
 */
export const PROCESS_STATE_VERSION = 3;

/** What every copy of the package in this process shares. */
export interface SupervisorProcessState {
  /** Leaders of the live process groups of every hook and shell command of this process. */
  readonly liveGroups: Set<number>;
  /** Launches in flight: a process may already run before its group is in `liveGroups`. */
  readonly starting: Set<Promise<unknown>>;
  /** Whether the `exit` handler that kills `liveGroups` is installed. */
  exitHookInstalled: boolean;
}

const KEY = Symbol.for(`codewhale.hooks-supervisor.process-state.v${PROCESS_STATE_VERSION}`);

/** This process's supervisor state, created by the first copy that asks. */
export function processState(): SupervisorProcessState {
  const g = globalThis as unknown as Record<symbol, SupervisorProcessState | undefined>;
  let state = g[KEY];
  if (!state) {
    state = { liveGroups: new Set(), starting: new Set(), exitHookInstalled: false };
    Object.defineProperty(g, KEY, { value: state, enumerable: false, configurable: false, writable: false });
  }
  return state;
}
