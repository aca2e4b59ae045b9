import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newestPid, SWEEP_WINDOW_MAX_AGE_MS, sweepCandidates } from './session-sweep.js';

/**
 * A model of Linux's cyclic pid allocator: the next free pid after the last one, wrapping to
 * `reserved` after `pidMax - 1`, skipping pids in use. Processes exit at random; a session's
 * members are forked only while the session exists, so they are always allocated after its
 * leader. The window is only claimed to hold while the cursor has not gone all the way round
 * since the leader (on Linux that takes ~pid_max forks, hence the age limit on the window).
 */
function simulate(pidMax: number, steps: readonly { fork: 'other' | 'member' | 'leader'; exitIndex: number | null }[]) {
  const reserved = 2;
  const live = new Map<number, number | null>(); // pid → session id (null: another session)
  let last = reserved - 1;
  // How far the allocation cursor has moved (it skips pids in use without allocating them).
  let travel = 0;
  let leader: number | null = null;
  const alloc = (): number | null => {
    const before = last;
    const travelBefore = travel;
    for (let k = 0; k < pidMax; k++) {
      let next = last + 1;
      if (next >= pidMax) next = reserved;
      last = next;
      travel++;
      if (!live.has(next)) return next;
    }
    last = before; // the pid space is full: the fork fails and the cursor stays
    travel = travelBefore;
    return null;
  };
  let travelAtLeader = 0;
  for (const s of steps) {
    if (s.exitIndex !== null && live.size > 0) {
      const pids = [...live.keys()];
      const victim = pids[s.exitIndex % pids.length]!;
      if (victim !== leader) live.delete(victim);
    }
    if (s.fork === 'leader' && leader === null) {
      const pid = alloc();
      if (pid === null) continue;
      leader = pid;
      travelAtLeader = travel;
      live.set(pid, pid);
    } else if (s.fork === 'member' && leader !== null) {
      const pid = alloc();
      if (pid !== null) live.set(pid, leader);
    } else {
      const pid = alloc();
      if (pid !== null) live.set(pid, null);
    }
  }
  // The leader has exited by the time its session is swept (its pid stays out of the table).
  if (leader !== null) live.delete(leader);
  return { live, last, leader, wrappedAllTheWay: travel - travelAtLeader >= pidMax - reserved };
}

describe('session sweep window', () => {
  it('reads the newest pid from /proc/loadavg, and nothing from garbage', () => {
    expect(newestPid('0.52 1.76 2.80 2/87 7165\n')).toBe(7165);
    expect(newestPid('0.52 1.76 2.80 2/87')).toBeNull();
    expect(newestPid('')).toBeNull();
    expect(newestPid('a b c d -3')).toBeNull();
  });

  it('a pid is after a session id inside the cyclic window only', () => {
    // One recent session, one candidate pid: is it read?
    const allocatedAfter = (pid: number, sid: number, newest: number) => sweepCandidates([String(pid)], new Map([[sid, 0]]), newest, 0, 1_000).length === 1;
    expect(allocatedAfter(11, 10, 20)).toBe(true);
    expect(allocatedAfter(20, 10, 20)).toBe(true);
    expect(allocatedAfter(10, 10, 20)).toBe(false);
    expect(allocatedAfter(21, 10, 20)).toBe(false);
    expect(allocatedAfter(5, 10, 20)).toBe(false);
    // wrapped: the session id 30000 is above the newest pid 50
    expect(allocatedAfter(30001, 30000, 50)).toBe(true);
    expect(allocatedAfter(40, 30000, 50)).toBe(true);
    expect(allocatedAfter(51, 30000, 50)).toBe(false);
    expect(allocatedAfter(29999, 30000, 50)).toBe(false);
  });

  it('never leaves out a member of a swept session, whatever the allocations and wraps', () => {
    const step = fc.record({
      fork: fc.constantFrom<'other' | 'member' | 'leader'>('other', 'other', 'member', 'leader'),
      exitIndex: fc.option(fc.nat(), { nil: null }),
    });
    fc.assert(
      fc.property(fc.integer({ min: 8, max: 64 }), fc.array(step, { maxLength: 300 }), (pidMax, steps) => {
        const { live, last, leader, wrappedAllTheWay } = simulate(pidMax, steps);
        fc.pre(leader !== null && !wrappedAllTheWay);
        const entries = [...live.keys()].map(String).concat(['self', 'sys']);
        const now = 1_000_000;
        const read = new Set(sweepCandidates(entries, new Map([[leader!, now]]), last, now, SWEEP_WINDOW_MAX_AGE_MS));
        for (const [pid, sid] of live) if (sid === leader) expect(read.has(pid)).toBe(true);
        // and it reads only pids allocated after the leader: a model by modular distance (every
        // pid is below pidMax), not the implementation's case split
        const distance = (pid: number) => (pid - leader! + pidMax) % pidMax;
        for (const pid of read) expect(distance(pid) > 0 && distance(pid) <= distance(last)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('reads the whole table when the newest pid is unknown or a leader is old', () => {
    const entries = ['1', '7', '300', '9000', 'self'];
    const now = 5_000_000;
    expect(sweepCandidates(entries, new Map([[8000, now]]), null, now, SWEEP_WINDOW_MAX_AGE_MS)).toEqual([1, 7, 300, 9000]);
    expect(sweepCandidates(entries, new Map([[8000, now - SWEEP_WINDOW_MAX_AGE_MS - 1]]), 9500, now, SWEEP_WINDOW_MAX_AGE_MS)).toEqual([1, 7, 300, 9000]);
    expect(sweepCandidates(entries, new Map([[8000, now]]), 9500, now, SWEEP_WINDOW_MAX_AGE_MS)).toEqual([9000]);
    // two sessions: the union of their windows
    expect(
      sweepCandidates(
        entries,
        new Map([
          [8000, now],
          [5, now],
        ]),
        9500,
        now,
        SWEEP_WINDOW_MAX_AGE_MS,
      ),
    ).toEqual([7, 300, 9000]);
  });
});
