import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';

/** Why a file could not be read: absent, not a regular file, over its cap, or an I/O error. */
export type RegularFileProblem = 'missing' | 'not_regular' | 'too_large' | 'unreadable';

export type RegularFileRead =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | {
      readonly ok: false;
      readonly problem: RegularFileProblem;
      /** One line naming the file and what it is, e.g. `/w/.codewhale/hooks.toml is a directory, not a regular file`. */
      readonly message: string;
    };

// O_NONBLOCK makes opening a FIFO return at once instead of waiting for a writer; O_NOCTTY
// keeps a terminal device from becoming our controlling terminal. Neither exists on Windows,
// where opening a named pipe this way does not block either.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** What a non-regular file is, in words. */
export function fileKind(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

function describe(path: string, st: Stats): string {
  const kind = fileKind(st);
  return kind === 'not a regular file' ? `${path} is not a regular file` : `${path} is ${kind}, not a regular file`;
}

function sizeText(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * Read a file that must be a regular file of at most `maxBytes` bytes, without ever
 * blocking: it is opened non-blocking and checked with `fstat` on the opened descriptor
 * (so a file swapped after a check is still judged), and FIFOs, sockets, devices and
 * directories are refused with a message naming the file. Symbolic links are followed.
 * At most `maxBytes + 1` bytes are read, so a file that grows while being read is refused too.
 */
export function readRegularFile(path: string, maxBytes: number): RegularFileRead {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, problem: 'missing', message: `${path} does not exist` };
    if (code === 'ENXIO' || code === 'EOPNOTSUPP') {
      // A socket cannot be opened at all; say what it is.
      try {
        return { ok: false, problem: 'not_regular', message: describe(path, lstatSync(path)) };
      } catch {
        /* fall through */
      }
    }
    return { ok: false, problem: 'unreadable', message: `cannot read ${path}: ${code ?? (e as Error).message}` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, problem: 'not_regular', message: describe(path, st) };
    if (st.size > maxBytes) return { ok: false, problem: 'too_large', message: `${path} is larger than ${sizeText(maxBytes)}` };
    // Read until end of file (not just `st.size`: the file may have grown), at most maxBytes + 1.
    const chunks: Buffer[] = [];
    let n = 0;
    let chunk = Buffer.alloc(Math.min(maxBytes, st.size) + 1);
    for (;;) {
      const r = readSync(fd, chunk, 0, Math.min(chunk.length, maxBytes + 1 - n), null);
      if (r === 0) break;
      chunks.push(chunk.subarray(0, r));
      n += r;
      if (n > maxBytes) return { ok: false, problem: 'too_large', message: `${path} is larger than ${sizeText(maxBytes)}` };
      if (r === chunk.length) chunk = Buffer.alloc(64 * 1024);
      else chunk = chunk.subarray(r);
    }
    const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, n);
    return { ok: true, bytes: new Uint8Array(all.buffer, all.byteOffset, n) };
  } catch (e) {
    return { ok: false, problem: 'unreadable', message: `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  } finally {
    closeSync(fd);
  }
}

/** The cap on the user's `config.toml` (and `permissions.toml`): far above any real file. */
export const USER_CONFIG_MAX_BYTES = 16 * 1024 * 1024;

/** The cap on a pinned hook script that is hashed for approval. */
export const PINNED_SCRIPT_MAX_BYTES = 16 * 1024 * 1024;
