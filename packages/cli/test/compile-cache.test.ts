import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Module from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CACHE_COMMANDS,
  cacheDirectory,
  cacheFileName,
  commandKey,
  COMMANDS_SUFFIX,
  KEEP_CACHE_FILES,
  privateDirectory,
  pruneCache,
  readCache,
  readCommands,
  replacesCache,
  writeCache,
} from '../src/compile-cache.js';
import { sandbox } from './run-cli.js';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe('compile cache: where and when it is trusted', () => {
  it('is off for off/0/false, follows CODEWHALE_COMPILE_CACHE, else a per-user tmp directory', () => {
    for (const v of ['off', '0', 'false', ' off ']) expect(cacheDirectory({ CODEWHALE_COMPILE_CACHE: v })).toBeNull();
    expect(cacheDirectory({ CODEWHALE_COMPILE_CACHE: '/x/y' })).toBe('/x/y');
    expect(cacheDirectory({})).toMatch(new RegExp(`codewhale-compile-cache-${process.getuid?.() ?? 'user'}$`));
  });

  it('creates a 0700 directory, and refuses a link, a directory others can write, or another owner', () => {
    const s = sandbox();
    const dir = join(s.dir, 'cache');
    expect(privateDirectory(dir)).toBe(true);
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);

    const link = join(s.dir, 'link');
    symlinkSync(dir, link);
    expect(privateDirectory(link)).toBe(false);

    const open = join(s.dir, 'open');
    mkdirSync(open, { mode: 0o700 });
    chmodSync(open, 0o770);
    expect(privateDirectory(open)).toBe(false);

    const file = join(s.dir, 'file');
    writeFileSync(file, '');
    expect(privateDirectory(file)).toBe(false);

    if (isRoot) {
      const foreign = join(s.dir, 'foreign');
      mkdirSync(foreign, { mode: 0o700 });
      chownSync(foreign, 12345, 12345);
      expect(privateDirectory(foreign)).toBe(false);
    }
  });

  it('reads only whole regular files of this user, and writes them 0600 through a rename', () => {
    const s = sandbox();
    const f = join(s.dir, 'data.v8');
    writeCache(f, Buffer.from('cached bytes'));
    expect(statSync(f).mode & 0o777).toBe(0o600);
    expect(readCache(f)?.toString()).toBe('cached bytes');
    expect(readdirSync(s.dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    const link = join(s.dir, 'link.v8');
    symlinkSync(f, link);
    expect(readCache(link)).toBeUndefined();
    writeFileSync(join(s.dir, 'empty.v8'), '');
    expect(readCache(join(s.dir, 'empty.v8'))).toBeUndefined();
    expect(readCache(join(s.dir, 'missing.v8'))).toBeUndefined();
    if (isRoot) {
      chownSync(f, 12345, 12345);
      expect(readCache(f)).toBeUndefined();
    }
  });

  it('keeps the newest few cache files of a bundle and leaves other files alone', () => {
    const s = sandbox();
    const names = Array.from({ length: 6 }, (_, i) => `cli.cjs-v20.${i}.0-x64-10-1.v8`);
    names.forEach((n, i) => {
      writeFileSync(join(s.dir, n), 'x');
      utimesSync(join(s.dir, n), 1000 + i, 1000 + i);
    });
    writeFileSync(join(s.dir, 'other.cjs-v20.0.0-x64-1-1.v8'), 'x');
    writeFileSync(join(s.dir, 'notes.txt'), 'x');
    // The list of commands beside a pruned file goes with it.
    writeFileSync(join(s.dir, `${names[0]}${COMMANDS_SUFFIX}`), '[]');
    writeFileSync(join(s.dir, `${names[5]}${COMMANDS_SUFFIX}`), '[]');
    pruneCache(join(s.dir, names[5]!));
    expect(readdirSync(s.dir).sort()).toEqual([...names.slice(6 - KEEP_CACHE_FILES), `${names[5]}${COMMANDS_SUFFIX}`, 'notes.txt', 'other.cjs-v20.0.0-x64-1-1.v8'].sort());
  });

  it('counts a run by its command only: a fixed set, never an argument a user typed', () => {
    expect(commandKey([])).toBe('');
    expect(commandKey(['--help'])).toBe('');
    expect(commandKey(['hooks'])).toBe('hooks list');
    expect(commandKey(['hooks', '--json'])).toBe('hooks list');
    expect(commandKey(['hooks', 'test', 'turn_end', '--json'])).toBe('hooks test');
    expect(commandKey(['hooks', 'ls'])).toBe('hooks list');
    expect(commandKey(['exec', '--hooks', 'fix the bug in hooks'])).toBe('exec');
    expect(commandKey(['fix', 'everything'])).toBe('');
    const keys = new Set(['', ...Object.entries(CACHE_COMMANDS).flatMap(([top, subs]) => (subs.length === 0 ? [top] : subs.map((sub) => `${top} ${sub}`)))]);
    const word = fc.oneof(fc.constantFrom(...Object.keys(CACHE_COMMANDS), ...Object.values(CACHE_COMMANDS).flat(), '--json', '-h', 'constructor', '__proto__'), fc.string());
    fc.assert(
      fc.property(fc.array(word, { maxLength: 6 }), (argv) => {
        expect(keys.has(commandKey(argv))).toBe(true);
      }),
    );
  });

  it('replaces a cache file with data from exit unless it is much smaller', () => {
    expect(replacesCache(null, 1)).toBe(true);
    expect(replacesCache(1000, 950)).toBe(true);
    expect(replacesCache(1000, 949)).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e8 }), fc.integer({ min: 0, max: 1e8 }), fc.integer({ min: 0, max: 1e8 }), (old, a, b) => {
        // Bigger new data never loses to smaller; data at least as big as the file always wins.
        if (replacesCache(old, Math.min(a, b))) expect(replacesCache(old, Math.max(a, b))).toBe(true);
        if (a >= old) expect(replacesCache(old, a)).toBe(true);
      }),
    );
  });

  it('reads the list of commands like the cache, and anything malformed as none', () => {
    const s = sandbox();
    const file = join(s.dir, 'cli.cjs-v20.0.0-x64-1-1.v8');
    expect(readCommands(file)).toEqual(new Set());
    writeFileSync(`${file}${COMMANDS_SUFFIX}`, '["", "hooks list", 3]');
    expect(readCommands(file)).toEqual(new Set(['', 'hooks list']));
    writeFileSync(`${file}${COMMANDS_SUFFIX}`, 'not json');
    expect(readCommands(file)).toEqual(new Set());
    writeFileSync(`${file}${COMMANDS_SUFFIX}`, '{"a":1}');
    expect(readCommands(file)).toEqual(new Set());
  });

  it('names the cache after the Node version, the architecture, and the bundle size and mtime', () => {
    const s = sandbox();
    const b = join(s.dir, 'cli.cjs');
    writeFileSync(b, 'x'.repeat(10));
    const a = cacheFileName(b, 'v20.1.0', 'x64');
    expect(a).toMatch(/^cli\.cjs-v20\.1\.0-x64-10-\d+\.v8$/);
    expect(cacheFileName(b, 'v22.0.0', 'x64')).not.toBe(a);
    writeFileSync(b, 'x'.repeat(11));
    expect(cacheFileName(b, 'v20.1.0', 'x64')).not.toBe(a);
  });
});

describe('compile cache: the built binary', () => {
  const run = async (s: ReturnType<typeof sandbox>, cache: string) => {
    const r = await s.run(['hooks', 'list'], { env: { CODEWHALE_COMPILE_CACHE: cache, CODEWHALE_DEBUG_STARTUP: '1' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('No hooks configured');
    // nothing else on stderr: no experimental-feature warning, no stack
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    return /compile cache (\S+)/.exec(r.stderr)?.[1];
  };

  // Node ≥ 22.1 has the cache built in, and the CLI uses it there (in the same private directory).
  const builtin = typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === 'function';

  it.runIf(builtin)(
    "uses Node's own compile cache, in the private directory",
    async () => {
      const s = sandbox();
      const cache = join(s.dir, 'cache');
      expect(await run(s, cache)).toBe('builtin');
      expect(readdirSync(cache).length).toBeGreaterThan(0);
      expect(await run(s, cache)).toBe('builtin');
    },
    60_000,
  );

  it.runIf(!builtin)(
    'compiles cold once, then runs from the cache; bad data is rejected, the command still works, and it is rewritten',
    async () => {
      const s = sandbox();
      const cache = join(s.dir, 'cache');
      expect(await run(s, cache)).toBe('cold');
      const [file] = readdirSync(cache);
      expect(file).toMatch(/^cli\.cjs-v\d+.*\.v8$/);
      expect(statSync(join(cache, file!)).size).toBeGreaterThan(10_000);
      expect(await run(s, cache)).toBe('hit');

      writeFileSync(join(cache, file!), Buffer.from(readFileSync(join(cache, file!)).map((b, i) => (i < 64 ? b ^ 0xff : b))));
      expect(await run(s, cache)).toBe('rejected');
      expect(await run(s, cache)).toBe('hit');
    },
    60_000,
  );

  it('counts exactly the commands the binary has', async () => {
    const s = sandbox();
    const names = async (args: string[]) => {
      const r = await s.run(args);
      expect(r.code, r.stderr).toBe(0);
      const section = r.stdout.slice(r.stdout.indexOf('Commands:'));
      return [...section.matchAll(/^ {2}([a-z]+)/gm)].map((m) => m[1]).filter((n) => n !== 'help');
    };
    expect((await names(['--help'])).sort()).toEqual(Object.keys(CACHE_COMMANDS).sort());
    expect((await names(['hooks', '--help'])).sort()).toEqual([...CACHE_COMMANDS['hooks']!].sort());
  }, 60_000);

  it.runIf(!builtin)(
    'grows once per command: a cache written by --help gains what hooks list compiles',
    async () => {
      const s = sandbox();
      const cache = join(s.dir, 'cache');
      const env = { CODEWHALE_COMPILE_CACHE: cache, CODEWHALE_DEBUG_STARTUP: '1' };
      const outcome = async (args: string[]) => {
        const r = await s.run(args, { env });
        expect(r.code, r.stderr).toBe(0);
        return /compile cache (\S+)/.exec(r.stderr)?.[1];
      };
      expect(await outcome(['--help'])).toBe('cold');
      const [file] = readdirSync(cache).filter((n) => n.endsWith('.v8'));
      const path = join(cache, file!);
      const afterHelp = statSync(path).size;
      expect(await outcome(['--help'])).toBe('hit');
      expect(await run(s, cache)).toBe('hit-growing');
      expect(statSync(path).size).toBeGreaterThan(afterHelp);
      expect(await run(s, cache)).toBe('hit');
      expect(await outcome(['--help'])).toBe('hit');
      expect(JSON.parse(readFileSync(`${path}${COMMANDS_SUFFIX}`, 'utf8'))).toEqual(['', 'hooks list']);
      // A list that cannot be read counts as none: the next run grows the cache again.
      writeFileSync(`${path}${COMMANDS_SUFFIX}`, 'garbage');
      expect(await run(s, cache)).toBe('hit-growing');
      expect(await run(s, cache)).toBe('hit');
    },
    60_000,
  );

  it('does not use a directory others can write, and can be switched off', async () => {
    const s = sandbox();
    const cache = join(s.dir, 'shared');
    mkdirSync(cache, { mode: 0o700 });
    chmodSync(cache, 0o777);
    expect(await run(s, cache)).toBe('unsafe-directory');
    expect(readdirSync(cache)).toEqual([]);
    expect(await run(s, 'off')).toBe('off');
    expect(existsSync(join(s.dir, 'off'))).toBe(false);
  }, 60_000);
});
