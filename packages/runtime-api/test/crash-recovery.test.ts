import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readSse, type SseFrame } from './support.js';
import { spawnServer, type ServerProcess } from './server-process.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/replay-server.mjs', import.meta.url));
const H = { authorization: 'Bearer crash-test-token', 'content-type': 'application/json' };
const running: ServerProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const s of running.splice(0)) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(root: string, script: unknown[]): Promise<ServerProcess> {
  const s = await spawnServer(process.execPath, [FIXTURE], { RT_DB: join(root, 'runtime.db'), RT_WS: root, RT_HOME: join(root, 'home'), RT_SCRIPT: JSON.stringify(script) });
  running.push(s);
  return s;
}
const call = async (url: string, path: string, body?: unknown) => {
  const res = await fetch(url + path, body === undefined ? { headers: H } : { method: 'POST', headers: H, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

describe('kill -9 mid-turn, then restart', () => {
  it('keeps every event a client saw (same seq, same data), ends the turn interrupted, and the thread takes a new turn with its session id', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-crash-')));
    dirs.push(root);
    const script = [{ text: 'starting the long command', tool_calls: [{ name: 'bash', arguments: { command: 'sleep 2' } }] }, { text: 'finished' }, { text: 'after restart' }];
    const first = await start(root, script);
    const { json: created } = await call(first.url, '/v1/threads', { posture: 'full_access' });
    const thread = created.thread;
    const { json: t } = await call(first.url, `/v1/threads/${thread.id}/turns`, { prompt: 'run the long command' });
    // A second thread waits on an approval when the server dies.
    const { json: other } = await call(first.url, '/v1/threads', { posture: 'ask' });
    await call(first.url, `/v1/threads/${other.thread.id}/turns`, { prompt: 'needs approval' });
    let pendingId = '';
    for (let i = 0; i < 250 && !pendingId; i++) {
      const { json } = await call(first.url, `/v1/threads/${other.thread.id}`);
      pendingId = json.thread.pending_approvals[0]?.id ?? '';
      if (!pendingId) await new Promise((r) => setTimeout(r, 20));
    }
    expect(pendingId).toMatch(/^appr_/);
    const res = await fetch(`${first.url}/v1/threads/${thread.id}/events`, { headers: H });
    const seen = await readSse(res, (f) => f.some((x) => x.event === 'item.started' && x.data.includes('"tool_call"')));
    const seenEvents = seen.filter((f): f is SseFrame & { id: string } => f.id !== null);
    expect(seenEvents.map((f) => f.event)).toContain('turn.started');
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = await start(root, script);
    const { json: after } = await call(second.url, `/v1/threads/${thread.id}`);
    expect(after.thread.status).toBe('idle');
    expect(after.thread.session_id).toBe(thread.session_id);
    expect(after.turns.map((x: { status: string }) => x.status)).toEqual(['interrupted']);
    const replay = await readSse(await fetch(`${second.url}/v1/threads/${thread.id}/events?since_seq=0`, { headers: H }), (f) => f.some((x) => x.event === 'turn.completed'));
    const byId = new Map(replay.filter((f) => f.id).map((f) => [f.id, f]));
    for (const f of seenEvents) expect(byId.get(f.id)).toEqual(f);
    const completed = replay.find((f) => f.event === 'turn.completed')!;
    expect(JSON.parse(completed.data).payload).toMatchObject({ turn: { id: t.turn.id, status: 'interrupted' }, cause: 'server_restart' });
    expect(Number(completed.id)).toBeGreaterThan(Math.max(...seenEvents.map((f) => Number(f.id))));
    const { json: items } = await call(second.url, `/v1/threads/${thread.id}/items`);
    expect(items.items.find((i: { kind: string }) => i.kind === 'tool_call').status).toBe('interrupted');

    const { json: otherAfter } = await call(second.url, `/v1/threads/${other.thread.id}`);
    expect(otherAfter.thread.pending_approvals).toEqual([]);
    const late = await call(second.url, `/v1/approvals/${pendingId}`, { decision: 'allow' });
    expect(late.status).toBe(409);
    expect(late.json.error.message).toContain('expired');
    const { status, json: next } = await call(second.url, `/v1/threads/${thread.id}/turns`, { prompt: 'again' });
    expect(status).toBe(201);
    for (let i = 0; i < 200; i++) {
      const { json } = await call(second.url, `/v1/threads/${thread.id}`);
      if (json.turns.at(-1).status !== 'in_progress') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const { json: resumed } = await call(second.url, `/v1/threads/${thread.id}`);
    expect(resumed.turns.find((x: { id: string }) => x.id === next.turn.id).status).toBe('completed');
    expect(resumed.thread.session_id).toBe(thread.session_id);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  }, 60_000);
});
