import * as fs from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROCESS_HOST_SOURCE } from './process-host-source.js';
import { openStdinFile, STDIN_FILE_MAX_BYTES, type StdinFileState } from './stdin-file.js';

const TMPFS_MAGIC = 0x01021994;
const shmIsTmpfs = (() => {
  try {
    return process.platform === 'linux' && fs.statfsSync('/dev/shm').type === TMPFS_MAGIC;
  } catch {
    return false;
  }
})();
const fresh = (): StdinFileState => ({ root: '/dev/shm', dir: undefined });

/** What a child would read from the descriptor: from its current position to the end. */
function readFromPosition(fd: number): string {
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(65_536);
  for (;;) {
    const n = fs.readSync(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `node:fs` with some calls replaced, for kernel answers a test cannot cause for real. */
function fsWith(over: Partial<Pick<typeof fs, 'openSync' | 'writeSync' | 'statfsSync' | 'closeSync'>>): typeof fs {
  return { ...fs, ...over } as typeof fs;
}

// This machine kind (Linux, /dev/shm a tmpfs) uses files; elsewhere every document is a pipe.
describe('openStdinFile', () => {
  it(shmIsTmpfs ? 'makes an unnamed file, mode 0600, holding the document and one newline, read from its start' : 'declines: no tmpfs /dev/shm here', () => {
    const state = fresh();
    const fd = openStdinFile(fs, state, '{"a":"鲸"}');
    if (!shmIsTmpfs) {
      expect(fd).toBeNull();
      expect(state.dir).toBeNull();
      return;
    }
    expect(fd).not.toBeNull();
    try {
      const st = fs.fstatSync(fd!);
      expect(st.isFile()).toBe(true);
      expect(st.nlink).toBe(0);
      expect(st.mode & 0o777).toBe(0o600);
      expect(fs.readlinkSync(`/proc/self/fd/${fd}`)).toMatch(/^\/dev\/shm\/#\d+ \(deleted\)$/);
      expect(readFromPosition(fd!)).toBe('{"a":"鲸"}\n');
      expect(state.dir).toBe('/dev/shm');
    } finally {
      fs.closeSync(fd!);
    }
  });

  it('uses a file exactly when the document and its newline fit in STDIN_FILE_MAX_BYTES (UTF-8 bytes, not characters)', () => {
    if (!shmIsTmpfs) return expect(openStdinFile(fs, fresh(), 'x')).toBeNull();
    const state = fresh();
    fc.assert(
      fc.property(fc.constantFrom('a', 'é', '鲸', '🐳'), fc.integer({ min: -8, max: 8 }), (ch, delta) => {
        const width = Buffer.byteLength(ch);
        const count = Math.max(0, Math.floor((STDIN_FILE_MAX_BYTES - 1) / width) + delta);
        const text = ch.repeat(count);
        const fits = Buffer.byteLength(text) + 1 <= STDIN_FILE_MAX_BYTES;
        const fd = openStdinFile(fs, state, text);
        try {
          expect(fd !== null).toBe(fits);
          if (fd !== null) expect(fs.fstatSync(fd).size).toBe(Buffer.byteLength(text) + 1);
        } finally {
          if (fd !== null) fs.closeSync(fd);
        }
      }),
      { numRuns: 60 },
    );
    // A document too large for a file this time does not stop files for the next one.
    expect(state.dir).toBe('/dev/shm');
  });

  it('writes the whole document however short the kernel makes each write', () => {
    if (!shmIsTmpfs) return;
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 3000 }), fc.integer({ min: 1, max: 64 }), (text, most) => {
        const short = fsWith({ writeSync: ((fd: number, b: Buffer, off: number, len: number, pos: number) => fs.writeSync(fd, b, off, Math.min(len, most), pos)) as typeof fs.writeSync });
        const fd = openStdinFile(short, fresh(), text);
        expect(fd).not.toBeNull();
        try {
          expect(readFromPosition(fd!)).toBe(Buffer.from(text + '\n').toString('utf8'));
        } finally {
          fs.closeSync(fd!);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('declines for good where /dev/shm is not a tmpfs or does not exist, and asks the file system once', () => {
    // A directory on a disk: a payload must never be written to one.
    const disk = [process.cwd(), tmpdir(), '/'].find((d) => fs.statfsSync(d).type !== TMPFS_MAGIC);
    expect(disk, 'this machine has a directory that is not a tmpfs').toBeDefined();
    for (const root of [mkdtempSync(join(disk!, '.cw-not-shm-')), '/no/such/dir']) {
      let asked = 0;
      const counting = fsWith({ statfsSync: ((p: string) => (asked++, fs.statfsSync(p))) as typeof fs.statfsSync });
      const state: StdinFileState = { root, dir: undefined };
      expect(openStdinFile(counting, state, '{}')).toBeNull();
      expect(state.dir).toBeNull();
      expect(openStdinFile(counting, state, '{}')).toBeNull();
      expect(asked).toBe(process.platform === 'linux' ? 1 : 0);
      if (!root.startsWith('/no/')) fs.rmdirSync(root);
    }
  });

  it('declines once when out of descriptors or space, and for good when the kernel cannot make such files', () => {
    if (!shmIsTmpfs) return;
    const failing = (code: string) =>
      fsWith({
        openSync: (() => {
          throw Object.assign(new Error(code), { code });
        }) as typeof fs.openSync,
      });
    for (const code of ['EMFILE', 'ENFILE', 'ENOSPC', 'ENOMEM', 'EDQUOT']) {
      const state = fresh();
      expect(openStdinFile(failing(code), state, '{}')).toBeNull();
      expect(state.dir).toBe('/dev/shm');
      const fd = openStdinFile(fs, state, '{}');
      expect(fd).not.toBeNull();
      fs.closeSync(fd!);
    }
    for (const code of ['EISDIR', 'EINVAL', 'EOPNOTSUPP', 'EACCES']) {
      const state = fresh();
      expect(openStdinFile(failing(code), state, '{}')).toBeNull();
      expect(state.dir).toBeNull();
      expect(openStdinFile(fs, state, '{}')).toBeNull();
    }
  });

  it('is the process host\'s function too, and stands alone (it refers to nothing outside its parameters)', () => {
    expect(PROCESS_HOST_SOURCE).toContain(`const openStdinFile = ${openStdinFile.toString()};`);
    // Compiled with nothing in scope but the globals: a reference to a module binding would throw.
    const standalone = new Function(`return ${openStdinFile.toString()};`)() as typeof openStdinFile;
    const state = fresh();
    const fd = standalone(fs, state, '{}');
    expect(fd !== null).toBe(shmIsTmpfs);
    if (fd !== null) {
      expect(readFromPosition(fd)).toBe('{}\n');
      fs.closeSync(fd);
    }
  });

  it('closes the file and declines when it cannot be filled (a full /dev/shm)', () => {
    if (!shmIsTmpfs) return;
    const opened: number[] = [];
    const closed: number[] = [];
    const full = fsWith({
      openSync: ((...args: Parameters<typeof fs.openSync>) => {
        const fd = fs.openSync(...args);
        opened.push(fd);
        return fd;
      }) as typeof fs.openSync,
      writeSync: (() => {
        throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
      }) as typeof fs.writeSync,
      closeSync: ((fd: number) => {
        closed.push(fd);
        fs.closeSync(fd);
      }) as typeof fs.closeSync,
    });
    const state = fresh();
    expect(openStdinFile(full, state, '{}')).toBeNull();
    expect(opened).toHaveLength(1);
    expect(closed).toEqual(opened);
    expect(state.dir).toBe('/dev/shm');
  });
});
