import { spawn as spawnChild } from 'node:child_process';
import { isMainThread } from 'node:worker_threads';
import { launchNative, nativeSpawner } from './native.js';
import { writeInput } from './write-input.js';
import type { ExitStatus, LaunchResult, LaunchSpec } from './types.js';

export type { ExitStatus, Launched, LaunchResult, LaunchSpec } from './types.js';

/**
 * Starting a process, the one place that does it (what is started: {@link LaunchSpec}). Two
 * ways to do it, with the same result for the child:
 * - `native`: `posix_spawn` through codewhale-spawn (see native.ts). The C library starts the
 *   child without copying this process's page tables, which a fork does: a fork of a large
 *   agent costs milliseconds, on every Node version.
 * - `child_process`: Node's own `spawn` with `detached: true`, everywhere else (macOS's libuv
 *   already uses `posix_spawn`; Windows has no fork to avoid).
 */

/** Which way processes are started (see {@link LaunchSpec}). */
export type SpawnerKind = 'native' | 'child_process';

let forced: SpawnerKind | null = null;

/** Tests: start processes one way whatever the environment says (`null`: the environment's). */
export function forceSpawner(kind: SpawnerKind | null): void {
  forced = kind;
}

/**
 * The way the next process will be started: `native` where codewhale-spawn loads, unless
 * `CODEWHALE_SPAWN=child_process`; `child_process` otherwise, and always in a worker thread
 * (the native way learns of an exit from `SIGCHLD`, which Node delivers to the main thread only).
 */
export function spawnerInUse(): SpawnerKind {
  if (forced !== null) return forced === 'native' && nativeSpawner() === null ? 'child_process' : forced;
  if (!isMainThread) return 'child_process';
  if ((process.env['CODEWHALE_SPAWN'] ?? '').trim().toLowerCase() === 'child_process') return 'child_process';
  return nativeSpawner() === null ? 'child_process' : 'native';
}

/** Start a process (see {@link LaunchSpec}). Never throws for a start that fails: that is `ok: false`. */
export async function launch(spec: LaunchSpec): Promise<LaunchResult> {
  if (spawnerInUse() === 'native') {
    const result = await launchNative(spec);
    // A spec the native way cannot express (a relative program path) is Node's to start.
    if (result !== null) return result;
  }
  return launchWithChildProcess(spec);
}

async function launchWithChildProcess(spec: LaunchSpec): Promise<LaunchResult> {
  const stdio = [spec.input !== null, spec.stdout, spec.stderr].map((piped) => (piped ? 'pipe' : 'ignore')) as ('pipe' | 'ignore')[];
  let child: ReturnType<typeof spawnChild>;
  try {
    child = spawnChild(spec.file, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: process.platform !== 'win32',
      stdio,
      windowsHide: true,
      windowsVerbatimArguments: spec.verbatim === true,
    });
  } catch (e) {
    return { ok: false, code: errorCode(e) };
  }
  if (child.pid === undefined) {
    const code = await new Promise<string>((resolve) => child.once('error', (e) => resolve(errorCode(e))));
    return { ok: false, code };
  }
  child.on('error', () => {});
  if (child.stdin) writeInput(child.stdin, spec.input ?? new Uint8Array());
  const exit = new Promise<ExitStatus>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { ok: true, child: { pid: child.pid, stdin: child.stdin, stdout: child.stdout, stderr: child.stderr, exit } };
}

function errorCode(e: unknown): string {
  return String((e as NodeJS.ErrnoException | null)?.code ?? 'UNKNOWN');
}
