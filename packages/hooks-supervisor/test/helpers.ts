import { readdirSync, readFileSync } from 'node:fs';
import type { HookIdentity } from '@codewhale/hooks-payloads';
import { expect } from 'vitest';
import { forceSpawner, type SpawnerKind } from '../src/spawn/launch.js';
import { nativeSpawner } from '../src/spawn/native.js';

export interface ProcInfo {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
  pgrp: number;
}

/** The process table, read from /proc. */
export function procTable(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const [state, ppid, pgrp] = stat.slice(close + 2).split(' ');
    out.push({ pid: Number(entry), comm, state: state!, ppid: Number(ppid), pgrp: Number(pgrp) });
  }
  return out;
}

/** Live (non-zombie) processes in any of these process groups. */
export function liveInGroups(pgids: Iterable<number>): ProcInfo[] {
  const set = new Set(pgids);
  return procTable().filter((p) => set.has(p.pgrp) && p.state !== 'Z' && p.state !== 'X');
}

/** Zombies whose parent is this test process: children we failed to reap. */
export function ourZombies(): ProcInfo[] {
  return procTable().filter((p) => p.ppid === process.pid && p.state === 'Z');
}

/**
 * After a test: no process of ours left alive in any group we spawned, and no zombie child of
 * ours. Polls for a bounded time, because a SIGKILL after the grace may still be in flight.
 */
export async function expectNoLeftovers(pgids: Iterable<number>, withinMs = 4_000): Promise<void> {
  const groups = [...pgids];
  const deadline = Date.now() + withinMs;
  for (;;) {
    const live = liveInGroups(groups);
    const zombies = ourZombies();
    if ((live.length === 0 && zombies.length === 0) || Date.now() > deadline) {
      expect(live, 'processes left alive in hook process groups').toEqual([]);
      expect(zombies, 'unreaped children of the test process').toEqual([]);
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Poll `check` every 10 ms until it holds or `ms` pass; resolves to its last answer. */
export async function until(check: () => boolean, ms = 4_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return check();
}

export function identity(label = 'gate', over: Partial<HookIdentity> = {}): HookIdentity {
  return { index: 0, name: label, label, event: 'tool_call_before', source: 'global', continueOnError: true, background: false, ...over };
}

export function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...extra };
}

import { hookDefinition, hookSet as buildSet } from '@codewhale/hooks-config/testing';

/** A validated hook definition, as hooks-config would produce it (name defaults to `hook`). */
export const hookDef = hookDefinition;

/** A hook set from definitions (indexes assigned in order). */
export const hookSet = buildSet;

/**
 * The ways the supervisor starts processes that this machine has: both on Linux where
 * codewhale-spawn was built (the build fails the suite's `spawners` test where it could be
 * built and was not), `child_process` alone elsewhere. Suites run once per way.
 */
export const SPAWNERS: readonly SpawnerKind[] = nativeSpawner() !== null ? ['native', 'child_process'] : ['child_process'];

/** Start processes `kind`'s way until the next call (`null`: the environment's way). */
export function useSpawner(kind: SpawnerKind | null): void {
  forceSpawner(kind);
}
