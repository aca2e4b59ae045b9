/**
 * The browser and process boundaries on a real port: Host/Origin checks (DNS rebinding), CORS
 * only for the allowlist, the cookie's CSRF rules, and processes the server started refused on
 * every token-bearing route even with the right token.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forceFullPeerSearch, parentPidOf, procNetAddress, socketEntry } from '../src/auth/peer-process.js';
import { browserPolicy, checkBrowser, normalizeOrigin } from '../src/http/browser-guard.js';
import { startServer, type RunningServer } from '../src/start-server.js';

const TOKEN = 'security-token-0123456789abcdef';
const dirs: string[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function server(options: { insecureNoAuth?: boolean; corsOrigins?: string[] } = {}): Promise<RunningServer> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-sec-')));
  dirs.push(root);
  const s = await startServer({
    port: 0,
    workspace: root,
    env: { CODEWHALE_HOME: join(root, 'home'), ...(options.insecureNoAuth ? {} : { CODEWHALE_RUNTIME_TOKEN: TOKEN }) },
    insecureNoAuth: options.insecureNoAuth ?? false,
    corsOrigins: options.corsOrigins ?? [],
    openThreadSession: async () => {
      throw new Error('no session in these tests');
    },
  });
  servers.push(s);
  return s;
}

/** A raw HTTP request (fetch will not send a foreign Host). */
function raw(
  s: RunningServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: s.port, method, path, headers: { host: `127.0.0.1:${s.port}`, ...headers } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('DNS rebinding and foreign pages', () => {
  it('refuses a foreign Host on every route, even with --insecure-no-auth, and creates nothing', async () => {
    const s = await server({ insecureNoAuth: true });
    const rebound = { host: `attacker.example:${s.port}`, 'content-type': 'application/json' };
    const created = await raw(s, 'POST', '/v1/threads', rebound, JSON.stringify({ posture: 'full_access' }));
    expect(created.status).toBe(403);
    expect(JSON.parse(created.body).error.code).toBe('forbidden');
    expect((await raw(s, 'GET', '/health', rebound)).status).toBe(403);
    expect((await raw(s, 'GET', '/v1/threads', { host: `127.0.0.1:${s.port + 1}` })).status).toBe(403);
    expect(s.store.listThreads()).toEqual([]);
    // The names the server does answer to.
    for (const host of [`127.0.0.1:${s.port}`, `localhost:${s.port}`, `LOCALHOST:${s.port}`]) expect((await raw(s, 'GET', '/health', { host })).status).toBe(200);
  });

  it('refuses a foreign Origin (text/plain and form posts included) and a cross-site fetch; sends no CORS headers without --cors', async () => {
    const s = await server({ insecureNoAuth: true });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json']) {
      const r = await raw(s, 'POST', '/v1/threads', { origin: 'http://attacker.example', 'content-type': type }, '{"posture":"full_access"}');
      expect(r.status).toBe(403);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect((await raw(s, 'GET', '/v1/threads', { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await raw(s, 'GET', '/v1/threads', { origin: 'null' })).status).toBe(403);
    const preflight = await raw(s, 'OPTIONS', '/v1/threads', { origin: 'http://attacker.example', 'access-control-request-method': 'POST' });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(s.store.listThreads()).toEqual([]);
  });

  it('serves CORS to a --cors origin only, and a cookie write needs its Origin and JSON (CSRF)', async () => {
    const app = 'https://app.example.com';
    const s = await server({ corsOrigins: [app] });
    const preflight = await raw(s, 'OPTIONS', '/v1/threads', { origin: app, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(app);
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    const cookie = { cookie: `codewhale_runtime_token=${TOKEN}` };
    // The allowed page, as a form or text/plain (no preflight), is still refused with the cookie.
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      expect((await raw(s, 'POST', '/v1/threads', { ...cookie, origin: app, 'content-type': type }, '{}')).status).toBe(403);
    }
    // A cookie write without an Origin is not a browser page we can vouch for.
    expect((await raw(s, 'POST', '/v1/threads', { ...cookie, 'content-type': 'application/json' }, '{}')).status).toBe(403);
    expect((await raw(s, 'POST', '/v1/threads', { ...cookie, origin: 'https://evil.example', 'content-type': 'application/json' }, '{}')).status).toBe(403);
    expect(s.store.listThreads()).toEqual([]);
    // The allowed page reads with its cookie, with CORS headers.
    const list = await raw(s, 'GET', '/v1/threads', { ...cookie, origin: app });
    expect(list.status).toBe(200);
    expect(list.headers['access-control-allow-origin']).toBe(app);
    // A program sends the header and needs neither.
    expect((await raw(s, 'GET', '/v1/threads', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });
});

/** Run `script` with node as a child of this process (the server's process): a descendant. */
function asDescendant(script: string, viaShell = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = ['--input-type=module', '-e', script];
    const child = viaShell ? spawn('sh', ['-c', `"${process.execPath}" "$@"`, 'sh', ...args]) : spawn(process.execPath, args);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

describe.each([
  ['the descendants only', false],
  ['every process (a kernel without `children` files)', true],
])('processes the server started, searching %s', (_, everyone) => {
  beforeEach(() => forceFullPeerSearch(everyone));
  afterEach(() => forceFullPeerSearch(false));

  it.runIf(process.platform === 'linux')(
    'are refused on token-bearing routes with the right token; the same request from outside the tree passes',
    async () => {
      const s = await server();
      const probe = `const r = await fetch(${JSON.stringify(`${s.url}/v1/threads`)}, { headers: { authorization: 'Bearer ${TOKEN}' } });
const h = await fetch(${JSON.stringify(`${s.url}/health`)});
console.log(JSON.stringify({ threads: r.status, code: (await r.json()).error?.code ?? null, health: h.status }));`;
      // The server runs in this test's process: its children and grandchildren are its descendants.
      for (const viaShell of [false, true]) {
        expect(JSON.parse(await asDescendant(probe, viaShell))).toEqual({ threads: 403, code: 'forbidden', health: 200 });
      }
      expect((await fetch(`${s.url}/v1/threads`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    },
    30_000,
  );

  it.runIf(process.platform === 'linux' && process.getuid?.() === 0)(
    "refuses another user's process, with the right token",
    async () => {
      const s = await server();
      const probe = `const r = await fetch(${JSON.stringify(`${s.url}/v1/threads`)}, { headers: { authorization: 'Bearer ${TOKEN}' } });
console.log(JSON.stringify({ status: r.status, message: (await r.json()).error?.message ?? '' }));`;
      const out = await new Promise<string>((resolve, reject) => {
        // Node as another user (nobody). It is a child of this process too: the owner's uid answers first.
        const child = spawn(process.execPath, ['--input-type=module', '-e', probe], { uid: 65_534, gid: 65_534, cwd: '/' });
        let text = '';
        child.stdout.on('data', (d: Buffer) => (text += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(text.trim()) : reject(new Error(`exited ${code}`))));
      });
      const r = JSON.parse(out) as { status: number; message: string };
      expect(r.status).toBe(403);
      expect(r.message).toContain('another user owns the client socket');
    },
    30_000,
  );

  it.runIf(process.platform === 'linux')(
    "lets the server's own process in while a child it started also holds the client socket (as a child does between its start and its exec)",
    async () => {
      const s = await server();
      const socket = connect(s.port, '127.0.0.1');
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      // The child gets a copy of the socket, as every child has of every descriptor until its exec.
      const child = spawn('sleep', ['30'], { stdio: ['ignore', 'ignore', 'ignore', socket] });
      await new Promise<void>((resolve) => child.once('spawn', resolve));
      try {
        const response = new Promise<string>((resolve) => {
          let text = '';
          socket.on('data', (d: Buffer) => {
            text += d.toString();
            if (text.includes('\r\n')) resolve(text);
          });
        });
        socket.resume();
        socket.write(`GET /v1/threads HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`);
        expect((await response).split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      } finally {
        child.kill('SIGKILL');
        socket.destroy();
      }
    },
    30_000,
  );
});

describe('properties', () => {
  it('procNetAddress and socketEntry find exactly the line of a connection', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    const port = fc.integer({ min: 1, max: 65_535 });
    fc.assert(
      fc.property(fc.tuple(octet, octet, octet, octet), port, port, fc.integer({ min: 1, max: 2 ** 31 }), (ip, p1, p2, inode) => {
        const a = procNetAddress(ip.join('.'), p1);
        const b = procNetAddress('127.0.0.1', p2);
        expect(a.table).toBe('tcp');
        expect(a.text).toMatch(/^[0-9A-F]{8}:[0-9A-F]{4}$/);
        expect(parseInt(a.text.slice(9), 16)).toBe(p1);
        const table = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: ${b.text} ${a.text} 01 00000000:00000000 00:00000000 00000000  1000        0 999 1 0\n   1: ${a.text} ${b.text} 01 00000000:00000000 00:00000000 00000000  1000        0 ${inode} 1 0\n`;
        expect(socketEntry(table, a.text, b.text)).toEqual({ inode: a.text === b.text ? 999 : inode, uid: 1000 });
        expect(socketEntry(table, a.text, procNetAddress('127.0.0.2', p2).text)).toBeNull();
      }),
    );
    // The machine's own byte order: 127.0.0.1 as the kernel prints it here.
    expect(procNetAddress('127.0.0.1', 80).text).toBe('0100007F:0050');
    expect(procNetAddress('::1', 80)).toEqual({ table: 'tcp6', text: '00000000000000000000000001000000:0050' });
    expect(procNetAddress('::ffff:127.0.0.1', 1).text).toBe('0000000000000000FFFF00000100007F:0001');
  });

  it('parentPidOf reads the field after the command name, whatever the name holds', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 16 }), fc.integer({ min: 0, max: 4_194_304 }), (name, ppid) => {
        expect(parentPidOf(`1234 (${name}) S ${ppid} 1234 1234 0 -1`)).toBe(ppid);
      }),
    );
  });

  it('checkBrowser: a Host outside the policy or an Origin outside the allowlist is refused; an allowlisted origin gets CORS', () => {
    const policy = browserPolicy('127.0.0.1', 7878, { corsOrigins: ['https://app.example.com'] });
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}\.(?:example|test)$/);
    fc.assert(
      fc.property(name, fc.integer({ min: 1, max: 65_535 }), (host, port) => {
        expect(checkBrowser(policy, new Headers({ host: `${host}:${port}` })).ok).toBe(false);
        expect(checkBrowser(policy, new Headers({ host: '127.0.0.1:7878', origin: `http://${host}` })).ok).toBe(false);
        expect(checkBrowser(policy, new Headers({ host: '127.0.0.1:7878', origin: `https://${host}:${port}` })).ok).toBe(false);
      }),
    );
    expect(checkBrowser(policy, new Headers({ host: '127.0.0.1:7878' }))).toEqual({ ok: true, cors: null });
    expect(checkBrowser(policy, new Headers({ host: '127.0.0.1:7878', origin: 'https://APP.example.com' }))).toEqual({ ok: true, cors: 'https://app.example.com' });
    expect(checkBrowser(policy, new Headers({ host: '127.0.0.1:7878', origin: 'http://127.0.0.1:7878' }))).toEqual({ ok: true, cors: null });
    expect(normalizeOrigin('https://app.example.com/path')).toBeNull();
    expect(normalizeOrigin('https://app.example.com:443')).toBe('https://app.example.com');
  });
});
