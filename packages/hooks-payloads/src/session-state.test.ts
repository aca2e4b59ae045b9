import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { observeSessionState, INITIAL_SESSION_STATE, type SessionObservation, type SessionStateMachine, type SessionTransition } from './session-state.js';

function run(observations: readonly SessionObservation[], start: SessionStateMachine = INITIAL_SESSION_STATE): SessionTransition[] {
  const out: SessionTransition[] = [];
  let machine = start;
  for (const o of observations) {
    const r = observeSessionState(machine, o);
    machine = r.machine;
    if (r.transition) out.push(r.transition);
  }
  return out;
}

describe('observeSessionState (reference §14)', () => {
  it('emits the contract reference sequence for a turn that asks a question and completes', () => {
    const transitions = run([{ state: 'idle' }, { state: 'in_progress' }, { state: 'waiting', reason: 'user_input' }, { state: 'in_progress' }, { state: 'idle', lastTurnStatus: 'completed' }]);
    expect(transitions.map((t) => [t.event, JSON.stringify(t.payload)])).toEqual([
      ['session_busy', '{"from":"idle","to":"in_progress"}'],
      ['waiting_for_user', '{"from":"in_progress","to":"waiting","reason":"user_input"}'],
      ['session_busy', '{"from":"waiting","to":"in_progress"}'],
      ['session_idle', '{"from":"in_progress","to":"idle","last_turn_status":"completed"}'],
    ]);
  });

  it.each<SessionObservation>([{ state: 'idle' }, { state: 'in_progress' }, { state: 'waiting', reason: 'approval' }])('records the first observation (%j) silently', (first) => {
    const r = observeSessionState(INITIAL_SESSION_STATE, first);
    expect(r.transition).toBeNull();
    expect(r.machine.current).toBe(first.state);
  });

  it('emits nothing when the same state is observed again, even with a different reason', () => {
    expect(run([{ state: 'in_progress' }, { state: 'in_progress' }])).toEqual([]);
    expect(
      run([
        { state: 'waiting', reason: 'approval' },
        { state: 'waiting', reason: 'user_input' },
      ]),
    ).toEqual([]);
    expect(run([{ state: 'idle' }, { state: 'idle', lastTurnStatus: 'failed' }])).toEqual([]);
  });

  it('carries each waiting reason', () => {
    for (const reason of ['approval', 'user_input', 'goal_continuation'] as const) {
      expect(run([{ state: 'in_progress' }, { state: 'waiting', reason }])).toEqual([{ event: 'waiting_for_user', payload: { from: 'in_progress', to: 'waiting', reason } }]);
    }
  });

  it('leaves last_turn_status out when it is not known', () => {
    const [t] = run([{ state: 'in_progress' }, { state: 'idle' }]);
    expect(JSON.stringify(t!.payload)).toBe('{"from":"in_progress","to":"idle"}');
    const [w] = run([
      { state: 'waiting', reason: 'approval' },
      { state: 'idle', lastTurnStatus: null },
    ]);
    expect(JSON.stringify(w!.payload)).toBe('{"from":"waiting","to":"idle"}');
  });

  it('does not mutate the machine it was given', () => {
    const machine: SessionStateMachine = { current: 'idle' };
    observeSessionState(machine, { state: 'in_progress' });
    expect(machine.current).toBe('idle');
    expect(INITIAL_SESSION_STATE.current).toBeNull();
  });
});

describe('properties', () => {
  const observation: fc.Arbitrary<SessionObservation> = fc.oneof(
    fc.option(fc.constantFrom('completed', 'failed', 'interrupted')).map((s): SessionObservation => ({ state: 'idle', lastTurnStatus: s })),
    fc.constant<SessionObservation>({ state: 'in_progress' }),
    fc.constantFrom('approval', 'user_input', 'goal_continuation').map((reason): SessionObservation => ({ state: 'waiting', reason })),
  );
  const EVENT_FOR = { in_progress: 'session_busy', waiting: 'waiting_for_user', idle: 'session_idle' } as const;

  it('emits exactly on a change of state, never for a repeat, never for the first observation', () => {
    fc.assert(
      fc.property(fc.array(observation, { maxLength: 30 }), (obs) => {
        let machine = INITIAL_SESSION_STATE;
        let previous: string | null = null;
        for (const o of obs) {
          const r = observeSessionState(machine, o);
          const changed = previous !== null && previous !== o.state;
          expect(r.transition !== null).toBe(changed);
          if (r.transition) {
            expect(r.transition.event).toBe(EVENT_FOR[o.state]);
            expect(r.transition.payload.from).toBe(previous);
            expect(r.transition.payload.to).toBe(o.state);
            expect(r.transition.payload.from).not.toBe(r.transition.payload.to);
          }
          expect(r.machine.current).toBe(o.state);
          machine = r.machine;
          previous = o.state;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('transitions chain: each from is the previous to', () => {
    fc.assert(
      fc.property(fc.array(observation, { maxLength: 30 }), (obs) => {
        const ts = run(obs);
        for (let i = 1; i < ts.length; i++) expect(ts[i]!.payload.from).toBe(ts[i - 1]!.payload.to);
      }),
      { numRuns: 200 },
    );
  });
});
