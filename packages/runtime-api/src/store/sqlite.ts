import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';

/** The `better-sqlite3` module: its `Database` constructor. */
export type SqliteModule = typeof BetterSqlite3;

/**
 * `better-sqlite3` is an optional dependency: it is a native addon, and where npm can neither
 * fetch a prebuilt binary nor compile one (no C++ compiler, Python or make) it skips the package
 * instead of failing the whole install. Everything else in this package (and every other
 * `codewhale` command) works without it; only the store needs it, and it says so plainly.
 */
export class SqliteUnavailableError extends Error {
  readonly code = 'sqlite_unavailable';
  /** What to do about it (one line, for a `hint:`). */
  readonly fix: string;
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`the Runtime API needs the SQLite module better-sqlite3, which ${detail}`, options);
    this.name = 'SqliteUnavailableError';
    this.fix =
      'npm skips better-sqlite3 when it can neither download a prebuilt binary for this platform and Node version nor compile one; ' +
      'install a C++ compiler, make and Python 3 (Debian/Ubuntu: apt-get install build-essential python3) and install again ' +
      '(`npm i -g @codewhale/cli`, or `npm install` in a project); pnpm builds it only when allowed (`pnpm approve-builds`)';
  }
  static isInstance(e: unknown): e is SqliteUnavailableError {
    return e instanceof SqliteUnavailableError;
  }
}

const loaded = new Map<string, SqliteModule>();

/**
 * The folder of `better-sqlite3` as an ES module import from `from` finds it: the nearest
 * `node_modules/better-sqlite3` up the tree (an import, unlike `require`, ignores NODE_PATH).
 */
function findModule(from: string): string | null {
  let dir = dirname(from.startsWith('file:') ? fileURLToPath(from) : from);
  for (;;) {
    const candidate = join(dir, 'node_modules', 'better-sqlite3');
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * Load `better-sqlite3` as resolved from `from` (a file URL or path; default: this package).
 * The module loads its native binding on the first `new Database()`, so one is opened in
 * memory here: a package that is missing, a binding that was never built and one built for
 * another Node version all end here as a {@link SqliteUnavailableError}.
 */
export function loadSqlite(from: string = import.meta.url): SqliteModule {
  const cached = loaded.get(from);
  if (cached) return cached;
  const folder = findModule(from);
  if (folder === null) throw new SqliteUnavailableError('is not installed');
  let mod: SqliteModule;
  try {
    mod = createRequire(from)(folder) as SqliteModule;
  } catch (e) {
    throw new SqliteUnavailableError(`is installed but cannot be loaded (${firstLine((e as Error).message)})`, { cause: e });
  }
  try {
    new mod(':memory:').close();
  } catch (e) {
    throw new SqliteUnavailableError(`is installed but its native binding cannot be loaded (${firstLine((e as Error).message)})`, { cause: e });
  }
  loaded.set(from, mod);
  return mod;
}

const firstLine = (text: string): string => text.split('\n')[0]!.slice(0, 300);
