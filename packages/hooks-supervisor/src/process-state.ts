/**
 * The supervisor state there must be one of per process, however many copies of this package
 * the process has loaded. A program can hold several: the `codewhale` binary carries its own
 * bundled copy, and `@codewhale/tui` (loaded by it for the interactive UI) imports another
 * from `node_modules`. Module-level state would give each copy its own process host and its
 * own table of live process groups, so a TUI process could run two hosts, and an exit or a
 * signal handled by one copy would not end the groups the other started.
 *
 * The state lives on `globalThis` under a registered symbol. Its key carries a version: bump
 * {@link PROCESS_STATE_VERSION} whenever the shape below changes, except for an optional field
 * that every copy reads with its default (a copy that does not know it leaves it absent). The
 * hosts in it are shared only by copies with the same `HOST_PROTOCOL`, so a change to the
 * `ProcessHost` API goes with a bump of that number (as `ProcessHost.chain` came with protocol
 * 2): copies that speak different ones share this state (the table of live groups) but not a
 * host.
 */
export const PROCESS_STATE_VERSION = 1;

/** What every copy of the package in this process shares. */
export interface SupervisorProcessState {
  /**
   * The process hosts by wire protocol (`HOST_PROTOCOL`): the first and the second host (for
   * runs that overlap) of the copies that speak it. Typed loosely to keep this module at the
   * bottom; they are `ProcessHost`s.
   */
  readonly hosts: Map<number, { primary: unknown; overflow: unknown }>;
  /** Leaders of the live process groups of every hook and shell command of this process. */
  readonly liveGroups: Set<number>;
  /** Whether the `exit` handler that kills `liveGroups` is installed. */
  exitHookInstalled: boolean;
  /** `setSpawnMode`'s choice, or null for the environment's. */
  forcedMode: 'host' | 'in-process' | null;
  /** In-process spawns so far (the host is warmed after the first; see useProcessHost). */
  inProcessSpawns: number;
  /** `setAgentSlice`'s choice (absent: false). */
  agentSlice?: boolean;
}

const KEY = Symbol.for(`codewhale.hooks-supervisor.process-state.v${PROCESS_STATE_VERSION}`);

/** This process's supervisor state, created by the first copy that asks. */
export function processState(): SupervisorProcessState {
  const g = globalThis as unknown as Record<symbol, SupervisorProcessState | undefined>;
  let state = g[KEY];
  if (!state) {
    state = { hosts: new Map(), liveGroups: new Set(), exitHookInstalled: false, forcedMode: null, inProcessSpawns: 0 };
    Object.defineProperty(g, KEY, { value: state, enumerable: false, configurable: false, writable: false });
  }
  return state;
}
