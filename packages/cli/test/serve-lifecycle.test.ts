/**
 * `codewhale serve` as a real process (the built binary) against the fake model server: a
 * signal mid-turn stops it gracefully with exit 0, and a second server on the same home is
 * refused without touching the first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeTurn } from '@codewhale/engine/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, sandbox, type Sandbox } from './run-cli.js';

const TOKEN = 'serve-lifecycle-token-0123456789';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Serve {
  readonly child: ChildProcess;
  readonly url: string;
  readonly out: () => string;
  readonly err: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function serveProcess(sb: Sandbox, env: Record<string, string> = {}): { child: ChildProcess; out: () => string; err: () => string; exited: Serve['exited'] } {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    cwd: sb.ws,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: sb.dir, CODEWHALE_HOME: sb.home, NO_COLOR: '1', CODEWHALE_RUNTIME_TOKEN: TOKEN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return { child, out: () => out, err: () => err, exited };
}

async function startServe(sb: Sandbox): Promise<Serve> {
  const p = serveProcess(sb);
  for (let i = 0; i < 600 && !p.out().includes('\n'); i++) {
    if (p.child.exitCode !== null) throw new Error(`serve exited ${p.child.exitCode}: ${p.err()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const url = p.out().split('\n')[0]!.trim();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  return { ...p, url };
}

async function withModel(turns: FakeTurn[]): Promise<{ sb: Sandbox; fake: FakeOpenAIServer }> {
  const fake = await startFakeOpenAIServer({ turns });
  cleanups.push(() => fake.close());
  const sb = sandbox();
  sb.config(`provider = "fake"\n\n[providers.fake]\nbase_url = "${fake.url}"\nmodel = "fake-model"\n`);
  return { sb, fake };
}

const call = async (url: string, path: string, body?: unknown) => {
  const res = await fetch(url + path, body === undefined ? { headers: H } : { method: 'POST', headers: H, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

async function poll<T>(get: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met in time: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every SSE frame's `event:` and data until the stream ends; rejects if the stream is cut. */
async function followEvents(res: Response): Promise<{ event: string | null; data: string }[]> {
  const frames: { event: string | null; data: string }[] = [];
  const text = await res.text(); // rejects ("terminated") when the connection is cut mid-stream
  for (const raw of text.split('\n\n')) {
    if (!raw.trim()) continue;
    const event = /^event: (.*)$/m.exec(raw)?.[1] ?? null;
    const data = /^data: (.*)$/m.exec(raw)?.[1] ?? '';
    frames.push({ event, data });
  }
  return frames;
}

const sleepCall: FakeTurn = { tool_calls: [{ name: 'bash', arguments: { command: 'sleep 30' } }] };

describe('codewhale serve: graceful stop on a signal', { timeout: 60_000 }, () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} mid-turn: exit 0, the turn and its tool call recorded as interrupted, the stream ended cleanly, server.json removed`, async () => {
      const { sb } = await withModel([sleepCall, { text: 'never reached' }, { text: 'after the restart' }]);
      const s = await startServe(sb);
      const infoFile = join(sb.home, 'runtime', 'server.json');
      expect(statSync(infoFile).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(infoFile, 'utf8'))).toMatchObject({ pid: s.child.pid, url: s.url });
      const { json: created } = await call(s.url, '/v1/threads', { posture: 'full_access' });
      const id = created.thread.id as string;
      const events = fetch(`${s.url}/v1/threads/${id}/events`, { headers: H }).then(followEvents);
      await call(s.url, `/v1/threads/${id}/turns`, { prompt: 'run the long command' });
      await poll(
        () => call(s.url, `/v1/threads/${id}/items`),
        (r) => r.json.items.some((i: { kind: string }) => i.kind === 'tool_call'),
      );
      const sent = Date.now();
      s.child.kill(signal);
      const exit = await s.exited;
      expect(exit).toEqual({ code: 0, signal: null });
      // The bound (a liveness margin: a stop takes well under a second here).
      expect(Date.now() - sent).toBeLessThan(10_000);
      expect(s.err()).toContain(`${signal}: stopping`);
      const frames = await events;
      const names = frames.map((f) => f.event);
      expect(names.at(-1)).toBe('server.stopping');
      const completed = frames.find((f) => f.event === 'turn.completed')!;
      expect(JSON.parse(completed.data).payload.turn.status).toBe('interrupted');
      expect(existsSync(infoFile)).toBe(false);

      // The stop recorded everything: a restart has nothing to recover.
      const again = await startServe(sb);
      expect(again.out()).not.toContain('recovered');
      const { json: thread } = await call(again.url, `/v1/threads/${id}`);
      expect(thread.turns.map((t: { status: string }) => t.status)).toEqual(['interrupted']);
      const { json: items } = await call(again.url, `/v1/threads/${id}/items`);
      const tool = items.items.find((i: { kind: string }) => i.kind === 'tool_call');
      expect(tool.status).not.toBe('in_progress');
      again.child.kill('SIGTERM');
      expect((await again.exited).code).toBe(0);
    });
  }
});

describe('codewhale serve: one server per home', { timeout: 60_000 }, () => {
  it('a second serve exits 1 naming the first (pid, URL) and changes nothing; after kill -9 of the first, a new one starts', async () => {
    const { sb } = await withModel([{ tool_calls: [{ name: 'bash', arguments: { command: 'echo approved-and-ran' } }] }, { text: 'done' }]);
    const first = await startServe(sb);
    const { json: created } = await call(first.url, '/v1/threads', { posture: 'ask' });
    const id = created.thread.id as string;
    await call(first.url, `/v1/threads/${id}/turns`, { prompt: 'run it' });
    const waiting = await poll(
      () => call(first.url, `/v1/threads/${id}`),
      (r) => r.json.thread.pending_approvals.length > 0,
    );
    const approval = waiting.json.thread.pending_approvals[0].id as string;
    const runtimeDir = join(sb.home, 'runtime');
    const listing = () => readdirSync(runtimeDir).map((f) => `${f}:${statSync(join(runtimeDir, f)).size}:${statSync(join(runtimeDir, f)).mtimeMs}`).sort();
    const before = listing();

    const second = serveProcess(sb);
    expect(await second.exited).toEqual({ code: 1, signal: null });
    expect(second.out()).toBe('');
    expect(second.err()).toContain(`pid ${first.child.pid}`);
    expect(second.err()).toContain(first.url);
    expect(second.err()).not.toMatch(/\n\s+at /);
    expect(listing()).toEqual(before);
    // The first server's approval is still pending and answerable: no recovery ran on its database.
    expect((await call(first.url, `/v1/approvals/${approval}`, { decision: 'allow' })).status).toBe(200);
    await poll(
      () => call(first.url, `/v1/threads/${id}`),
      (r) => r.json.turns[0].status === 'completed',
    );

    // kill -9 leaves no stale lock: the kernel released it with the process.
    first.child.kill('SIGKILL');
    await first.exited;
    const third = await startServe(sb);
    expect(JSON.parse(readFileSync(join(runtimeDir, 'server.json'), 'utf8')).pid).toBe(third.child.pid);
    third.child.kill('SIGTERM');
    expect((await third.exited).code).toBe(0);
  });
});
