import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ExitStatus, LaunchResult, LaunchSpec } from './types.js';
import { writeInput } from './write-input.js';

/**
 * codewhale-spawn: `posix_spawn` through Node-API (src/native/spawn.c). Node-API is
 * ABI-stable, so one binary per platform serves every Node version from 20 on. The package
 * ships it prebuilt for Linux on x64 and arm64, with glibc and with musl, in `dist/native/`
 * (scripts/build-native.mjs); nothing is compiled on a user's machine. Where it is missing or
 * does not load, processes are started with `child_process` (launch.ts).
 *
 * The module only starts the child and reaps it. Everything else is Node's: each pipe end it
 * returns becomes a `net.Socket` (the event loop reads it, as it reads a child_process pipe),
 * and an exit is learnt from `SIGCHLD`: on each one, every child started here that is not yet
 * reaped is asked after with `waitpid(pid, WNOHANG)`, never `waitpid(-1)`, so children started
 * by anyone else (libuv's own included) are left to them.
 */

/** The module's two functions (their contract is in src/native/spawn.c). */
interface NativeModule {
  spawnAsync(file: string, args: string, env: string, cwd: string, stdinFd: number, pipes: number, input?: Uint8Array): Promise<number[]>;
  reap(pid: number): number;
}

/** The module's file name on this machine (`null` off Linux), e.g. `codewhale-spawn.linux-x64-gnu.node`. */
export function nativeModuleFile(): string | null {
  if (process.platform !== 'linux') return null;
  return `codewhale-spawn.linux-${process.arch}-${linkedToMusl() ? 'musl' : 'gnu'}.node`;
}

/** Whether this Node runs on musl (its dynamic loader is mapped) rather than glibc. */
function linkedToMusl(): boolean {
  try {
    return readFileSync('/proc/self/maps', 'utf8').includes('/ld-musl-');
  } catch {
    return false;
  }
}

/**
 * Where the module is: `CODEWHALE_SPAWN_MODULE` (an absolute path, for a bundler that puts it
 * elsewhere), else `native/` next to this code (the package's `dist/`, or a bundle's that
 * copies it there), else the package's `dist/native/` when this runs from its sources.
 */
export function nativeModulePath(): string | null {
  const override = process.env['CODEWHALE_SPAWN_MODULE']?.trim();
  if (override) return existsSync(override) ? override : null;
  const file = nativeModuleFile();
  if (file === null) return null;
  for (const dir of ['./native/', '../../dist/native/']) {
    const path = fileURLToPath(new URL(dir + file, import.meta.url));
    if (existsSync(path)) return path;
  }
  return null;
}

let loaded: NativeModule | null | undefined;

/** The module, loaded once per process, or null where it is not there or does not load. */
export function nativeSpawner(): NativeModule | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  const path = nativeModulePath();
  if (path === null) return loaded;
  try {
    const m = createRequire(import.meta.url)(path) as Partial<NativeModule>;
    if (typeof m.spawnAsync === 'function' && typeof m.reap === 'function') loaded = m as NativeModule;
  } catch {
    // Built for another C library or architecture: child_process starts processes instead.
  }
  return loaded;
}

/** Children started here and not yet reaped, with what to call when they are. */
const running = new Map<number, (status: ExitStatus) => void>();
let listening = false;
// While a child runs, a timer keeps the event loop alive (Node's SIGCHLD listener does not,
// so a loop with nothing else to do could end before the signal is handled) and asks after
// the children now and then, in case a signal was not delivered here.
let keepAlive: NodeJS.Timeout | null = null;
const POLL_MS = 1_000;

function reapExited(): void {
  const m = loaded;
  if (!m) return;
  for (const [pid, settle] of running) {
    const raw = m.reap(pid);
    if (raw === -1) continue;
    running.delete(pid);
    settle(exitStatus(raw));
  }
  if (running.size === 0 && keepAlive !== null) {
    clearInterval(keepAlive);
    keepAlive = null;
  }
}

/** A raw wait status (or -2: not a child any more, reaped by someone else) as an exit. */
export function exitStatus(raw: number): ExitStatus {
  if (raw < 0) return { code: null, signal: null };
  const signo = raw & 0x7f;
  if (signo === 0) return { code: (raw >> 8) & 0xff, signal: null };
  return { code: null, signal: signalNames.get(signo) ?? null };
}

// The first name of each number, as Node names a child's signal (SIGABRT, not SIGIOT).
const signalNames = new Map<number, NodeJS.Signals>();
for (const [name, n] of Object.entries(constants.signals)) if (!signalNames.has(n)) signalNames.set(n, name as NodeJS.Signals);

/**
 * Start a process with the module, or null when the spec is not one it takes (a relative
 * program path, which `posix_spawn` would not search `PATH` for). A string with a NUL in it
 * is refused as Node refuses it (`ERR_INVALID_ARG_VALUE`): it would cut an argument short.
 *
 * `posix_spawn` returns only once the child has called `exec`, so the module calls it on a
 * thread of libuv's pool (`spawnAsync`): this thread, the agent's event loop, never waits for
 * a child's `exec`.
 */
export async function launchNative(spec: LaunchSpec): Promise<LaunchResult | null> {
  const m = nativeSpawner();
  if (m === null || !spec.file.startsWith('/')) return null;
  const argv = [spec.file, ...spec.args];
  const env: string[] = [];
  // for…in: an environment may inherit variables from its prototype, as child_process reads them.
  for (const k in spec.env) env.push(`${k}=${spec.env[k]}`);
  if (argv.some(hasNul) || env.some(hasNul) || hasNul(spec.cwd)) return { ok: false, code: 'ERR_INVALID_ARG_VALUE' };
  if (!listening) {
    // Before the first child starts, so that no exit can come before there is a listener.
    process.on('SIGCHLD', reapExited);
    listening = true;
  }
  const pipes = (spec.stdout ? 1 : 0) | (spec.stderr ? 2 : 0) | (spec.input !== null ? 4 : 0);
  // The module writes what the pipe takes of the input before the child starts, so the child
  // finds it there at once; only a longer input leaves a rest (from `written` on) to write here.
  const input = spec.input === null ? undefined : Buffer.from(spec.input.buffer, spec.input.byteOffset, spec.input.byteLength);
  const [pid, outFd, errFd, inFd, written = 0] = await m.spawnAsync(spec.file, argv.join('\0'), env.join('\0'), spec.cwd, -1, pipes, input);
  if (pid === undefined || pid < 0) return { ok: false, code: errnoCode(-(pid ?? -1)) };
  const exit = new Promise<ExitStatus>((resolve) => running.set(pid, resolve));
  keepAlive ??= setInterval(reapExited, POLL_MS);
  // The child may have exited, and its SIGCHLD been handled, before it was known here.
  reapExited();
  let stdin: Socket | null = null;
  if (inFd !== undefined && inFd >= 0) {
    stdin = new Socket({ fd: inFd, readable: false, writable: true });
    writeInput(stdin, (input ?? Buffer.alloc(0)).subarray(written));
  }
  return {
    ok: true,
    child: {
      pid,
      stdin,
      stdout: outFd !== undefined && outFd >= 0 ? new Socket({ fd: outFd, readable: true, writable: false }) : null,
      stderr: errFd !== undefined && errFd >= 0 ? new Socket({ fd: errFd, readable: true, writable: false }) : null,
      exit,
    },
  };
}

function hasNul(s: string): boolean {
  return s.includes('\0');
}

const errnoNames = new Map<number, string>(Object.entries(constants.errno).map(([name, n]) => [n, name]));

function errnoCode(errno: number): string {
  return errnoNames.get(errno) ?? 'UNKNOWN';
}
