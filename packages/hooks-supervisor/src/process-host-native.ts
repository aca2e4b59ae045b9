/**
 * codewhale-spawn, the process host's native spawner (Linux): `posix_spawn` through Node-API,
 * built from src/native/spawn.c by scripts/build-native.mjs into `dist/native/`. glibc's
 * `posix_spawn` starts the child without copying the spawning process's page tables, which a
 * fork does (see docs/design-notes.md, "The host spawns with posix_spawn"). The host loads it
 * from the path the agent gives on its command line (see process-host-source.ts); without it,
 * or where it does not load, the host spawns through Node's handles as before. The agent loads
 * it too, to start its first host without forking its own, much larger, memory (see
 * process-host.ts).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** codewhale-spawn's file name for this machine's architecture. */
export const NATIVE_SPAWNER_FILE = `codewhale-spawn-linux-${process.arch}.node`;

let found: string | null | undefined;

/**
 * The absolute path of codewhale-spawn, or null: off Linux, or when it was not built (no C
 * compiler, no Node headers, `CODEWHALE_NATIVE_BUILD=off`). It is looked for next to this
 * module (`native/` in the package's `dist/`, or in the `dist/` of a bundle that copies it
 * there, as the command line's does) and, when this module runs from its sources, in the
 * package's `dist/`. Looked up once per process.
 */
export function nativeSpawnerPath(): string | null {
  if (found !== undefined) return found;
  found = null;
  if (process.platform !== 'linux') return found;
  for (const dir of ['./native/', '../dist/native/']) {
    const path = fileURLToPath(new URL(dir + NATIVE_SPAWNER_FILE, import.meta.url));
    if (existsSync(path)) return (found = path);
  }
  return found;
}

/** codewhale-spawn's two functions (see src/native/spawn.c for their arguments and results). */
export interface NativeSpawner {
  spawn(file: string, args: string, env: string, cwd: string, stdinFd: number, pipes: number): number[];
  reap(pid: number): number;
}

let loaded: NativeSpawner | null | undefined;

/** codewhale-spawn loaded into this process, or null where it is not there or does not load. Loaded once. */
export function nativeSpawner(): NativeSpawner | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  const path = nativeSpawnerPath();
  if (path === null) return loaded;
  try {
    const m = createRequire(import.meta.url)(path) as Partial<NativeSpawner>;
    if (typeof m.spawn === 'function' && typeof m.reap === 'function') loaded = m as NativeSpawner;
  } catch {
    // Another C library or architecture: spawn as before.
  }
  return loaded;
}
