import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { readdirSync, readFileSync } from 'node:fs';
import type { HookIdentity } from '@codewhale/hooks-payloads';
import { expect } from 'vitest';
import { nativeSpawnerPath } from '../src/process-host-native.js';
import { overflowProcessHost, sharedProcessHost, type HostRequest, type HostSpawner } from '../src/process-host.js';
import { HOST_NODE_OPTIONS, PROCESS_HOST_SOURCE } from '../src/process-host-source.js';

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

/**
 * The host program run directly (no ProcessHost), as its own protocol's peer, with `args` after
 * the program (see process-host-source.ts): `output()` is everything it has written to stdout
 * so far. End it with `child.stdin.end()`.
 */
export function rawHost(args: readonly string[] = []): { readonly child: ChildProcessByStdio<Writable, Readable, null>; output(): string } {
  const child = spawn(process.execPath, [...HOST_NODE_OPTIONS, '-e', PROCESS_HOST_SOURCE, ...(args.length > 0 ? ['--', ...args] : [])], { stdio: ['pipe', 'pipe', 'ignore'], env: {} });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (t: string) => (out += t));
  return { child, output: () => out };
}

/** A raw host request for a hook running `sh -c cmd` in `cwd`, no stdin, with generous limits. */
export function hostHookRequest(cmd: string, cwd: string, timeoutMs = 20_000): HostRequest {
  return {
    mode: 'hook',
    file: '/bin/sh',
    args: ['-c', cmd],
    cwd,
    env: baseEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
    input: null,
    stdoutMax: 65_536,
    stderrMax: 1024,
    timeoutMs,
    graceMs: 1_000,
    reapMs: 1_000,
    drainMs: 1_000,
    shutdownMs: 1_000,
  };
}

import { hookDefinition, hookSet as buildSet } from '@codewhale/hooks-config/testing';

/** A validated hook definition, as hooks-config would produce it (name defaults to `hook`). */
export const hookDef = hookDefinition;

/** A hook set from definitions (indexes assigned in order). */
export const hookSet = buildSet;

/**
 * Start the shared hosts afresh with `CODEWHALE_HOST_SPAWN` set to `spawner` (null: unset),
 * so the runs that follow are spawned that way; resolves once the primary host is ready.
 */
export async function useHostSpawner(spawner: 'child_process' | 'handles' | null): Promise<void> {
  if (spawner === null) delete process.env.CODEWHALE_HOST_SPAWN;
  else process.env.CODEWHALE_HOST_SPAWN = spawner;
  for (const host of [sharedProcessHost(), overflowProcessHost()]) {
    if (host.pid === undefined) continue;
    host.close();
    await until(() => host.pid === undefined, 10_000);
  }
  await sharedProcessHost().start();
}

/**
 * How a host spawns when nothing is set: codewhale-spawn where it was built (Linux), otherwise
 * Node's handles on Node 20, otherwise child_process (process-host.test.ts checks that it was
 * built wherever it can be).
 */
export function defaultHostSpawner(): HostSpawner {
  if (nativeSpawnerPath() !== null) return 'native';
  return process.versions.node.startsWith('20.') ? 'handles' : 'child_process';
}
