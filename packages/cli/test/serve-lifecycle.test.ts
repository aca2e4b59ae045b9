/**
 * `codewhale serve` as a real process (the built binary) against the fake model server: a
 * signal mid-turn stops it gracefully with exit 0, and a second server on the same home is
 * refused without touching the first.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeTurn } from '@codewhale/engine/testing';
import { describe, expect, it } from 'vitest';
import { call, followEvents, H, poll, serveProcess, startServe, withModel } from './serve-support.js';

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
    const listing = () =>
      readdirSync(runtimeDir)
        .map((f) => `${f}:${statSync(join(runtimeDir, f)).size}:${statSync(join(runtimeDir, f)).mtimeMs}`)
        .sort();
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
