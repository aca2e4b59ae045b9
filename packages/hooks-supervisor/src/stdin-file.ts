import * as fs from 'node:fs';

/**
 * A hook's stdin document in an unnamed file in memory, instead of a pipe.
 *
 * Why: a pipe on stdin is the most expensive part of a hook's spawn after the fork itself.
 * Node makes a socket pair, a stream object, an asynchronous write and its close events for
 * it; from a small Node process a `true` hook with a stdin pipe costs 1.15–1.30 ms of CPU
 * against 0.88–0.93 ms with stdin on `/dev/null`, and 0.91–1.03 ms with stdin on a file
 * (docs/design-notes.md, "A hook's stdin without a pipe"). The hook reads the same bytes and
 * then EOF, as from a pipe that was written and closed.
 *
 * The file: on Linux, opened with `O_TMPFILE` in `/dev/shm` when that is a tmpfs, mode 0600.
 * It never has a name in any directory (no other process can open it by a path, and nothing
 * is left behind if a process dies), it lives in memory only (tmpfs, never a disk), and it is
 * gone when the hook and its children have closed their stdin. The spawner closes its own
 * descriptor right after the spawn.
 *
 * Stays a pipe: any other platform; a `/dev/shm` that is missing or not a tmpfs; a kernel
 * without `O_TMPFILE`; a document over {@link STDIN_FILE_MAX_BYTES} (its write is synchronous,
 * and a pipe's is not, so a large one must not hold the spawner's thread); and any failure to
 * create or fill the file (a full `/dev/shm`, no descriptors left), which then costs nothing
 * but the attempt.
 *
 * The function below is also the process host's (process-host-source.ts embeds its source),
 * so it refers to nothing outside itself: `fsm` is `node:fs`, and `state` remembers whether
 * files can be used at all (`dir`: `undefined` before the first try, `null` when they cannot).
 */
export const STDIN_FILE_MAX_BYTES = 1_048_576;

/** Where payload files are made, and whether they can be. */
export interface StdinFileState {
  /** The directory to check (`/dev/shm`). */
  readonly root: string;
  /** The directory once checked, or `null` when payload files cannot be used here. */
  dir: string | null | undefined;
}

/**
 * An open descriptor of an unnamed file holding `text` and one `\n` (read position at its
 * start), or `null` when the payload should go through a pipe. The caller passes it as the
 * child's stdin and closes it right after the spawn.
 */
export function openStdinFile(fsm: typeof fs, state: StdinFileState, text: string): number | null {
  if (state.dir === null) return null;
  // Kept in step with STDIN_FILE_MAX_BYTES (this body must not refer to it; see above).
  if (text.length > 1_048_575 || Buffer.byteLength(text) > 1_048_575) return null;
  let dir: string | null | undefined = state.dir;
  if (dir === undefined) {
    dir = null;
    try {
      // 0x01021994: TMPFS_MAGIC, the type of a tmpfs in statfs(2).
      if (process.platform === 'linux' && fsm.statfsSync(state.root).type === 0x01021994) dir = state.root;
    } catch {
      dir = null;
    }
    state.dir = dir;
    if (dir === null) return null;
  }
  let fd: number;
  try {
    // O_TMPFILE is __O_TMPFILE (0o20000000, the same on x86-64, arm64, arm and riscv) with
    // O_DIRECTORY; a kernel that does not know it fails the open of a directory (EISDIR).
    fd = fsm.openSync(dir, 0o20000000 | fsm.constants.O_DIRECTORY | fsm.constants.O_RDWR, 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // Out of descriptors or memory: this once. Anything else: this kernel or mount cannot.
    if (code !== 'EMFILE' && code !== 'ENFILE' && code !== 'ENOSPC' && code !== 'ENOMEM' && code !== 'EDQUOT') state.dir = null;
    return null;
  }
  try {
    const bytes = Buffer.from(text + '\n');
    // Positional writes leave the read position at 0, where the child starts reading.
    let at = 0;
    while (at < bytes.length) at += fsm.writeSync(fd, bytes, at, bytes.length - at, at);
    return fd;
  } catch {
    fsm.closeSync(fd);
    return null;
  }
}

/** This process's state (the in-process spawn path). */
export const stdinFiles: StdinFileState = { root: '/dev/shm', dir: undefined };
