import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRegularFile } from './read-regular-file.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-regular-')));
const fifo = join(dir, 'fifo');
const sock = join(dir, 'sock');
let server: Server;

beforeAll(async () => {
  execFileSync('mkfifo', [fifo]);
  server = createServer();
  await new Promise<void>((resolve) => server.listen(sock, resolve));
  writeFileSync(join(dir, 'file.toml'), 'a = 1\n');
  writeFileSync(join(dir, 'empty'), '');
  mkdirSync(join(dir, 'dir'));
  symlinkSync(join(dir, 'file.toml'), join(dir, 'link'));
  symlinkSync(fifo, join(dir, 'link-to-fifo'));
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('readRegularFile', () => {
  it('reads a regular file, an empty one, and one behind a symlink', () => {
    const r = readRegularFile(join(dir, 'file.toml'), 100);
    expect(r.ok && new TextDecoder().decode(r.bytes)).toBe('a = 1\n');
    expect(readRegularFile(join(dir, 'empty'), 100)).toMatchObject({ ok: true, bytes: new Uint8Array(0) });
    expect(readRegularFile(join(dir, 'link'), 100).ok).toBe(true);
  });

  it('refuses a FIFO at once instead of waiting for a writer, naming the file', () => {
    expect(readRegularFile(fifo, 100)).toEqual({ ok: false, problem: 'not_regular', message: `${fifo} is a FIFO (named pipe), not a regular file` });
    expect(readRegularFile(join(dir, 'link-to-fifo'), 100)).toMatchObject({ ok: false, problem: 'not_regular' });
  });

  it('refuses a directory, a socket and a device', () => {
    expect(readRegularFile(join(dir, 'dir'), 100)).toEqual({ ok: false, problem: 'not_regular', message: `${join(dir, 'dir')} is a directory, not a regular file` });
    expect(readRegularFile(sock, 100)).toEqual({ ok: false, problem: 'not_regular', message: `${sock} is a socket, not a regular file` });
    expect(readRegularFile('/dev/zero', 100)).toEqual({ ok: false, problem: 'not_regular', message: '/dev/zero is a character device, not a regular file' });
    expect(readRegularFile('/dev/null', 100)).toMatchObject({ ok: false, problem: 'not_regular' });
  });

  it('says when the file is missing (also below a file) or over its cap', () => {
    expect(readRegularFile(join(dir, 'nope'), 100)).toMatchObject({ ok: false, problem: 'missing' });
    expect(readRegularFile(join(dir, 'file.toml', 'x'), 100)).toMatchObject({ ok: false, problem: 'missing' });
    expect(readRegularFile(join(dir, 'file.toml'), 5)).toEqual({ ok: false, problem: 'too_large', message: `${join(dir, 'file.toml')} is larger than 5 bytes` });
  });
});

describe('properties', () => {
  it('a file is read whole exactly when it fits the cap', () => {
    let n = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 0, max: 200_000 }), (size, cap) => {
        const p = join(dir, `sized-${n++}`);
        const bytes = Buffer.alloc(size, 0x61);
        writeFileSync(p, bytes);
        const r = readRegularFile(p, cap);
        if (size <= cap) expect(r.ok && Buffer.from(r.bytes).equals(bytes)).toBe(true);
        else expect(r).toMatchObject({ ok: false, problem: 'too_large' });
      }),
      { numRuns: 60 },
    );
  });
});
