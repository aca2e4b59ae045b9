import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, constants, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { USER_CONFIG_MAX_BYTES, readRegularFile } from './read-regular-file.js';

/** Why a locked update failed. */
export type FileUpdateErrorCode = 'lock_timeout' | 'not_regular' | 'too_large' | 'unreadable' | 'invalid_utf8' | 'write_failed';

/** A locked update that did not happen; the file is unchanged. `message` names the file. */
export class FileUpdateError extends Error {
  readonly code: FileUpdateErrorCode;
  readonly path: string;

  constructor(code: FileUpdateErrorCode, path: string, message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'FileUpdateError';
    this.code = code;
    this.path = path;
  }

  static isInstance(e: unknown): e is FileUpdateError {
    return e instanceof FileUpdateError;
  }
}

/** The file as the edit sees it: its UTF-8 text (`''` and `exists: false` when there is none yet). */
export interface FileSnapshot {
  readonly path: string;
  readonly text: string;
  readonly exists: boolean;
}

/** Return the new text, or `null` (or the same text) to leave the file as it is. May throw: nothing is written then. */
export type FileEdit = (current: FileSnapshot) => string | null;

export interface UpdateFileLockedOptions {
  /** Give up waiting for another writer after this long (default 10 s). */
  readonly timeoutMs?: number;
  /**
   * A lock older than this whose owner may still be alive is taken over (default 30 s; an
   * edit holds the lock for milliseconds). A lock whose owner process is gone (same host) is
   * taken over at once.
   */
  readonly staleMs?: number;
  /** Largest file accepted (default 16 MiB). */
  readonly maxBytes?: number;
  /** Permissions of a file created by the update (default 0600; its directory gets 0700). */
  readonly mode?: number;
}

export interface FileUpdateResult {
  /** Whether new bytes were written. */
  readonly changed: boolean;
  /** The file's text after the update. */
  readonly text: string;
  /** The file that was (or would have been) written: the real path behind a symlink. */
  readonly path: string;
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

/** The lock file of a target: `<file>.lock` beside it. */
export function lockPathOf(target: string): string {
  return `${target}.lock`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
}

function readOwner(lockPath: string): LockOwner | null {
  try {
    const v = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<LockOwner>;
    return typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.token === 'string' ? (v as LockOwner) : null;
  } catch {
    return null;
  }
}

/** How old a breaker's mark (`<lock>.break`) must be before another breaker clears it (its breaker died). */
export const LOCK_BREAK_STALE_MS = 5_000;

/** The lock judged stale: its inode and its owner's token (`null`: no owner could be read). */
export interface JudgedLock {
  readonly ino: number;
  readonly token: string | null;
}

/**
 * Take over a stale lock without ever removing another: only one breaker at a time (it holds
 * `<lock>.break`, created with `O_EXCL`), and it removes the lock only if it is still the one
 * judged stale, the same inode with the same owner's token. The judgement may be out of date:
 * its owner may have released the lock and exited between the look and the check, and a new
 * owner taken it (often on the same inode). Nothing else changes an existing lock: its owner
 * is gone (or, for a lock older than `staleMs`, presumed gone) and every other breaker waits for
 * the mark. Returns whether it removed the lock. Exported for tests.
 */
export function breakStaleLock(lockPath: string, judged: JudgedLock): boolean {
  const mark = `${lockPath}.break`;
  let fd: number;
  try {
    fd = openSync(mark, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch {
    // Another breaker is at it; or it died holding the mark, which goes once it is old enough.
    try {
      if (Date.now() - lstatSync(mark).mtimeMs > LOCK_BREAK_STALE_MS) rmSync(mark, { force: true });
    } catch {
      /* gone meanwhile */
    }
    return false;
  }
  closeSync(fd);
  try {
    if (lstatSync(lockPath).ino !== judged.ino) return false;
    if ((readOwner(lockPath)?.token ?? null) !== judged.token) return false;
    unlinkSync(lockPath);
    return true;
  } catch {
    return false; // released or broken meanwhile
  } finally {
    rmSync(mark, { force: true });
  }
}

function acquire(lockPath: string, timeoutMs: number, staleMs: number, subject: string): LockOwner {
  const owner: LockOwner = { pid: process.pid, host: hostname(), token: randomBytes(12).toString('hex') };
  const body = `${JSON.stringify(owner)}\n`;
  const deadline = Date.now() + timeoutMs;
  let delay = 2;
  for (;;) {
    let fd: number | null = null;
    try {
      fd = openSync(lockPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      writeSync(fd, body);
      return owner;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new FileUpdateError('write_failed', subject, `cannot lock ${subject}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; it was not changed`, { cause: e });
      }
    } finally {
      if (fd !== null) closeSync(fd);
    }
    // Held by someone: take it over if its owner is gone or it is very old, else wait.
    try {
      const st = lstatSync(lockPath);
      const holder = readOwner(lockPath);
      const gone = holder !== null && holder.host === owner.host && !isAlive(holder.pid);
      const old = Date.now() - st.mtimeMs > staleMs;
      // A lock file still being written (no owner yet) is only stale by age.
      // Removed: try again at once. Not (it changed, or another breaker is at it): wait as for any holder.
      if ((gone || old) && breakStaleLock(lockPath, { ino: st.ino, token: holder?.token ?? null })) continue;
    } catch {
      continue; // released between our open and our look: try again at once
    }
    if (Date.now() >= deadline) {
      throw new FileUpdateError(
        'lock_timeout',
        subject,
        `${subject} is being changed by another process (lock ${lockPath} held for over ${Math.round(timeoutMs / 1000)} s); it was not changed. If no other codewhale is running, delete ${lockPath}`,
      );
    }
    sleepSync(Math.min(delay, Math.max(1, deadline - Date.now())));
    delay = Math.min(delay * 2, 50) + Math.floor(Math.random() * 3);
  }
}

function release(lockPath: string, owner: LockOwner): void {
  // Remove only our own lock: if it was taken over as stale, it is someone else's now.
  const holder = readOwner(lockPath);
  if (holder && holder.token === owner.token) rmSync(lockPath, { force: true });
}

function readSnapshot(target: string, maxBytes: number): FileSnapshot {
  const read = readRegularFile(target, maxBytes);
  if (!read.ok) {
    if (read.problem === 'missing') return { path: target, text: '', exists: false };
    const code = read.problem === 'not_regular' ? 'not_regular' : read.problem === 'too_large' ? 'too_large' : 'unreadable';
    throw new FileUpdateError(code, target, `${read.message}; it was not changed`);
  }
  try {
    return { path: target, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(read.bytes), exists: true };
  } catch {
    throw new FileUpdateError('invalid_utf8', target, `${target} is not valid UTF-8; it was not changed`);
  }
}

function writeAtomically(target: string, text: string, mode: number): void {
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(tmp, mode); // the umask may have narrowed it
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new FileUpdateError('write_failed', target, `cannot write ${target}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; it was not changed`, { cause: e });
  }
}

/**
 * Read-modify-write a text file with no lost update: take an exclusive lock (`<file>.lock`,
 * created with `O_EXCL`; a lock left by a dead process, or older than `staleMs`, is taken
 * over), read the file as it is now (a regular file of at most `maxBytes`, UTF-8), apply
 * `edit`, write the result to a temporary file beside it and rename it over the file (so a
 * crash never leaves half a file), then release the lock. A symlinked file is followed, not
 * replaced; an existing file keeps its permissions; a new one is created 0600 in a 0700
 * directory. Every writer of the user's config goes through this.
 *
 * Synchronous: it waits for another writer (up to `timeoutMs`) by sleeping the thread, which
 * takes milliseconds in practice. Throws {@link FileUpdateError} (naming the file) when it
 * cannot lock, read or write; rethrows what `edit` throws. In every failure the file is unchanged.
 */
export function updateFileLocked(path: string, edit: FileEdit, options: UpdateFileLockedOptions = {}): FileUpdateResult {
  let target = path;
  if (existsSync(path)) {
    try {
      target = realpathSync(path);
    } catch {
      target = path;
    }
  } else {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  }
  const lockPath = lockPathOf(target);
  const owner = acquire(lockPath, options.timeoutMs ?? 10_000, options.staleMs ?? 30_000, target);
  try {
    const current = readSnapshot(target, options.maxBytes ?? USER_CONFIG_MAX_BYTES);
    const next = edit(current);
    if (next === null || next === current.text) return { changed: false, text: current.text, path: target };
    let mode = options.mode ?? 0o600;
    if (current.exists) {
      try {
        mode = statSync(target).mode & 0o7777;
      } catch {
        /* keep the default */
      }
    }
    writeAtomically(target, next, mode);
    return { changed: true, text: next, path: target };
  } finally {
    release(lockPath, owner);
  }
}
