import fc from 'fast-check';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { openStreams } from '../src/events/sse-stream.js';
import { CreateTurnBody } from '../src/http/schemas.js';
import { auth, readSse, rig, TOKEN, until, type Rig } from './support.js';

const rigs: Rig[] = [];
const make = (o: Parameters<typeof rig>[0] = {}): Rig => {
  const r = rig(o);
  rigs.push(r);
  return r;
};
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close();
});

const post = (r: Rig, path: string, body: unknown, headers: Record<string, string> = auth) =>
  r.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const get = (r: Rig, path: string, headers: Record<string, string> = auth) => r.app.request(path, { headers });

async function newThread(r: Rig, body: Record<string, unknown> = {}): Promise<{ id: string; session_id: string }> {
  const res = await post(r, '/v1/threads', body);
  expect(res.status).toBe(201);
  return ((await res.json()) as { thread: { id: string; session_id: string } }).thread;
}

async function turnDone(r: Rig, turnId: string): Promise<Record<string, unknown>> {
  await until(() => r.store.getTurn(turnId)?.status !== 'in_progress');
  return r.store.getTurn(turnId) as unknown as Record<string, unknown>;
}

describe('auth', () => {
  it('serves /health and /v1/runtime/info without a token, everything else needs one', async () => {
    const r = make();
    expect((await r.app.request('/health')).status).toBe(200);
    const info = await r.app.request('/v1/runtime/info');
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ auth: 'token', max_concurrent_turns: 8, approval_timeout_secs: 300, hook_events: ['tool_call_before', 'shell_env', 'tool_call_after', 'on_error'] });
    const none = await r.app.request('/v1/threads');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.json()).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await get(r, '/v1/threads', { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await r.app.request(`/v1/threads?token=${TOKEN}`)).status).toBe(401);
    expect((await r.app.request(`/v1/threads?auth_token=${TOKEN}`)).status).toBe(401);
    expect((await get(r, '/v1/threads')).status).toBe(200);
    expect((await get(r, '/v1/threads', { 'x-codewhale-runtime-token': TOKEN })).status).toBe(200);
    expect((await get(r, '/v1/threads', { cookie: `codewhale_runtime_token=${TOKEN}` })).status).toBe(200);
  });

  it('with no token configured (--insecure-no-auth) every route is open', async () => {
    const r = make({ deps: { token: null } });
    expect((await r.app.request('/v1/threads')).status).toBe(200);
  });
});

describe('bad input', () => {
  it('answers malformed JSON, unknown keys and wrong types with 400 and zod issues, never a stack', async () => {
    const r = make();
    const bad = await post(r, '/v1/threads', '{"workspace": ');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_json' } });
    const unknown = await post(r, '/v1/threads', { workspcae: '/tmp' });
    expect(unknown.status).toBe(400);
    const body = (await unknown.json()) as { error: { issues: { path: string; code: string }[] } };
    expect(body.error.issues[0]).toMatchObject({ code: 'unrecognized_keys' });
    const wrongType = await post(r, '/v1/threads', { mode: 'yolo-mode' });
    expect(wrongType.status).toBe(400);
    expect(JSON.stringify(await wrongType.json())).toContain('mode');
    const noDir = await post(r, '/v1/threads', { workspace: '/definitely/not/here' });
    expect(noDir.status).toBe(400);
    expect(await noDir.json()).toMatchObject({ error: { issues: [{ path: 'workspace', code: 'not_a_directory' }] } });
  });

  it('404 for an unknown thread or route, 405 with Allow for a wrong method, 413 over the body cap', async () => {
    const r = make({ deps: { maxBodyBytes: 1024 } });
    expect((await get(r, '/v1/threads/thr_nope')).status).toBe(404);
    expect((await get(r, '/v1/nothing')).status).toBe(404);
    const wrong = await r.app.request('/v1/threads', { method: 'DELETE', headers: auth });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('POST');
    expect(await wrong.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
    const big = await post(r, '/v1/threads', { model: 'x'.repeat(5_000) });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  describe('properties', () => {
    it('any JSON body to any write route gets a JSON answer below 500 and leaves other threads alone', async () => {
      const r = make();
      const other = await newThread(r);
      const before = r.store.eventsSince(other.id, 0).length;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('/v1/threads', `/v1/threads/${other.id}/turns/turn_x/steer`, '/v1/approvals/appr_x', '/v1/threads/thr_x/turns'), fc.jsonValue(), async (path, body) => {
          const res = await post(r, path, JSON.stringify(body));
          expect(res.status).toBeLessThan(500);
          const text = await res.text();
          expect(() => JSON.parse(text)).not.toThrow();
          expect(text).not.toMatch(/\bat .*\.ts:\d+/);
        }),
        { numRuns: 80 },
      );
      expect(r.store.eventsSince(other.id, 0).length).toBe(before);
    });
  });
});

describe('threads and turns', () => {
  it('creates a thread with its session id in the default workspace, runs a turn, and stores its items', async () => {
    const r = make();
    const thread = await newThread(r, { mode: 'act', posture: 'suggest' });
    expect(thread).toMatchObject({ workspace: r.workspace, mode: 'work', posture: 'ask', status: 'idle' });
    expect(thread.session_id).toMatch(/^sess_/);
    const res = await post(r, `/v1/threads/${thread.id}/turns`, { prompt: 'say hi' });
    expect(res.status).toBe(201);
    const { turn, thread: t2 } = (await res.json()) as { turn: { id: string; status: string }; thread: { status: string } };
    expect(turn.status).toBe('in_progress');
    expect(t2.status).toBe('active');
    expect(await turnDone(r, turn.id)).toMatchObject({ status: 'completed' });
    const items = ((await (await get(r, `/v1/threads/${thread.id}/items`)).json()) as { items: { kind: string; detail: string }[] }).items;
    expect(items.map((i) => [i.kind, i.detail])).toEqual([
      ['user_message', 'say hi'],
      ['agent_message', 'hello there'],
    ]);
    const detail = (await (await get(r, `/v1/threads/${thread.id}`)).json()) as { thread: { status: string }; turns: { status: string }[] };
    expect(detail.thread.status).toBe('idle');
    expect(detail.turns.map((x) => x.status)).toEqual(['completed']);
    const list = (await (await get(r, '/v1/threads')).json()) as { threads: { id: string }[] };
    expect(list.threads.map((x) => x.id)).toEqual([thread.id]);
  });

  it('409 while a turn runs; interrupt ends it as interrupted; the thread then takes a new turn', async () => {
    const r = make({ script: () => [{ delay_ms: 10_000, text: 'late' }, { text: 'second' }] });
    const thread = await newThread(r);
    const { turn } = (await (await post(r, `/v1/threads/${thread.id}/turns`, { prompt: 'slow' })).json()) as { turn: { id: string } };
    const again = await post(r, `/v1/threads/${thread.id}/turns`, { prompt: 'again' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'conflict' } });
    await until(() => r.runner.activeCount === 1);
    const stop = await post(r, `/v1/threads/${thread.id}/turns/${turn.id}/interrupt`, {});
    expect(stop.status).toBe(202);
    expect(await turnDone(r, turn.id)).toMatchObject({ status: 'interrupted' });
    expect((await post(r, `/v1/threads/${thread.id}/turns/${turn.id}/interrupt`, {})).status).toBe(409);
    expect((await post(r, `/v1/threads/${thread.id}/turns/turn_unknown/interrupt`, {})).status).toBe(404);
    const next = await post(r, `/v1/threads/${thread.id}/turns`, { prompt: 'next' });
    expect(next.status).toBe(201);
  });

  it('steers a running turn (202) and refuses to steer a finished one (409)', async () => {
    const r = make({ script: () => [{ delay_ms: 300, tool_calls: [{ name: 'read', arguments: { path: 'nothing.txt' } }] }, { text: 'done' }] });
    const thread = await newThread(r);
    const { turn } = (await (await post(r, `/v1/threads/${thread.id}/turns`, { prompt: 'read' })).json()) as { turn: { id: string } };
    await until(() => r.runner.activeCount === 1);
    await new Promise((res) => setTimeout(res, 50));
    const steer = await post(r, `/v1/threads/${thread.id}/turns/${turn.id}/steer`, { prompt: 'also check the tests' });
    expect(steer.status).toBe(202);
    expect(await steer.json()).toEqual({ steered: true });
    await turnDone(r, turn.id);
    expect((await post(r, `/v1/threads/${thread.id}/turns/${turn.id}/steer`, { prompt: 'late' })).status).toBe(409);
    expect((await post(r, `/v1/threads/${thread.id}/turns/${turn.id}/steer`, { text: 'wrong key' })).status).toBe(400);
  });

  it('caps concurrent turns: the next thread gets 429 with Retry-After', async () => {
    const r = make({ deps: { maxConcurrentTurns: 2 }, script: () => [{ delay_ms: 10_000, text: 'x' }] });
    const threads = [await newThread(r), await newThread(r), await newThread(r)];
    expect((await post(r, `/v1/threads/${threads[0]!.id}/turns`, { prompt: 'a' })).status).toBe(201);
    expect((await post(r, `/v1/threads/${threads[1]!.id}/turns`, { prompt: 'b' })).status).toBe(201);
    const third = await post(r, `/v1/threads/${threads[2]!.id}/turns`, { prompt: 'c' });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('5');
    expect(r.store.listTurns(threads[2]!.id)).toEqual([]);
  });

  it('runs 8 turns at once by default; the ninth thread gets 429 and nothing is stored for it', async () => {
    const r = make({ script: () => [{ delay_ms: 10_000, text: 'x' }] });
    const threads = [];
    for (let i = 0; i < 9; i++) threads.push(await newThread(r));
    const statuses = [];
    for (const t of threads) statuses.push((await post(r, `/v1/threads/${t.id}/turns`, { prompt: 'go' })).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 201, 201, 429]);
    expect(r.store.listTurns(threads[8]!.id)).toEqual([]);
    expect(r.store.eventsSince(threads[8]!.id, 0).map((e) => e.event)).toEqual(['thread.started']);
  });

  it('a failing model route ends the turn failed with an error item carrying the category', async () => {
    const r = make({ script: () => [{ error: { category: 'authentication', message: 'bad key sk-abcdefgh1234' } }] });
    const thread = await newThread(r);
    const { turn } = (await (await post(r, `/v1/threads/${thread.id}/turns`, { prompt: 'x' })).json()) as { turn: { id: string } };
    expect(await turnDone(r, turn.id)).toMatchObject({ status: 'failed', errorCategory: 'authentication' });
    const items = r.store.listItems(thread.id);
    const errors = items.filter((i) => i.kind === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(items)).not.toContain('sk-abcdefgh1234');
  });
});

describe('approvals', () => {
  const bashScript = () => [{ tool_calls: [{ name: 'bash', arguments: { command: 'echo approved-run' } }] }, { text: 'done' }];

  it('a posture approval is durable and pending on the thread; a client allows it once; a second answer is 409; unknown is 404', async () => {
    const r = make({ script: bashScript });
    const thread = await newThread(r);
    const { turn } = (await (await post(r, `/v1/threads/${thread.id}/turns`, { prompt: 'run it' })).json()) as { turn: { id: string } };
    await until(() => r.store.pendingApprovals(thread.id).length === 1);
    const view = (await (await get(r, `/v1/threads/${thread.id}`)).json()) as { thread: { status: string; pending_approvals: { id: string; tool: string; reason: string }[] } };
    expect(view.thread.status).toBe('waiting');
    const pending = view.thread.pending_approvals[0]!;
    expect(pending).toMatchObject({ tool: 'bash', reason: 'posture' });
    expect((await post(r, '/v1/approvals/appr_unknown', { decision: 'allow' })).status).toBe(404);
    expect((await post(r, `/v1/approvals/${pending.id}`, { decision: 'maybe' })).status).toBe(400);
    const ok = await post(r, `/v1/approvals/${pending.id}`, { decision: 'allow' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ approval: { status: 'decided', decision: 'allow' } });
    expect((await post(r, `/v1/approvals/${pending.id}`, { decision: 'deny' })).status).toBe(409);
    expect(await turnDone(r, turn.id)).toMatchObject({ status: 'completed' });
    const tool = r.store.listItems(thread.id).find((i) => i.kind === 'tool_call')!;
    expect(tool.status).toBe('completed');
    expect(tool.detail).toContain('approved-run');
    const events = r.store.eventsSince(thread.id, 0).map((e) => e.event);
    expect(events).toContain('approval.required');
    expect(events).toContain('approval.decided');
  });

  it('an approval summary shows bidi and zero-width controls escaped, so the command a person approves reads as it runs', async () => {
    // Shown raw, U+202E would display this as "echo safe #…" reversed; U+200B hides a difference.
    const command = 'echo safe \u202e# fr- mr\u202c; cu\u200brl x';
    const r = make({ script: () => [{ tool_calls: [{ name: 'bash', arguments: { command } }] }, { text: 'done' }] });
    const thread = await newThread(r);
    await post(r, `/v1/threads/${thread.id}/turns`, { prompt: 'run it' });
    await until(() => r.store.pendingApprovals(thread.id).length === 1);
    const text = await (await get(r, `/v1/threads/${thread.id}`)).text();
    const pending = (JSON.parse(text) as { thread: { pending_approvals: { summary: string }[] } }).thread.pending_approvals[0]!;
    expect(pending.summary).toContain('echo safe <U+202E># fr- mr<U+202C>; cu<U+200B>rl x');
    const items = await (await get(r, `/v1/threads/${thread.id}/items`)).text();
    const events = JSON.stringify(r.store.eventsSince(thread.id, 0));
    for (const where of [text, items, events]) for (const c of ['\u202e', '\u202c', '\u200b']) expect(where.includes(c)).toBe(false);
  });

  it('an unanswered approval times out as a denial with approval.timeout, and the tool is refused', async () => {
    const r = make({ script: bashScript, approvalTimeoutMs: 50 });
    const thread = await newThread(r);
    const { turn } = (await (await post(r, `/v1/threads/${thread.id}/turns`, { prompt: 'run it' })).json()) as { turn: { id: string } };
    await turnDone(r, turn.id);
    const ev = r.store.eventsSince(thread.id, 0).find((e) => e.event === 'approval.timeout')!;
    expect(ev.payload).toMatchObject({ approval: { status: 'expired', decision: 'deny' }, cause: 'expired' });
    const tool = r.store.listItems(thread.id).find((i) => i.kind === 'tool_call')!;
    expect(tool.status).toBe('failed');
    expect(tool.detail).not.toContain('approved-run');
  });

  it('Auto-Review threads never wait for a person: a dangerous command is refused without a pending approval', async () => {
    const r = make({ script: () => [{ tool_calls: [{ name: 'bash', arguments: { command: 'rm -rf /tmp/definitely-not-a-dir-xyz' } }] }, { text: 'done' }] });
    const thread = await newThread(r, { posture: 'auto' });
    const { turn } = (await (await post(r, `/v1/threads/${thread.id}/turns`, { prompt: 'x' })).json()) as { turn: { id: string } };
    await turnDone(r, turn.id);
    expect(r.store.pendingApprovals()).toEqual([]);
    expect(r.store.listItems(thread.id).find((i) => i.kind === 'tool_call')?.status).toBe('failed');
  });
});

describe('events (SSE)', () => {
  it('replays from since_seq or Last-Event-ID with id: <seq>, then streams live; stale cursors are told once', async () => {
    const r = make();
    const thread = await newThread(r);
    const { turn } = (await (await post(r, `/v1/threads/${thread.id}/turns`, { prompt: 'hi' })).json()) as { turn: { id: string } };
    await turnDone(r, turn.id);
    const stored = r.store.eventsSince(thread.id, 0);
    const all = await readSse(await get(r, `/v1/threads/${thread.id}/events`), (f) => f.filter((x) => x.id).length >= stored.length);
    expect(all[0]).toMatchObject({ event: 'server.connected' });
    const withIds = all.filter((f) => f.id !== null);
    expect(withIds.map((f) => Number(f.id))).toEqual(stored.map((e) => e.seq));
    const env = JSON.parse(withIds[0]!.data) as Record<string, unknown>;
    expect(Object.keys(env)).toEqual(['schema_version', 'seq', 'event', 'thread_id', 'turn_id', 'item_id', 'created_at', 'payload']);

    const mid = stored[2]!.seq;
    const fromQuery = await readSse(await get(r, `/v1/threads/${thread.id}/events?since_seq=${mid}`), (f) => f.filter((x) => x.id).length >= stored.length - 3);
    expect(fromQuery.filter((f) => f.id).map((f) => Number(f.id))).toEqual(stored.slice(3).map((e) => e.seq));
    const fromHeader = await readSse(await get(r, `/v1/threads/${thread.id}/events?since_seq=0`, { ...auth, 'last-event-id': String(mid) }), (f) => f.filter((x) => x.id).length >= stored.length - 3);
    expect(fromHeader.filter((f) => f.id).map((f) => Number(f.id))).toEqual(stored.slice(3).map((e) => e.seq));
    expect((await get(r, `/v1/threads/${thread.id}/events?since_seq=-1`)).status).toBe(400);
    expect((await get(r, `/v1/threads/${thread.id}/events`, { ...auth, 'last-event-id': 'abc' })).status).toBe(400);

    r.store.pruneEvents(2);
    const stale = await readSse(await get(r, `/v1/threads/${thread.id}/events?since_seq=1`), (f) => f.filter((x) => x.id).length >= 2);
    expect(stale.map((f) => f.event)).toEqual(['server.connected', 'stale_cursor', ...stored.slice(-2).map((e) => e.event)]);
    expect(stale.filter((f) => f.event === 'stale_cursor')).toHaveLength(1);
  });

  it('live events arrive after the replay without a gap or a repeat, and a disconnect releases everything', async () => {
    const r = make({ script: () => [{ delay_ms: 100, text: 'live text' }] });
    const thread = await newThread(r);
    expect(r.hub.subscriberCount()).toBe(0);
    const res = await get(r, `/v1/threads/${thread.id}/events`);
    const reading = readSse(res, (f) => f.some((x) => x.event === 'turn.completed'));
    await until(() => r.hub.subscriberCount() === 1);
    const { turn } = (await (await post(r, `/v1/threads/${thread.id}/turns`, { prompt: 'hi' })).json()) as { turn: { id: string } };
    const frames = await reading;
    await turnDone(r, turn.id);
    const seqs = frames.filter((f) => f.id).map((f) => Number(f.id));
    expect(seqs).toEqual(
      r.store
        .eventsSince(thread.id, 0)
        .map((e) => e.seq)
        .slice(0, seqs.length),
    );
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(frames.some((f) => f.event === 'item.delta')).toBe(true);
    await until(() => r.hub.subscriberCount() === 0 && openStreams.count === 0);
  });

  it('sends a heartbeat comment on the configured interval', async () => {
    const r = make({ deps: { sse: { heartbeatMs: 20 } } });
    const thread = await newThread(r);
    const frames = await readSse(await get(r, `/v1/threads/${thread.id}/events`), (f) => f.some((x) => x.comment));
    expect(frames.some((f) => f.comment)).toBe(true);
  });

  it('404 for an unknown thread', async () => {
    const r = make();
    expect((await get(r, '/v1/threads/thr_nope/events')).status).toBe(404);
  });
});

describe('openapi', () => {
  it('is generated from the zod schemas that validate requests', async () => {
    const r = make();
    const res = await get(r, '/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    expect(doc.openapi).toBe('3.1.0');
    const { $schema: _s, ...expected } = z.toJSONSchema(CreateTurnBody, { io: 'input' }) as Record<string, unknown>;
    expect(doc.components.schemas.CreateTurnBody).toEqual(expected);
    for (const p of ['/v1/threads', '/v1/threads/{id}/events', '/v1/approvals/{id}', '/v1/hooks', '/v1/threads/{id}/turns/{turn}/steer']) expect(doc.paths).toHaveProperty([p]);
  });
});
