/** `codewhale serve` as a real process (the built binary) for the serve tests, with the fake model server. */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeTurn } from '@codewhale/engine/testing';
import { afterEach, expect } from 'vitest';
import { BIN, sandbox, type Sandbox } from './run-cli.js';

export const TOKEN = 'serve-lifecycle-token-0123456789';
export const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
export const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

export interface Serve {
  readonly child: ChildProcess;
  readonly url: string;
  readonly out: () => string;
  readonly err: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function serveProcess(sb: Sandbox, env: Record<string, string> = {}, args: readonly string[] = []): { child: ChildProcess; out: () => string; err: () => string; exited: Serve['exited'] } {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
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

export async function startServe(sb: Sandbox, env: Record<string, string> = {}, args: readonly string[] = []): Promise<Serve> {
  const p = serveProcess(sb, env, args);
  for (let i = 0; i < 600 && !p.out().includes('\n'); i++) {
    if (p.child.exitCode !== null) throw new Error(`serve exited ${p.child.exitCode}: ${p.err()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const url = p.out().split('\n')[0]!.trim();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  return { ...p, url };
}

export async function withModel(turns: FakeTurn[] | ((request: { body: unknown }, index: number) => FakeTurn)): Promise<{ sb: Sandbox; fake: FakeOpenAIServer }> {
  const fake = await startFakeOpenAIServer({ turns });
  cleanups.push(() => fake.close());
  const sb = sandbox();
  cleanups.push(() => rmSync(dirname(sb.home), { recursive: true, force: true }));
  sb.config(`provider = "fake"\n\n[providers.fake]\nbase_url = "${fake.url}"\nmodel = "fake-model"\n`);
  return { sb, fake };
}

export const call = async (url: string, path: string, body?: unknown) => {
  const res = await fetch(url + path, body === undefined ? { headers: H } : { method: 'POST', headers: H, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

export async function poll<T>(get: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met in time: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every SSE frame's `event:` and data until the stream ends; rejects if the stream is cut. */
export async function followEvents(res: Response): Promise<{ event: string | null; data: string }[]> {
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
