import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSqlite, SqliteUnavailableError } from './sqlite.js';

const dirs: string[] = [];
function project(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-sqlite-')));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), '{"name":"p","private":true}');
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Where this package's better-sqlite3 really is (its package folder). */
const realModule = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
const from = (dir: string) => pathToFileURL(join(dir, 'index.js')).href;

function unavailable(fn: () => unknown): SqliteUnavailableError {
  try {
    fn();
  } catch (e) {
    if (SqliteUnavailableError.isInstance(e)) return e;
    throw e;
  }
  throw new Error('loadSqlite did not throw');
}

describe('loadSqlite', () => {
  it('loads the installed module, and its binding opens a database', () => {
    const Database = loadSqlite();
    const db = new Database(':memory:');
    expect(db.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    db.close();
  });

  it('says plainly that the module is not installed, with what to do, when npm skipped it', () => {
    const e = unavailable(() => loadSqlite(from(project())));
    expect(e.code).toBe('sqlite_unavailable');
    expect(e.message).toBe('the Runtime API needs the SQLite module better-sqlite3, which is not installed');
    expect(e.fix).toContain('install a C++ compiler, make and Python 3');
    expect(e.fix).toContain('npm i -g @codewhale/cli');
    expect(e.stack).toBeDefined();
  });

  it('says the binding cannot be loaded when the module is there but was never built (pnpm without approval)', () => {
    const dir = project();
    // The package as pnpm leaves it when its install script is not allowed to run: its
    // JavaScript and its `bindings` dependency, no build/ folder.
    const target = join(dir, 'node_modules', 'better-sqlite3');
    mkdirSync(target, { recursive: true });
    cpSync(join(realModule, 'package.json'), join(target, 'package.json'));
    cpSync(join(realModule, 'lib'), join(target, 'lib'), { recursive: true });
    const bindings = dirname(createRequire(join(realModule, 'package.json')).resolve('bindings/package.json'));
    symlinkSync(bindings, join(dir, 'node_modules', 'bindings'));
    const e = unavailable(() => loadSqlite(from(dir)));
    expect(e.message).toMatch(/^the Runtime API needs the SQLite module better-sqlite3, which is installed but its native binding cannot be loaded \(Could not locate the bindings file/);
  });

  it('reports a module that fails while loading as installed but not loadable', () => {
    const dir = project();
    mkdirSync(join(dir, 'node_modules', 'better-sqlite3'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'better-sqlite3', 'package.json'), '{"name":"better-sqlite3","main":"index.js"}');
    writeFileSync(join(dir, 'node_modules', 'better-sqlite3', 'index.js'), "throw new Error('half an install\\nsecond line');");
    const e = unavailable(() => loadSqlite(from(dir)));
    expect(e.message).toBe('the Runtime API needs the SQLite module better-sqlite3, which is installed but cannot be loaded (half an install)');
  });
});
