import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../src/start-server.js';

const TOKEN = 'log-test-token-0123456789abcdef';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('request logs', () => {
  it('are one JSON line per request with method, path, status and duration, and never carry a token, a header, a query or a body', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-log-')));
    const lines: string[] = [];
    const server = await startServer({
      port: 0,
      workspace: root,
      databasePath: join(root, 'runtime.db'),
      env: { CODEWHALE_HOME: root, CODEWHALE_RUNTIME_TOKEN: TOKEN, OPENAI_API_KEY: 'sk-log-test-secret-value-123456' },
      log: { destination: { write: (s: string) => void lines.push(s) } },
      openThreadSession: async () => {
        throw new Error(`cannot open a session with OPENAI_API_KEY=sk-log-test-secret-value-123456 and ${TOKEN}`);
      },
    });
    cleanups.push(async () => {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    });
    const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/v1/threads?token=${TOKEN}&secret=sk-log-test-secret-value-123456`)).status).toBe(401);
    expect((await fetch(`${server.url}/v1/threads`, { headers: { cookie: `codewhale_runtime_token=${TOKEN}` } })).status).toBe(200);
    expect((await fetch(`${server.url}/v1/threads/thr_nope`, { headers: H })).status).toBe(404);
    // A session that cannot open: an internal error, whose message names secrets.
    expect((await fetch(`${server.url}/v1/threads`, { method: 'POST', headers: H, body: JSON.stringify({ model: 'sk-log-test-secret-value-123456' }) })).status).toBe(500);
    await server.close();

    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = records.filter((r) => r.msg === 'request');
    expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', '/health', 200],
      ['GET', '/v1/threads', 401],
      ['GET', '/v1/threads', 200],
      ['GET', '/v1/threads/thr_nope', 404],
      ['POST', '/v1/threads', 500],
    ]);
    for (const r of requests) {
      expect(typeof r.duration_ms).toBe('number');
      expect(typeof r.time).toBe('string');
    }
    expect(requests.map((r) => r.error_code)).toEqual([undefined, 'unauthorized', undefined, 'not_found', 'internal']);
    expect(records.map((r) => r.msg)).toEqual(expect.arrayContaining(['listening', 'internal error', 'stopping']));
    const all = lines.join('');
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain('sk-log-test-secret-value-123456');
    expect(all).not.toMatch(/authorization|cookie|Bearer/i);
  });
});
