import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { breakStaleLock, FileUpdateError, LOCK_BREAK_STALE_MS, lockPathOf, updateFileLocked } from './update-file-locked.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-locked-')));
let n = 0;
const fresh = (): string => {
  const d = join(root, `t${n++}`);
  mkdirSync(d);
  return d;
};

describe('updateFileLocked', () => {
  it('creates a missing file 0600 in a new 0700 directory', () => {
    const d = join(fresh(), 'home');
    const p = join(d, 'config.toml');
    const r = updateFileLocked(p, (cur) => {
      expect(cur).toEqual({ path: p, text: '', exists: false });
      return 'a = 1\n';
    });
    expect(r).toEqual({ changed: true, text: 'a = 1\n', path: p });
    expect(readFileSync(p, 'utf8')).toBe('a = 1\n');
    expect(statSync(p).mode & 0o777).toBe(0o600);
    expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(existsSync(lockPathOf(p))).toBe(false);
  });

  it('edits the current text, keeps the permissions, follows a symlink, and leaves no temporary file', () => {
    const d = fresh();
    const real = join(d, 'real.toml');
    writeFileSync(real, '# keep me\nx = 1\n', { mode: 0o640 });
    const link = join(d, 'config.toml');
    symlinkSync(real, link);
    const r = updateFileLocked(link, (cur) => `${cur.text}y = 2\n`);
    expect(r.path).toBe(real);
    expect(readFileSync(real, 'utf8')).toBe('# keep me\nx = 1\ny = 2\n');
    expect(statSync(real).mode & 0o777).toBe(0o640);
    expect(statSync(link, { throwIfNoEntry: false })).toBeDefined();
    expect(readdirSync(d).sort()).toEqual(['config.toml', 'real.toml']);
  });

  it('null or the same text writes nothing', () => {
    const d = fresh();
    const p = join(d, 'c.toml');
    writeFileSync(p, 'x = 1\n');
    const before = statSync(p).mtimeMs;
    expect(updateFileLocked(p, () => null).changed).toBe(false);
    expect(updateFileLocked(p, (c) => c.text).changed).toBe(false);
    expect(statSync(p).mtimeMs).toBe(before);
    expect(updateFileLocked(join(d, 'none.toml'), () => '').changed).toBe(false);
    expect(existsSync(join(d, 'none.toml'))).toBe(false);
  });

  it('an edit that throws writes nothing and releases the lock', () => {
    const d = fresh();
    const p = join(d, 'c.toml');
    writeFileSync(p, 'x = 1\n');
    expect(() =>
      updateFileLocked(p, () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(readFileSync(p, 'utf8')).toBe('x = 1\n');
    expect(existsSync(lockPathOf(p))).toBe(false);
  });

  it('refuses a file that is not a regular file or not UTF-8, naming it, and changes nothing', () => {
    const d = fresh();
    const dir = join(d, 'config.toml');
    mkdirSync(dir);
    expect(() => updateFileLocked(dir, () => 'x')).toThrow(expect.objectContaining({ code: 'not_regular', message: `${dir} is a directory, not a regular file; it was not changed` }));
    const fifo = join(d, 'fifo.toml');
    execFileSync('mkfifo', [fifo]);
    expect(() => updateFileLocked(fifo, () => 'x')).toThrow(expect.objectContaining({ code: 'not_regular' }));
    const bad = join(d, 'bad.toml');
    writeFileSync(bad, Buffer.from([0x61, 0xff, 0x0a]));
    expect(() => updateFileLocked(bad, () => 'x')).toThrow(expect.objectContaining({ code: 'invalid_utf8' }));
    expect(readFileSync(bad)).toEqual(Buffer.from([0x61, 0xff, 0x0a]));
    expect(existsSync(lockPathOf(bad))).toBe(false);
  });

  it('takes over a lock left by a process that is gone', () => {
    const d = fresh();
    const p = join(d, 'c.toml');
    writeFileSync(p, 'x = 1\n');
    const dead = spawnSyncDeadPid();
    writeFileSync(lockPathOf(p), JSON.stringify({ pid: dead, host: hostnameOf(), token: 'old' }));
    expect(updateFileLocked(p, (c) => `${c.text}y = 2\n`, { timeoutMs: 2_000 }).changed).toBe(true);
    expect(existsSync(lockPathOf(p))).toBe(false);
  });

  it('takes over a lock older than staleMs even if its owner looks alive; waits for a fresh one, then times out naming the lock', () => {
    const d = fresh();
    const p = join(d, 'c.toml');
    writeFileSync(p, 'x = 1\n');
    const lock = lockPathOf(p);
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostnameOf(), token: 'someone' }));
    let err: unknown;
    try {
      updateFileLocked(p, () => 'never', { timeoutMs: 150, staleMs: 60_000 });
    } catch (e) {
      err = e;
    }
    expect(FileUpdateError.isInstance(err) && err.code).toBe('lock_timeout');
    expect((err as Error).message).toContain(`If no other codewhale is running, delete ${lock}`);
    expect(readFileSync(p, 'utf8')).toBe('x = 1\n');
    expect(existsSync(lock)).toBe(true); // someone else's lock is never removed
    const old = (Date.now() - 120_000) / 1000;
    utimesSync(lock, old, old);
    expect(updateFileLocked(p, () => 'y = 1\n', { timeoutMs: 2_000, staleMs: 60_000 }).changed).toBe(true);
  });
});

function hostnameOf(): string {
  return execFileSync('hostname', { encoding: 'utf8' }).trim() || 'localhost';
}

function spawnSyncDeadPid(): number {
  // A child that has exited and been reaped: its pid is (almost certainly) free.
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
}

// ---- real concurrent processes ----------------------------------------------------------

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'index.js');

/** A writer process: `rounds` read-modify-writes, each appending `<id>.<round>` to the list line. */
const WRITER = `
const { updateFileLocked } = await import(process.argv[1]);
const [path, id, rounds] = [process.argv[2], process.argv[3], Number(process.argv[4])];
for (let r = 0; r < rounds; r++) {
  updateFileLocked(path, ({ text }) => text.replace(/^done = \\[(.*)\\]$/m, (_, items) => 'done = [' + (items ? items + ', ' : '') + '"' + id + '.' + r + '"]'));
}
`;

describe('breaking a stale lock', () => {
  const lockAt = (token: string, pid = process.pid): { lock: string; ino: number } => {
    const lock = lockPathOf(join(fresh(), 'c.toml'));
    writeFileSync(lock, JSON.stringify({ pid, host: hostnameOf(), token }));
    return { lock, ino: statSync(lock).ino };
  };

  it('removes the lock judged stale, and leaves no mark', () => {
    const { lock, ino } = lockAt('dead-owner');
    expect(breakStaleLock(lock, { ino, token: 'dead-owner' })).toBe(true);
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(`${lock}.break`)).toBe(false);
  });

  it('leaves a lock taken since the judgement: another inode, or the same inode with another owner', () => {
    // Its owner released it and exited after the look; a live process holds it now.
    const { lock, ino } = lockAt('released');
    rmSync(lock);
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostnameOf(), token: 'new-owner' }));
    expect(breakStaleLock(lock, { ino, token: 'released' })).toBe(false);
    // The inode number may well be the old one again: the owner's token tells them apart.
    expect(breakStaleLock(lock, { ino: statSync(lock).ino, token: 'released' })).toBe(false);
    expect(breakStaleLock(lock, { ino: statSync(lock).ino, token: null })).toBe(false);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ token: 'new-owner' });
    expect(existsSync(`${lock}.break`)).toBe(false);
  });

  it('waits while another breaker holds the mark, and clears a mark its breaker left behind', () => {
    const { lock, ino } = lockAt('dead-owner');
    const mark = `${lock}.break`;
    writeFileSync(mark, '');
    expect(breakStaleLock(lock, { ino, token: 'dead-owner' })).toBe(false);
    expect(existsSync(lock) && existsSync(mark)).toBe(true);
    const old = (Date.now() - LOCK_BREAK_STALE_MS - 1_000) / 1000;
    utimesSync(mark, old, old);
    expect(breakStaleLock(lock, { ino, token: 'dead-owner' })).toBe(false);
    expect(existsSync(mark)).toBe(false);
    expect(breakStaleLock(lock, { ino, token: 'dead-owner' })).toBe(true);
  });
});

describe('concurrent writers (real processes)', { timeout: 120_000 }, () => {
  it('20 processes × 5 read-modify-writes: every change lands, comments intact, no lock or temporary file left', async () => {
    if (!existsSync(DIST)) throw new Error(`build the supervisor first: ${DIST} is missing (pnpm turbo run build --filter=@codewhale/hooks-supervisor)`);
    const d = fresh();
    const p = join(d, 'config.toml');
    const header = '# my settings — keep this comment\n[state]  # inline comment\n';
    writeFileSync(p, `${header}done = []\n# trailing comment\n`);
    const writers = Array.from(
      { length: 20 },
      (_, id) =>
        new Promise<number | null>((resolve, reject) => {
          const child = spawn(process.execPath, ['--input-type=module', '-e', WRITER, DIST, p, `w${id}`, '5'], { stdio: ['ignore', 'ignore', 'inherit'] });
          child.on('error', reject);
          child.on('close', resolve);
        }),
    );
    expect(await Promise.all(writers)).toEqual(Array(20).fill(0));
    const text = readFileSync(p, 'utf8');
    expect(text.startsWith(header)).toBe(true);
    expect(text.endsWith('\n# trailing comment\n')).toBe(true);
    const items = /^done = \[(.*)\]$/m
      .exec(text)![1]!
      .split(', ')
      .map((s) => JSON.parse(s) as string);
    expect(items).toHaveLength(100);
    expect(new Set(items).size).toBe(100);
    for (let id = 0; id < 20; id++) {
      // each writer's own changes land in its order
      const mine = items.filter((s) => s.startsWith(`w${id}.`));
      expect(mine).toEqual([0, 1, 2, 3, 4].map((r) => `w${id}.${r}`));
    }
    expect(readdirSync(d)).toEqual(['config.toml']);
  });
});
