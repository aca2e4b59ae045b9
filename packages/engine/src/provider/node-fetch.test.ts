import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BATCH_MS, DRAIN_AFTER_CANCEL_MS, nodeFetch } from './node-fetch.js';

let server: Server | null = null;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

/** A real server; counts connections and requests per connection. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse, nthOnSocket: number) => void): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const perSocket = new WeakMap<Socket, number>();
  server = createServer((req, res) => {
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      (req as IncomingMessage & { body?: string }).body = body;
      handler(req, res, n);
    });
  });
  server.on('connection', (s) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, connections: () => connections };
}

async function readAll(res: Response): Promise<string> {
  return res.text();
}

describe('nodeFetch', () => {
  it('posts the body with its length and returns status, headers and the streamed reply', async () => {
    const s = await serve((req, res) => {
      res.setHeader('x-twice', ['a', 'b']);
      res.writeHead(201, 'Made', { 'content-type': 'text/event-stream', 'x-echo': String(req.headers['content-length']) });
      res.write(`data: ${(req as IncomingMessage & { body?: string }).body}\n\n`);
      setTimeout(() => res.end('data: [DONE]\n\n'), 5);
    });
    const res = await nodeFetch(`${s.url}/v1/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":"é"}' });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Made');
    expect(res.ok).toBe(true);
    expect(res.headers.get('Content-Type')).toBe('text/event-stream');
    expect(res.headers.get('x-twice')).toBe('a, b');
    expect(res.headers.get('x-absent')).toBeNull();
    expect(res.headers.get('x-echo')).toBe(String(Buffer.byteLength('{"a":"é"}')));
    expect(await readAll(res)).toBe('data: {"a":"é"}\n\ndata: [DONE]\n\n');
  });

  it('keeps one connection for sequential requests, also when the body is cancelled before its end', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: x\n\n');
      // the end of the chunked body comes a moment after the part the caller wants
      setTimeout(() => res.end(), 10);
    });
    for (let i = 0; i < 5; i++) {
      const res = await nodeFetch(s.url, { method: 'POST', body: '{}' });
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toBe('data: x\n\n');
      await reader.cancel();
      await new Promise((r) => setTimeout(r, 30));
    }
    expect(s.connections()).toBe(1);
  });

  it('cuts a reply that never ends after the drain bound when the body was cancelled', async () => {
    let closedAt = 0;
    const s = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: x\n\n');
      const tick = setInterval(() => res.write(': keep-alive\n\n'), 50);
      req.socket.on('close', () => {
        clearInterval(tick);
        closedAt = performance.now();
      });
    });
    const res = await nodeFetch(s.url, { method: 'POST', body: '{}' });
    const reader = res.body!.getReader();
    await reader.read();
    const cancelledAt = performance.now();
    await reader.cancel();
    for (let i = 0; i < 100 && closedAt === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(closedAt).toBeGreaterThan(0);
    expect(closedAt - cancelledAt).toBeGreaterThanOrEqual(DRAIN_AFTER_CANCEL_MS - 50);
    expect(closedAt - cancelledAt).toBeLessThan(DRAIN_AFTER_CANCEL_MS + 1_500);
  }, 10_000);

  it('sends a request again on a new connection when a reused idle one turns out closed, once', async () => {
    const s = await serve((req, res, nth) => {
      if (nth === 2) {
        req.socket.destroy(); // the server dropped the idle connection as the request arrived
        return;
      }
      res.end('ok');
    });
    expect(await readAll(await nodeFetch(s.url, { method: 'POST', body: '1' }))).toBe('ok');
    expect(await readAll(await nodeFetch(s.url, { method: 'POST', body: '2' }))).toBe('ok');
    expect(s.connections()).toBe(2);
  });

  it('does not resend on a new connection that fails: it rejects like fetch, with the socket error as cause', async () => {
    const s = await serve((req) => req.socket.destroy());
    const e = await nodeFetch(s.url, { method: 'POST', body: '1' }).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(TypeError);
    expect((e as Error).message).toBe('fetch failed');
    expect(((e as Error).cause as NodeJS.ErrnoException).code).toBe('ECONNRESET');
    expect(s.connections()).toBe(1);
  });

  it('a refused connection rejects with TypeError fetch failed and the ECONNREFUSED cause', async () => {
    const s = await serve(() => undefined);
    const url = s.url;
    await new Promise<void>((r) => server!.close(() => r()));
    server = null;
    const e = (await nodeFetch(url).catch((x: unknown) => x)) as Error;
    expect(e).toBeInstanceOf(TypeError);
    expect((e.cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('an abort before the reply rejects, and an abort mid-body errors the stream, both as AbortError', async () => {
    let requests = 0;
    const s = await serve((req, res) => {
      requests++;
      if (req.url === '/slow') return; // never answers
      res.writeHead(200);
      res.write('part');
    });
    const early = new AbortController();
    const pending = nodeFetch(`${s.url}/slow`, { signal: early.signal });
    setTimeout(() => early.abort(), 20);
    expect(((await pending.catch((x: unknown) => x)) as Error).name).toBe('AbortError');

    const late = new AbortController();
    const res = await nodeFetch(`${s.url}/body`, { signal: late.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('part');
    late.abort();
    expect(((await reader.read().catch((x: unknown) => x)) as Error).name).toBe('AbortError');

    const already = new AbortController();
    already.abort();
    expect(((await nodeFetch(s.url, { signal: already.signal }).catch((x: unknown) => x)) as Error).name).toBe('AbortError');

    // aborted right after the call, in the same tick: nothing reaches the server
    const before = requests;
    const sameTick = new AbortController();
    const p = nodeFetch(`${s.url}/body`, { signal: sameTick.signal });
    sameTick.abort();
    expect(((await p.catch((x: unknown) => x)) as Error).name).toBe('AbortError');
    await new Promise((r) => setTimeout(r, 50));
    expect(requests).toBe(before);
  });

  it('a connection that closes mid-body errors the stream with fetch failed', async () => {
    const s = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      setTimeout(() => req.socket.destroy(), 10);
    });
    const res = await nodeFetch(s.url);
    const e = (await res.text().catch((x: unknown) => x)) as Error;
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toBe('fetch failed');
  });

  it('is not ok outside 2xx', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(429, { 'retry-after': '3' });
      res.end('{"error":{"message":"slow down"}}');
    });
    const res = await nodeFetch(s.url, { method: 'POST', body: '{}' });
    expect(res.ok).toBe(false);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await res.text()).toContain('slow down');
  });

  it('has no body for 204 and does not follow redirects', async () => {
    const s = await serve((req, res) => {
      if (req.url === '/none') {
        res.writeHead(204);
        res.end();
      } else {
        res.writeHead(307, { location: '/none' });
        res.end('moved');
      }
    });
    const none = await nodeFetch(`${s.url}/none`);
    expect(none.status).toBe(204);
    expect(none.body).toBeNull();
    const moved = await nodeFetch(`${s.url}/x`);
    expect(moved.status).toBe(307);
    expect(moved.headers.get('location')).toBe('/none');
    expect(await moved.text()).toBe('moved');
  });

  it('speaks TLS for https: and verifies the certificate (a self-signed one is refused)', async () => {
    let handshakes = 0;
    const tls = createTlsServer({ cert: TEST_CERT, key: TEST_KEY }, (_req, res) => res.end('secret'));
    tls.on('secureConnection', () => handshakes++);
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (tls.address() as AddressInfo).port;
      const e = (await nodeFetch(`https://127.0.0.1:${port}/`).catch((x: unknown) => x)) as Error;
      expect(e).toBeInstanceOf(TypeError);
      expect((e.cause as NodeJS.ErrnoException).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(handshakes).toBe(0);
    } finally {
      tls.closeAllConnections();
      await new Promise<void>((r) => tls.close(() => r()));
    }
  });

  it('hands a non-http URL to the global fetch', async () => {
    const res = await nodeFetch('data:text/plain,hello');
    expect(await res.text()).toBe('hello');
  });
});

/** A self-signed certificate for 127.0.0.1 (test only; valid until 2126). */
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBmjCCAUGgAwIBAgIUbUrwfLUkEdSLiiI4cPfj9hP209EwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTIwMTEyMTMwM1oYDzIxMjYxMTA3
MTIxMzAzWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQaGzVGi+1OWk6UiXKL5dgKkBPRSYkXt56f6rGg2CjRCo97ooDBYRr5
drv/AssE1/zZHYxT9A6L5816KvMeKoKmo28wbTAdBgNVHQ4EFgQUsXtEBBZvtOtj
CYaY41oIjpPp9gkwHwYDVR0jBBgwFoAUsXtEBBZvtOtjCYaY41oIjpPp9gkwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZI
zj0EAwIDRwAwRAIgb0bR0Z1KLm4K/EpOkvY2xAlUfORreCEyI0dEv8bljj8CICGY
jO4ILXLHlcgSlkO27iveQwvo58xF907pyQrUI1vh
-----END CERTIFICATE-----`;
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgAgtSFQnmaU91o2jO
CNLKU9oLNW2egMwBTe85PsECxSOhRANCAAQaGzVGi+1OWk6UiXKL5dgKkBPRSYkX
t56f6rGg2CjRCo97ooDBYRr5drv/AssE1/zZHYxT9A6L5816KvMeKoKm
-----END PRIVATE KEY-----`;

describe('batching what arrives', () => {
  /** A reply of `n` small chunks, `gapMs` apart (0: as fast as the server can write them). */
  async function chunked(n: number, gapMs: number): Promise<{ reads: number; text: string; sent: string }> {
    const parts = Array.from({ length: n }, (_, i) => `data: {"n":${i}}\n\n`);
    const { url } = await serve(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const p of parts) {
        res.write(p);
        await new Promise((r) => (gapMs ? setTimeout(r, gapMs) : setImmediate(r)));
      }
      res.end();
    });
    const reader = (await nodeFetch(url)).body!.getReader();
    const decoder = new TextDecoder();
    let reads = 0;
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      reads++;
      text += decoder.decode(value, { stream: true });
    }
    return { reads, text, sent: parts.join('') };
  }

  it('a fast reply is handed on in a few reads, every byte in order', async () => {
    const started = performance.now();
    const r = await chunked(400, 0);
    expect(r.text).toBe(r.sent);
    // At most one hand-over per BATCH_MS, plus the first and the last.
    expect(r.reads).toBeLessThanOrEqual(Math.ceil((performance.now() - started) / BATCH_MS) + 2);
    expect(r.reads).toBeLessThan(400);
  });

  it('a slow reply is handed on chunk by chunk, none held back for the next', async () => {
    const r = await chunked(5, 150);
    expect(r.text).toBe(r.sent);
    expect(r.reads).toBe(5);
  });
});
