/** The session states hooks and supervisors agree on. */
export type SessionState = 'idle' | 'in_progress' | 'waiting';

/** Why a session is waiting on the user. */
export type WaitingReason = 'approval' | 'user_input' | 'goal_continuation';

/** One observation fed to the state machine. */
export type SessionObservation =
  | { readonly state: 'idle'; readonly lastTurnStatus?: string | null }
  | { readonly state: 'in_progress' }
  | { readonly state: 'waiting'; readonly reason: WaitingReason };

/** The machine's memory: the last observed state, or none yet. */
export interface SessionStateMachine {
  readonly current: SessionState | null;
}

/** A transition hook to fire, with its exact stdin document (keys in contract order). */
export type SessionTransition =
  | { readonly event: 'session_busy'; readonly payload: { from: 'idle' | 'waiting'; to: 'in_progress' } }
  | { readonly event: 'waiting_for_user'; readonly payload: { from: 'in_progress' | 'idle'; to: 'waiting'; reason: WaitingReason } }
  | {
      readonly event: 'session_idle';
      readonly payload: { from: 'in_progress' | 'waiting'; to: 'idle'; last_turn_status?: string };
    };

export const INITIAL_SESSION_STATE: SessionStateMachine = { current: null };

/**
 * The session-state reducer. The first observation is recorded silently, whichever state it
 * is; observing the current state again emits nothing; a change emits `session_busy`,
 * `waiting_for_user` (with its reason) or `session_idle` (with `last_turn_status` when
 * known). `session_error` is not part of this machine.
 */
export function observeSessionState(machine: SessionStateMachine, observation: SessionObservation): { machine: SessionStateMachine; transition: SessionTransition | null } {
  const from = machine.current;
  const to = observation.state;
  const next: SessionStateMachine = { current: to };
  if (from === null || from === to) return { machine: next, transition: null };
  switch (observation.state) {
    case 'in_progress':
      return { machine: next, transition: { event: 'session_busy', payload: { from: from as 'idle' | 'waiting', to: 'in_progress' } } };
    case 'waiting':
      return {
        machine: next,
        transition: {
          event: 'waiting_for_user',
          payload: { from: from as 'in_progress' | 'idle', to: 'waiting', reason: observation.reason },
        },
      };
    case 'idle': {
      const payload: { from: 'in_progress' | 'waiting'; to: 'idle'; last_turn_status?: string } = {
        from: from as 'in_progress' | 'waiting',
        to: 'idle',
      };
      if (observation.lastTurnStatus != null) payload.last_turn_status = observation.lastTurnStatus;
      return { machine: next, transition: { event: 'session_idle', payload } };
    }
  }
}
