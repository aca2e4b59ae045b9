import { BackgroundPool, ObserverDispatcher } from '@codewhale/hooks-supervisor';
import type { OpenSessionOptions } from './surface.js';
import type { SessionHost } from './session-host.js';

/** Hook pools several sessions of one process share (the Runtime API runs many threads). */
export interface SharedPools {
  readonly backgroundPool: BackgroundPool;
  readonly observerDispatcher: ObserverDispatcher;
}

/** Pools for many sessions; the caller closes them when the process is done with every session. */
export function createSharedPools(): SharedPools {
  return { backgroundPool: new BackgroundPool(), observerDispatcher: new ObserverDispatcher() };
}

/**
 * Open a session the way every surface does (WIP: implementation lands with the SessionHost
 * redesign; the signature is final).
 */
export async function openSession(_options: OpenSessionOptions): Promise<SessionHost> {
  throw new Error('openSession: not implemented yet');
}
