import { mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runServe } from '../src/commands/serve.js';
import { EXIT } from '../src/exit-codes.js';
import { main } from '../src/main.js';
import type { Io } from '../src/io.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function memoryIo(env: Record<string, string> = {}): Io & { out: string[]; err: string[]; home: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-serve-')));
  dirs.push(root);
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, home: join(root, 'home'), stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: { CODEWHALE_HOME: join(root, 'home'), ...env }, cwd: root, isTTY: false };
}

describe('codewhale serve', () => {
  it('prints the URL first, never the token, serves until stopped, then exits 0', async () => {
    const io = memoryIo();
    let stop!: (s: string) => void;
    const stopped = new Promise<string>((r) => (stop = r));
    const running = runServe({ port: 0 }, io, stopped);
    for (let i = 0; i < 400 && io.out.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    const lines = io.out.join('').split('\n');
    expect(lines[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const tokenFile = join(io.home, 'runtime-token');
    expect(lines[1]).toContain(tokenFile);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const { readFileSync } = await import('node:fs');
    const token = readFileSync(tokenFile, 'utf8').trim();
    expect(io.out.join('')).not.toContain(token);
    const health = await fetch(`${lines[0]}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${lines[0]}/v1/threads`)).status).toBe(401);
    expect((await fetch(`${lines[0]}/v1/threads`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    stop('SIGTERM');
    expect(await running).toBe(EXIT.ok);
    await expect(fetch(`${lines[0]}/health`)).rejects.toThrow();
  });

  it('takes the token from --auth-token-file without printing it, and warns that --auth-token shows in ps', async () => {
    const io = memoryIo();
    const { writeFileSync, mkdirSync } = await import('node:fs');
    mkdirSync(io.cwd, { recursive: true });
    const file = join(io.cwd, 'token.txt');
    writeFileSync(file, 'file-token-0123456789abcdef\nsecond line ignored\n', { mode: 0o600 });
    let stop!: (s: string) => void;
    const running = runServe({ port: 0, authTokenFile: 'token.txt' }, io, new Promise<string>((r) => (stop = r)));
    for (let i = 0; i < 400 && io.out.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    const url = io.out.join('').split('\n')[0]!;
    expect(io.out.join('')).toContain('auth: token from --auth-token-file token.txt');
    expect(io.out.join('') + io.err.join('')).not.toContain('file-token-0123456789abcdef');
    expect(io.err.join('')).not.toContain('warning');
    expect((await fetch(`${url}/v1/threads`, { headers: { authorization: 'Bearer file-token-0123456789abcdef' } })).status).toBe(200);
    stop('SIGTERM');
    expect(await running).toBe(EXIT.ok);

    const short = memoryIo();
    writeFileSync(join(short.cwd, 'short.txt'), 'abc\n');
    expect(await main(['serve', '--port', '0', '--auth-token-file', 'short.txt'], short)).toBe(EXIT.usage);
    expect(short.err.join('')).toContain('at least 16 characters');
    const both = memoryIo();
    expect(await main(['serve', '--port', '0', '--auth-token-file', 'x', '--auth-token', 'y'], both)).toBe(EXIT.usage);

    const flagged = memoryIo();
    let stop2!: (s: string) => void;
    const running2 = runServe({ port: 0, authToken: 'flag-token-0123456789' }, flagged, new Promise<string>((r) => (stop2 = r)));
    for (let i = 0; i < 400 && flagged.out.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(flagged.err.join('')).toContain('warning: --auth-token is visible to other processes');
    stop2('SIGTERM');
    expect(await running2).toBe(EXIT.ok);
  });

  it('refuses a --cors value that is not an origin (exit 2)', async () => {
    const io = memoryIo();
    expect(await main(['serve', '--port', '0', '--cors', 'https://app.example.com/path'], io)).toBe(EXIT.usage);
    expect(io.err.join('')).toContain('--cors needs an origin');
  });

  it('refuses --insecure-no-auth on a non-loopback bind with a usage error (exit 2)', async () => {
    const io = memoryIo();
    expect(await main(['serve', '--host', '0.0.0.0', '--port', '0', '--insecure-no-auth'], io)).toBe(EXIT.usage);
    expect(io.err.join('')).toMatch(/^error: --insecure-no-auth is refused on a non-loopback bind/);
    expect(io.err.join('')).not.toMatch(/\n\s+at /);
  });

  it('a damaged database file exits 3 naming the file and what to do, changes nothing, and prints no stack', async () => {
    const { mkdirSync, writeFileSync, readFileSync } = await import('node:fs');
    const io = memoryIo({ CODEWHALE_RUNTIME_TOKEN: 'tok-1234567890abcdef' });
    const db = join(io.home, 'runtime', 'runtime.db');
    mkdirSync(join(io.home, 'runtime'), { recursive: true });
    writeFileSync(db, Buffer.alloc(8192, 0x5a));
    expect(await main(['serve', '--port', '0'], io)).toBe(EXIT.config);
    const err = io.err.join('');
    expect(err).toContain(`the runtime database ${db} is damaged`);
    expect(err).toContain('move the files aside');
    expect(err).not.toMatch(/\n\s+at /);
    expect(io.out.join('')).toBe('');
    expect(readFileSync(db)).toEqual(Buffer.alloc(8192, 0x5a));
  });

  it('a port in use is a startup failure (exit 1) with a hint', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    const io = memoryIo({ CODEWHALE_RUNTIME_TOKEN: 'tok-123456' });
    try {
      expect(await main(['serve', '--port', String(port)], io)).toBe(EXIT.failure);
      expect(io.err.join('')).toContain('already in use');
    } finally {
      blocker.close();
    }
  });
});
