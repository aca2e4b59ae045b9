/**
 * The Runtime API as a client sees it: a real server on a free port, driven through the
 * generated client (@codewhale/runtime-client). Every status a response carries here must be
 * one the OpenAPI document lists for its operation.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReplayProvider } from '@codewhale/engine';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRuntimeClient, everyPage, RuntimeApiError, type RuntimeClient, type StreamFrame } from '../../runtime-client/src/index.js';
import { openApiDocument } from '../src/http/openapi.js';
import { startServer, type RunningServer } from '../src/start-server.js';

const TOKEN = 'client-test-token-0123456789';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** (method, path template, status) of every response the tests saw. */
const seen: { method: string; path: string; status: number }[] = [];
const doc = openApiDocument('1') as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
const templates = Object.keys(doc.paths).map((p) => ({ p, re: new RegExp(`^${p.replace(/\{[a-z_]+\}/g, '[^/]+')}$`) }));

afterAll(() => {
  expect(seen.length).toBeGreaterThan(0);
  for (const s of seen) {
    const t = templates.find((x) => x.re.test(s.path));
    expect(t, `${s.method} ${s.path}`).toBeDefined();
    expect(Object.keys(doc.paths[t!.p]![s.method]!.responses), `${s.method} ${t!.p}`).toContain(String(s.status));
  }
});

const recordingFetch: typeof fetch = async (input, init) => {
  const req = input instanceof Request ? input : new Request(input, init);
  const res = await fetch(input, init);
  seen.push({ method: req.method.toLowerCase(), path: new URL(req.url).pathname, status: res.status });
  return res;
};

interface Served {
  readonly server: RunningServer;
  readonly client: RuntimeClient;
  readonly home: string;
  readonly ws: string;
}

async function serve(options: { script?: readonly Record<string, unknown>[]; config?: string; approvalTimeoutMs?: number } = {}): Promise<Served> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-client-')));
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  if (options.config) writeFileSync(join(home, 'config.toml'), options.config);
  const script = (options.script ?? [{ text: 'hello' }]).map((t) => JSON.stringify(t)).join('\n');
  const server = await startServer({
    port: 0,
    workspace: ws,
    env: { CODEWHALE_HOME: home, CODEWHALE_RUNTIME_TOKEN: TOKEN, PATH: process.env.PATH },
    provider: () => ReplayProvider.fromText(script),
    ...(options.approvalTimeoutMs ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
  });
  cleanups.push(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });
  return { server, client: createRuntimeClient({ baseUrl: server.url, token: TOKEN, fetch: recordingFetch }), home, ws };
}

async function turnDone(client: RuntimeClient, threadId: string, turnId: string) {
  let turn = (await client.getTurn(threadId, turnId)).turn;
  const end = Date.now() + 15_000;
  while (turn.status === 'in_progress') {
    if (Date.now() > end) throw new Error(`turn ${turnId} did not end`);
    await new Promise((r) => setTimeout(r, 20));
    turn = (await client.getTurn(threadId, turnId)).turn;
  }
  return turn;
}

describe('lists, page by page through the client', () => {
  it('walks 1,000 threads, 1,000 approvals and every event with no gap and no repeat, also while threads are added', async () => {
    const { server, client, ws } = await serve();
    const created: string[] = [];
    for (let i = 0; i < 1_000; i++) created.push(server.store.createThread({ workspace: ws, mode: 'work', posture: 'ask', model: null, sessionId: null }).id);

    const ids: string[] = [];
    let pages = 0;
    for await (const t of everyPage(async (cursor) => {
      pages++;
      // Threads created while a client pages are newer than its cursor: they never shift a page.
      if (pages === 5) for (let i = 0; i < 7; i++) server.store.createThread({ workspace: ws, mode: 'work', posture: 'ask', model: null, sessionId: null });
      return client.listThreads({ limit: 37, ...(cursor ? { cursor } : {}) });
    }, 'threads'))
      ids.push(t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...created].reverse());
    expect(pages).toBe(Math.ceil(1_000 / 37));

    const threads = created.slice(0, 3);
    for (let i = 0; i < 1_000; i++)
      server.store.createApproval({ threadId: threads[i % 3]!, turnId: 'turn_none', itemId: null, tool: 'bash', reason: 'posture', summary: `call ${i}`, timeoutMs: 60_000 });
    const approvals = [];
    for await (const a of everyPage((cursor) => client.listApprovals({ limit: 100, status: 'pending', ...(cursor ? { cursor } : {}) }), 'approvals')) approvals.push(a.summary);
    expect(approvals).toEqual(Array.from({ length: 1_000 }, (_, i) => `call ${i}`));
    const ofOne = [];
    for await (const a of everyPage((cursor) => client.listApprovals({ thread_id: threads[1]!, limit: 500, ...(cursor ? { cursor } : {}) }), 'approvals')) ofOne.push(a.thread_id);
    expect(ofOne).toHaveLength(333);
    expect(new Set(ofOne)).toEqual(new Set([threads[1]]));

    const seqs: number[] = [];
    for await (const e of everyPage((cursor) => client.listEvents({ limit: 500, ...(cursor ? { cursor } : {}) }), 'events')) seqs.push(e.seq);
    expect(seqs).toEqual(Array.from({ length: server.store.headSeq() }, (_, i) => i + 1));
  }, 60_000);

  it('refuses a cursor it did not give out, and a limit out of bounds', async () => {
    const { client } = await serve();
    for (const query of [{ cursor: 'not-a-cursor' }, { limit: 0 }, { limit: 501 }]) {
      const e = await client.listThreads(query).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(RuntimeApiError);
      expect(e).toMatchObject({ status: 400, code: 'invalid_request' });
    }
  });
});

describe('the global event stream', () => {
  it('resumed after a drop, delivers every event of three threads exactly once, in order', async () => {
    const { client } = await serve({ script: [{ text: 'first answer' }, { text: 'second answer' }] });
    const threads = await Promise.all([0, 1, 2].map(async () => (await client.createThread({ posture: 'ask' })).thread.id));
    const got: StreamFrame[] = [];

    // First connection: see the turns start, then drop it mid-way.
    const drop = new AbortController();
    const firstTurns = await Promise.all(threads.map(async (id) => (await client.createTurn(id, { prompt: 'one' })).turn.id));
    for await (const f of client.events({ after: 0, signal: drop.signal })) {
      got.push(f);
      if (got.filter((x) => x.id !== null).length >= 8) drop.abort();
    }
    for (const [i, id] of threads.entries()) await turnDone(client, id, firstTurns[i]!);
    // While no one listens: three more turns.
    const secondTurns = await Promise.all(threads.map(async (id) => (await client.createTurn(id, { prompt: 'two' })).turn.id));
    for (const [i, id] of threads.entries()) await turnDone(client, id, secondTurns[i]!);

    const last = Number(got.filter((f) => f.id !== null).at(-1)!.id);
    const resume = new AbortController();
    const { head_seq } = await client.listEvents({ limit: 1 });
    for await (const f of client.events({ after: last, signal: resume.signal })) {
      got.push(f);
      if (f.id !== null && Number(f.id) >= head_seq) resume.abort();
    }
    const delivered = got.filter((f) => f.id !== null).map((f) => Number(f.id));
    const stored = [];
    for await (const e of everyPage((cursor) => client.listEvents({ limit: 50, ...(cursor ? { cursor } : {}) }), 'events')) stored.push(e.seq);
    expect(delivered).toEqual(stored);
    const ended = got.flatMap((f) => (f.id !== null && f.data.event === 'turn.completed' ? [f.data.payload.turn.status] : []));
    expect(ended).toEqual(Array(6).fill('completed'));
    expect(new Set(got.flatMap((f) => (f.id !== null ? [f.data.thread_id] : [])))).toEqual(new Set(threads));
    expect(got.filter((f) => f.event === 'server.connected')).toHaveLength(2);
  }, 60_000);

  it('refuses a cursor ahead of the log with 409 and the head, on the global and the per-thread stream and the log', async () => {
    const { client } = await serve();
    const { thread } = await client.createThread();
    const { head_seq } = await client.listEvents();
    expect(head_seq).toBeGreaterThan(0);
    for (const threadId of [undefined, thread.id]) {
      const e = await (async () => {
        for await (const _ of client.events({ after: head_seq + 1, ...(threadId ? { threadId } : {}) })) return null;
        return null;
      })().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(RuntimeApiError);
      expect(e).toMatchObject({ status: 409, code: 'conflict', headSeq: head_seq });
    }
    const viaQuery = await client.http.GET('/v1/events', { params: { query: { since_seq: head_seq + 100 } } });
    expect(viaQuery.response.status).toBe(409);
    expect(viaQuery.error?.error.head_seq).toBe(head_seq);
    // The head itself is fine: the stream opens and says where it is.
    const ok = new AbortController();
    for await (const f of client.events({ after: head_seq, signal: ok.signal })) {
      expect(f).toMatchObject({ event: 'server.connected', data: { head_seq, cursor: head_seq, thread_id: null } });
      ok.abort();
    }
  });
});

describe('threads: one turn, archive and delete', () => {
  it('gets one turn with its items, archives (hidden, no new turn) and deletes a thread with a thread.deleted event', async () => {
    const { client } = await serve();
    const { thread } = await client.createThread();
    const { turn } = await client.createTurn(thread.id, { prompt: 'say hello' });
    const done = await turnDone(client, thread.id, turn.id);
    expect(done.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number), tool_count: 0 });
    const one = await client.getTurn(thread.id, turn.id);
    expect(one.items.map((i) => [i.kind, i.summary])).toEqual([
      ['user_message', 'say hello'],
      ['agent_message', 'hello'],
    ]);
    expect((await client.listTurns(thread.id)).turns.map((t) => t.id)).toEqual([turn.id]);
    await expect(client.getTurn(thread.id, 'turn_nope')).rejects.toMatchObject({ status: 404 });

    const archived = await client.archiveThread(thread.id);
    expect(archived.thread.archived_at).not.toBeNull();
    expect((await client.listThreads()).threads.map((t) => t.id)).not.toContain(thread.id);
    expect((await client.listThreads({ archived: true })).threads.map((t) => t.id)).toEqual([thread.id]);
    await expect(client.createTurn(thread.id, { prompt: 'again' })).rejects.toMatchObject({ status: 409 });
    expect((await client.unarchiveThread(thread.id)).thread.archived_at).toBeNull();

    expect(await client.deleteThread(thread.id)).toEqual({ deleted: true, thread_id: thread.id });
    await expect(client.getThread(thread.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(client.deleteThread(thread.id)).rejects.toMatchObject({ status: 404 });
    const log = (await client.listEvents()).events;
    expect(log.filter((e) => e.thread_id === thread.id).map((e) => e.event)).toEqual(['thread.deleted']);
    expect((await client.listApprovals({ thread_id: thread.id })).approvals).toEqual([]);
  });
});

describe('questions and approvals over HTTP', () => {
  const ask = {
    tool_calls: [
      {
        name: 'request_user_input',
        arguments: {
          questions: [
            { id: 'lang', header: 'Language', question: 'Which language?', options: [{ label: 'TypeScript' }, { label: 'Rust' }] },
            { id: 'extras', header: 'Extras', question: 'Which extras?', options: [{ label: 'tests' }, { label: 'docs' }, { label: 'bench' }], multi_select: true },
          ],
        },
      },
    ],
  };

  it('request_user_input waits for a client: bad answers are refused with issues, good ones reach the model, a second answer is 409', async () => {
    const { client } = await serve({ script: [ask, { text: 'thanks' }] });
    const { thread } = await client.createThread();
    const { turn } = await client.createTurn(thread.id, { prompt: 'ask me' });
    let pending = (await client.listUserInputs({ status: 'pending', thread_id: thread.id })).user_inputs;
    const end = Date.now() + 10_000;
    while (pending.length === 0 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 20));
      pending = (await client.listUserInputs({ status: 'pending', thread_id: thread.id })).user_inputs;
    }
    expect(pending).toHaveLength(1);
    const input = pending[0]!;
    expect(input.questions.map((q) => [q.id, q.multi_select, q.options.map((o) => o.label)])).toEqual([
      ['lang', false, ['TypeScript', 'Rust']],
      ['extras', true, ['tests', 'docs', 'bench']],
    ]);
    for (const answers of [{ lang: 'Go', extras: ['tests'] }, { lang: 'Rust' }, { lang: ['Rust'], extras: ['docs'] }, { lang: 'Rust', extras: ['docs'], other: 'x' }]) {
      const e = await client.answerUserInput(input.id, { answers }).catch((x: unknown) => x);
      expect(e, JSON.stringify(answers)).toMatchObject({ status: 400, code: 'invalid_request' });
    }
    expect((await client.getUserInput(input.id)).user_input.status).toBe('pending');
    const answered = await client.answerUserInput(input.id, { answers: { lang: 'Rust', extras: ['docs', 'tests'] } });
    expect(answered.user_input).toMatchObject({ status: 'answered', answers: { lang: 'Rust', extras: ['docs', 'tests'] } });
    await expect(client.answerUserInput(input.id, { answers: { lang: 'TypeScript', extras: ['docs'] } })).rejects.toMatchObject({ status: 409 });
    expect((await turnDone(client, thread.id, turn.id)).status).toBe('completed');
    const { items } = await client.getTurn(thread.id, turn.id);
    const tool = items.find((i) => i.kind === 'tool_call')!;
    expect(JSON.parse(tool.detail!)).toEqual({ answers: { lang: 'Rust', extras: ['docs', 'tests'] } });
    const names = (await client.listEvents({ thread_id: thread.id })).events.map((e) => e.event);
    expect(names).toEqual(expect.arrayContaining(['user_input.required', 'user_input.answered']));
  });

  it('an approval names the hook that asked and its reason; the model is told truthfully who denied: the user, nobody in time, or Auto-Review', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-gate-')));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const gate = join(root, 'gate.sh');
    writeFileSync(gate, `#!/bin/sh\necho '{"decision":"ask","reason":"writes outside the sandbox"}'\n`);
    chmodSync(gate, 0o755);
    const { client } = await serve({
      script: [{ tool_calls: [{ name: 'bash', arguments: { command: 'echo hi' } }] }, { text: 'ok' }],
      config: `[hooks]\n[[hooks.hooks]]\nname = "sandbox-gate"\nevent = "tool_call_before"\ncommand = "${gate}"\n`,
      approvalTimeoutMs: 1_500,
    });
    const toolText = async (threadId: string, turnId: string) => {
      await turnDone(client, threadId, turnId);
      return (await client.getTurn(threadId, turnId)).items.find((i) => i.kind === 'tool_call')!.detail!;
    };
    const pendingOf = async (threadId: string) => {
      const end = Date.now() + 10_000;
      for (;;) {
        const [a] = (await client.listApprovals({ status: 'pending', thread_id: threadId })).approvals;
        if (a) return a;
        if (Date.now() > end) throw new Error('no approval');
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    const byUser = (await client.createThread({ posture: 'ask' })).thread;
    const t1 = (await client.createTurn(byUser.id, { prompt: 'run it' })).turn;
    const approval = await pendingOf(byUser.id);
    expect(approval).toMatchObject({ reason: 'hook', tool: 'bash', hook: { name: 'sandbox-gate', reason: 'writes outside the sandbox' } });
    // A rule would not stop the hook asking again: no "always" for it.
    expect(approval.always).toMatchObject({ rule: null, reason: expect.stringContaining('no permissions rule overrides a hook') });
    await client.answerApproval(approval.id, { decision: 'deny' });
    expect(await toolText(byUser.id, t1.id)).toContain('the user denied this call');

    const expired = (await client.createThread({ posture: 'ask' })).thread;
    const t2 = (await client.createTurn(expired.id, { prompt: 'run it' })).turn;
    const text2 = await toolText(expired.id, t2.id);
    expect(text2).toContain('a tool_call_before hook asked for approval, and nobody answered in time');
    expect(text2).not.toContain('the user denied');
    expect((await client.listApprovals({ thread_id: expired.id })).approvals[0]).toMatchObject({ status: 'expired', decision: 'deny' });

    const auto = (await client.createThread({ posture: 'auto' })).thread;
    const t3 = (await client.createTurn(auto.id, { prompt: 'run it' })).turn;
    const text3 = await toolText(auto.id, t3.id);
    expect(text3).toContain('Auto-Review asks nobody');
    expect(text3).not.toContain('the user denied');
    const decided = (await client.listEvents({ thread_id: auto.id })).events.find((e) => e.event === 'approval.decided');
    expect(decided?.event === 'approval.decided' && decided.payload.cause).toBe('auto_review');
  }, 30_000);

  const pendingIn = async (client: RuntimeClient, threadId: string) => {
    const end = Date.now() + 10_000;
    for (;;) {
      const [a] = (await client.listApprovals({ status: 'pending', thread_id: threadId })).approvals;
      if (a) return a;
      if (Date.now() > end) throw new Error('no approval');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('"always" writes the rule the approval showed and the next identical call runs unasked; a tool the agent runs cannot answer', async () => {
    const probe = 'node probe.mjs';
    const { server, client, home, ws } = await serve({
      script: [{ tool_calls: [{ name: 'bash', arguments: { command: probe } }] }, { text: 'one' }, { tool_calls: [{ name: 'bash', arguments: { command: probe } }] }, { text: 'two' }],
    });
    writeFileSync(join(home, 'permissions.toml'), '# my rules, kept\n');
    // What the agent's own tool does with the token: answer the approval it waits for, as "always".
    writeFileSync(
      join(ws, 'probe.mjs'),
      `import { readFileSync } from 'node:fs';
const id = readFileSync('approval-id', 'utf8');
const r = await fetch(${JSON.stringify(server.url)} + '/v1/approvals/' + id, { method: 'POST', headers: { authorization: 'Bearer ${TOKEN}', 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'allow', scope: 'always' }) });
console.log('probe status', r.status, (await r.json()).error?.code);
`,
    );
    const asking = (await client.createThread({ posture: 'ask' })).thread;
    const t1 = (await client.createTurn(asking.id, { prompt: 'run it' })).turn;
    const approval = await pendingIn(client, asking.id);
    expect(approval.always).toEqual({ rule: { tool: 'bash', command: probe, path: null, workspace: ws }, file: 'permissions.toml', reason: null });
    writeFileSync(join(ws, 'approval-id'), approval.id);

    // Another thread's agent runs the same tool with the token under Full Access: refused, nothing written.
    const agent = (await client.createThread({ posture: 'full_access' })).thread;
    const ta = (await client.createTurn(agent.id, { prompt: 'approve it' })).turn;
    await turnDone(client, agent.id, ta.id);
    expect((await client.getTurn(agent.id, ta.id)).items.find((i) => i.kind === 'tool_call')!.detail).toContain('probe status 403 forbidden');
    expect((await client.getApproval(approval.id)).approval.status).toBe('pending');
    expect(readFileSync(join(home, 'permissions.toml'), 'utf8')).toBe('# my rules, kept\n');

    await expect(client.answerApproval(approval.id, { decision: 'allow', scope: 'always', remember: false })).rejects.toMatchObject({ status: 400 });
    await expect(client.answerApproval(approval.id, { decision: 'deny', scope: 'always' })).rejects.toMatchObject({ status: 400 });
    const answered = await client.answerApproval(approval.id, { decision: 'allow', scope: 'always' });
    expect(answered.approval).toMatchObject({ status: 'decided', decision: 'allow', scope: 'always', remember: true });
    const rules = readFileSync(join(home, 'permissions.toml'), 'utf8');
    expect(rules.startsWith('# my rules, kept\n')).toBe(true);
    expect(rules).toContain(`command = "${probe}"`);
    await turnDone(client, asking.id, t1.id);
    const decided = (await client.listEvents({ thread_id: asking.id })).events.find((e) => e.event === 'approval.decided');
    expect(decided?.event === 'approval.decided' && decided.payload.approval.scope).toBe('always');

    // The same call again, in the same session: it runs without asking.
    const t2 = (await client.createTurn(asking.id, { prompt: 'again' })).turn;
    expect((await turnDone(client, asking.id, t2.id)).status).toBe('completed');
    expect((await client.listApprovals({ thread_id: asking.id })).approvals).toHaveLength(1);
  }, 30_000);

  it('"always" for a call no rule can remember is refused with 422 and the reason; the approval stays pending', async () => {
    const { client, home } = await serve({ script: [{ tool_calls: [{ name: 'bash', arguments: { command: 'ls *.txt' } }] }, { text: 'ok' }] });
    const thread = (await client.createThread({ posture: 'ask' })).thread;
    const turn = (await client.createTurn(thread.id, { prompt: 'list' })).turn;
    const approval = await pendingIn(client, thread.id);
    expect(approval.always).toMatchObject({ rule: null, reason: expect.stringContaining('wildcard') });
    const e = await client.answerApproval(approval.id, { decision: 'allow', scope: 'always' }).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 422, code: 'unprocessable' });
    expect((e as Error).message).toContain('wildcard');
    expect(existsSync(join(home, 'permissions.toml'))).toBe(false);
    expect((await client.getApproval(approval.id)).approval.status).toBe('pending');
    expect((await client.answerApproval(approval.id, { decision: 'allow' })).approval).toMatchObject({ scope: 'once', remember: false });
    expect((await turnDone(client, thread.id, turn.id)).status).toBe('completed');
  }, 30_000);

  it('"always" with a rule file that cannot be edited safely is a 500 naming it; nothing changes and the approval stays pending', async () => {
    const { client, home } = await serve({ script: [{ tool_calls: [{ name: 'bash', arguments: { command: 'make test' } }] }, { text: 'ok' }] });
    const thread = (await client.createThread({ posture: 'ask' })).thread;
    const turn = (await client.createTurn(thread.id, { prompt: 'test' })).turn;
    const approval = await pendingIn(client, thread.id);
    // Broken after the session read it: the editor refuses to touch it.
    writeFileSync(join(home, 'permissions.toml'), '# mine\n[[rules]\n');
    const e = await client.answerApproval(approval.id, { decision: 'allow', scope: 'always' }).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 500, code: 'server_config' });
    expect((e as Error).message).toContain('permissions.toml');
    expect(readFileSync(join(home, 'permissions.toml'), 'utf8')).toBe('# mine\n[[rules]\n');
    expect((await client.getApproval(approval.id)).approval.status).toBe('pending');
    expect((await client.answerApproval(approval.id, { decision: 'allow', scope: 'session' })).approval).toMatchObject({ scope: 'session', remember: true });
    expect((await turnDone(client, thread.id, turn.id)).status).toBe('completed');
  }, 30_000);

  it('a write asks with the diff it would make, built by the server', async () => {
    const { client, ws } = await serve({ script: [{ tool_calls: [{ name: 'write', arguments: { path: 'notes.txt', content: 'one\nTWO\u202e\nthree\n' } }] }, { text: 'ok' }] });
    writeFileSync(join(ws, 'notes.txt'), 'one\ntwo\nthree\n');
    const thread = (await client.createThread({ posture: 'ask' })).thread;
    await client.createTurn(thread.id, { prompt: 'write' });
    const approval = await pendingIn(client, thread.id);
    expect(approval.preview).toEqual({ path: 'notes.txt', kind: 'diff', text: '@@ -1,3 +1,3 @@\n one\n-two\n+TWO<U+202E>\n three', added: 1, removed: 1, truncated: false, note: null });
    await client.answerApproval(approval.id, { decision: 'deny' });
  }, 30_000);
});
