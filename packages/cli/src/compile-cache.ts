import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';

/**
 * Start-up of the command line on Node 20: the whole CLI is one CommonJS bundle, and V8's
 * compiled code for it is kept between runs in a private cache directory, so a command pays
 * for reading ~0.5 MB of cached code instead of compiling the bundle and resolving a dozen ES
 * modules (about a third of `hooks list`'s start-up). Node ≥ 22.1 has this built in
 * (`module.enableCompileCache`), and that is used there instead.
 *
 * The cache holds executable code, so it is used only from a directory this user owns, that
 * is a real directory (not a symbolic link) and that nobody else can write (mode 0700); files
 * are read only when they are regular files owned by this user, and written whole (temporary
 * file, then rename). V8 itself rejects data made for another source or another V8. Anything
 * unexpected means no cache: the bundle is then compiled as usual, never an error.
 *
 * `CODEWHALE_COMPILE_CACHE` selects the directory; `off` (or `0`, `false`) disables the cache.
 * The default is `<os tmpdir>/codewhale-compile-cache-<uid>`.
 */

/** Where the cache lives, or null when it is switched off. */
export function cacheDirectory(env: NodeJS.ProcessEnv = process.env): string | null {
  const v = (env['CODEWHALE_COMPILE_CACHE'] ?? '').trim();
  if (v === 'off' || v === '0' || v === 'false') return null;
  if (v !== '') return v;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return join(tmpdir(), `codewhale-compile-cache-${uid}`);
}

/**
 * Create the directory if needed and say whether it is safe to use: a directory (not a link),
 * owned by this user, with no permissions for group or others.
 */
export function privateDirectory(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return false;
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return false;
    return (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** The cache file of one bundle: it changes with the Node version, the bundle's size and its mtime. */
export function cacheFileName(bundle: string, node = process.version, arch = process.arch): string {
  const st = statSync(bundle);
  return `${basename(bundle)}-${node}-${arch}-${st.size}-${Math.trunc(st.mtimeMs)}.v8`;
}

/** The cached data, when the file is a regular file of this user; otherwise undefined. */
export function readCache(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || (typeof process.getuid === 'function' && st.uid !== process.getuid())) return undefined;
    if (st.size === 0 || st.size > 64 * 1024 * 1024) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) return undefined;
      off += n;
    }
    return buf;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Write the cache file whole (a temporary file renamed over it); failures are ignored. */
export function writeCache(file: string, data: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing was written
    }
  }
}

/** How many cache files of one bundle are kept (an upgrade or a rebuild leaves the old ones). */
export const KEEP_CACHE_FILES = 3;

/**
 * Remove all but the {@link KEEP_CACHE_FILES} newest cache files of the bundle `file` belongs
 * to (same bundle name, other Node version, size or mtime), so rebuilds and upgrades do not
 * fill the temporary directory. Failures are ignored.
 */
export function pruneCache(file: string): void {
  const dir = dirname(file);
  const prefix = `${basename(file).split('-')[0]}-`;
  try {
    const others = readdirSync(dir)
      .filter((n) => n.startsWith(prefix) && n.endsWith('.v8'))
      .map((n) => ({ n, t: lstatSync(join(dir, n)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { n } of others.slice(KEEP_CACHE_FILES)) {
      unlinkSync(join(dir, n));
      try {
        unlinkSync(join(dir, `${n}${COMMANDS_SUFFIX}`));
      } catch {
        // it had none
      }
    }
  } catch {
    // another process pruned first, or the directory is gone
  }
}

/**
 * The commands a cache file grows with: each top-level command, and each `hooks` subcommand
 * (`list` when none is named). Anything else (`--help`, the interactive UI, an unknown word)
 * counts as one more command, `''`. The set is fixed, so a cache grows at most this many
 * times, and no argument a user typed (a prompt, a path) is ever written down.
 */
export const CACHE_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  exec: [],
  hooks: ['list', 'events', 'validate', 'test', 'review', 'approve', 'revoke', 'import'],
  serve: [],
  trust: [],
  untrust: [],
  completion: [],
};

// Other names of the same subcommand (`hooks ls`).
const ALIASES: Readonly<Record<string, string>> = { ls: 'list' };

/** The command of a run's arguments (`process.argv.slice(2)`), as the cache counts them. */
export function commandKey(argv: readonly string[]): string {
  const words = argv.filter((a) => !a.startsWith('-'));
  const top = words[0];
  if (top === undefined || !Object.hasOwn(CACHE_COMMANDS, top)) return '';
  const subs = CACHE_COMMANDS[top]!;
  if (subs.length === 0) return top;
  const sub = words[1] !== undefined && Object.hasOwn(ALIASES, words[1]) ? ALIASES[words[1]] : words[1];
  return `${top} ${sub !== undefined && subs.includes(sub) ? sub : subs[0]}`;
}

/** The file beside a cache file that lists the commands whose code it holds. */
export const COMMANDS_SUFFIX = '.commands';

/** The commands a cache file holds the code of (read like the cache: a regular file of this user). */
export function readCommands(file: string): Set<string> {
  const data = readCache(`${file}${COMMANDS_SUFFIX}`);
  let keys: unknown;
  try {
    keys = data === undefined ? [] : JSON.parse(data.toString('utf8'));
  } catch {
    return new Set();
  }
  return new Set(Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : []);
}

/**
 * Whether data made at exit replaces the cache file: always when there was none (or V8
 * rejected it); otherwise unless it is much smaller (under 95 %), which means V8 dropped code
 * the run did not use, and the old file holds more.
 */
export function replacesCache(oldBytes: number | null, newBytes: number): boolean {
  return oldBytes === null || newBytes >= oldBytes * 0.95;
}

/** What {@link loadBundle} did, for tests and `CODEWHALE_DEBUG_STARTUP`. */
/** `builtin`: Node's own compile cache (Node ≥ 22.1), in the private directory. */
export type CacheOutcome = 'off' | 'unsafe-directory' | 'cold' | 'hit' | 'hit-growing' | 'rejected' | 'plain-require' | 'builtin';

/**
 * Run the CommonJS bundle `bundle` as a module, with V8's code cache when it is safe to use.
 * Returns what happened with the cache. The cache is written at exit when it was missing or
 * V8 rejected it, so it also holds the functions that ran during this command.
 *
 * V8 compiles a function when it first runs, so a cache written by one command lacks the code
 * only other commands run: with a cache first written by `--help`, `hooks list` ran 8–15 %
 * slower than with one written by itself, for as long as the bundle stayed the same. So the
 * cache also grows: the first run of each command (`commandKey(argv)`) after a hit writes it
 * again at exit, with what it deserialized and what this command compiled, and notes the
 * command beside it. Serializing costs ~5 ms, once per command and bundle. New data much
 * smaller than the file (a long run can let V8 drop the code of functions it did not use) is
 * not written; the command still counts as done, so no command pays twice.
 */
export function loadBundle(bundle: string, env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = process.argv.slice(2)): CacheOutcome {
  const nodeModule = Module as unknown as { enableCompileCache?: (dir?: string) => unknown; wrap?: (s: string) => string };
  const req = createRequire(bundle);
  const dir = cacheDirectory(env);
  if (typeof nodeModule.enableCompileCache === 'function') {
    // Node ≥ 22.1 caches CommonJS and ES modules itself, in the same private directory.
    const outcome: CacheOutcome = dir === null ? 'off' : privateDirectory(dir) ? 'builtin' : 'unsafe-directory';
    if (outcome === 'builtin') nodeModule.enableCompileCache(dir!);
    req(bundle);
    return outcome;
  }
  if (dir === null || typeof nodeModule.wrap !== 'function') {
    req(bundle);
    return dir === null ? 'off' : 'plain-require';
  }
  if (!privateDirectory(dir)) {
    req(bundle);
    return 'unsafe-directory';
  }
  const file = join(dir, cacheFileName(bundle));
  const cachedData = readCache(file);
  const source = readFileSync(bundle, 'utf8').replace(/^#!.*/, '');
  // No `importModuleDynamically`: Node 20 drops it from a script restored from cached data, so
  // the bundle imports the packages outside it through import-external.ts instead.
  const script = new vm.Script(nodeModule.wrap(source), { filename: bundle, cachedData });
  const key = commandKey(argv);
  const fresh = cachedData === undefined || script.cachedDataRejected === true;
  const known = fresh ? new Set<string>() : readCommands(file);
  const outcome: CacheOutcome = cachedData === undefined ? 'cold' : script.cachedDataRejected === true ? 'rejected' : known.has(key) ? 'hit' : 'hit-growing';
  if (outcome !== 'hit') {
    process.once('exit', () => {
      const data = script.createCachedData();
      if (replacesCache(fresh ? null : cachedData!.length, data.length)) writeCache(file, data);
      writeCache(`${file}${COMMANDS_SUFFIX}`, Buffer.from(JSON.stringify([...known, key]), 'utf8'));
      pruneCache(file);
    });
  }
  const fn = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  const mod = new (Module as unknown as new (id: string) => { exports: unknown; filename: string; loaded: boolean })(bundle);
  mod.filename = bundle;
  fn.call(mod.exports, mod.exports, req, mod, bundle, dirname(bundle));
  mod.loaded = true;
  return outcome;
}
