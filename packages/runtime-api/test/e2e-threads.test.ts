/**
 * End to end, like e2e.test.ts (a real server process on 127.0.0.1, the fake OpenAI server,
 * real hook scripts): a turn that overrides the thread's model, mode and posture, and project
 * hooks of a thread's workspace (trusted and approved with the built `codewhale` binary).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeTurn } from '@codewhale/engine/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from './server-process.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/serve-env.mjs', import.meta.url));
const CLI = fileURLToPath(new URL('../../cli/dist/bin.cjs', import.meta.url));
const TOKEN = 'e2e-threads-token-123456';
const API_KEY = 'sk-e2e-threads-key-abcdef';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const bash = (command: string): FakeTurn => ({ tool_calls: [{ name: 'bash', arguments: { command } }] });

function script(path: string, body: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

interface Env {
  readonly root: string;
  readonly home: string;
  readonly ws: string;
  readonly fake: FakeOpenAIServer;
  start(): Promise<ServerProcess>;
}

async function setup(turns: FakeTurn[], hooks = ''): Promise<Env> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-e2e-threads-')));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  for (const d of [home, ws]) mkdirSync(d, { recursive: true });
  const fake = await startFakeOpenAIServer({ turns });
  cleanups.push(() => fake.close());
  writeFileSync(
    join(home, 'config.toml'),
    `provider = "fake"\n\n[providers.fake]\nbase_url = "${fake.url}"\nmodel = "fake-model"\napi_key_env = "FAKE_API_KEY"\n\n[retry]\ninitial_delay_ms = 10\nmax_delay_ms = 20\n${hooks}`,
  );
  const start = async () => {
    const server = await spawnServer(process.execPath, [FIXTURE], { RT_WS: ws, CODEWHALE_HOME: home, CODEWHALE_RUNTIME_TOKEN: TOKEN, FAKE_API_KEY: API_KEY });
    cleanups.push(async () => {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    });
    return server;
  };
  return { root, home, ws, fake, start };
}

const call = async (url: string, path: string, body?: unknown) => {
  const res = await fetch(url + path, body === undefined ? { headers: H } : { method: 'POST', headers: H, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as Record<string, any> };
};

/** Wait for a turn to leave `in_progress`; fail at once if it is waiting on an approval instead. */
async function finished(url: string, threadId: string, turnId: string, ms = 20_000): Promise<Record<string, any>> {
  const end = Date.now() + ms;
  for (;;) {
    const { json } = await call(url, `/v1/threads/${threadId}`);
    const turn = json.turns.find((t: { id: string }) => t.id === turnId);
    if (turn.status !== 'in_progress') return json;
    const pending = json.thread.pending_approvals ?? [];
    if (pending.length > 0) throw new Error(`turn ${turnId} is waiting on an approval: ${JSON.stringify(pending)}`);
    if (Date.now() > end) throw new Error(`turn ${turnId} still in progress after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Msg = { role: string; content?: unknown };
const messagesOf = (request: unknown): Msg[] => (request as { messages: Msg[] }).messages;
const text = (m: Msg): string => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''));

/** `codewhale …` from the built binary, with this test's home; throws with its stderr on a non-zero exit. */
function cli(home: string, args: readonly string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEWHALE_HOME: home, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.status !== 0) throw new Error(`codewhale ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

describe('end to end: per-turn overrides and project hooks in threads', () => {
  it('a turn with another model, mode and posture uses them for its model request, keeps the history and the sess_ id', async () => {
    const e = await setup([{ text: 'first answer' }, bash('echo from-second-turn'), { text: 'second done' }, { text: 'third answer' }, { text: 'fourth answer' }]);
    const server = await e.start();
    const { url } = server;
    const { json: created } = await call(url, '/v1/threads', { mode: 'work', posture: 'ask' });
    const thread = created.thread;
    expect(thread.session_id).toMatch(/^sess_/);

    const t1 = await call(url, `/v1/threads/${thread.id}/turns`, { prompt: 'first question' });
    expect(t1.status).toBe(201);
    expect((await finished(url, thread.id, t1.json.turn.id)).turns[0].status).toBe('completed');

    // Another model, Operate mode and Full Access for this turn only: the bash call runs with no approval.
    const t2 = await call(url, `/v1/threads/${thread.id}/turns`, { prompt: 'second question', model: 'other-model', mode: 'operate', posture: 'full_access' });
    expect(t2.status).toBe(201);
    expect(t2.json.turn).toMatchObject({ model: 'other-model', mode: 'operate', posture: 'full_access' });
    const after2 = await finished(url, thread.id, t2.json.turn.id);
    expect(after2.turns.find((t: { id: string }) => t.id === t2.json.turn.id).status).toBe('completed');
    expect(after2.thread.session_id).toBe(thread.session_id);

    // The override sticks: the thread now carries it, and a turn without one runs on it.
    expect(after2.thread).toMatchObject({ model: 'other-model', mode: 'operate', posture: 'full_access' });
    const t3 = await call(url, `/v1/threads/${thread.id}/turns`, { prompt: 'third question' });
    expect(t3.json.turn).toMatchObject({ model: 'other-model', mode: 'operate', posture: 'full_access' });
    await finished(url, thread.id, t3.json.turn.id);

    // Back to the first model and mode: the history survives that reopen too.
    const t4 = await call(url, `/v1/threads/${thread.id}/turns`, { prompt: 'fourth question', model: 'fake-model', mode: 'work', posture: 'ask' });
    const after4 = await finished(url, thread.id, t4.json.turn.id);
    expect(after4.turns.map((t: { status: string }) => t.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(after4.thread.session_id).toBe(thread.session_id);
    expect(after4.thread).toMatchObject({ model: 'fake-model', mode: 'work', posture: 'ask' });

    const reqs = e.fake.requests as { model: string }[];
    expect(reqs.map((r) => r.model)).toEqual(['fake-model', 'other-model', 'other-model', 'other-model', 'fake-model']);
    // The overriding turn's first request carries the first turn's exchange, and its system prompt is Operate's.
    const second = messagesOf(reqs[1]);
    const firstUser = second.findIndex((m) => m.role === 'user' && text(m).includes('first question'));
    expect(firstUser).toBeGreaterThanOrEqual(0);
    expect(second.slice(firstUser + 1).some((m) => m.role === 'assistant' && text(m).includes('first answer'))).toBe(true);
    expect(text(second.at(-1)!)).toContain('second question');
    expect(text(second.find((m) => m.role === 'system')!)).toContain('Mode: Operate');
    expect(text(messagesOf(reqs[0]).find((m) => m.role === 'system')!)).toContain('Mode: Work');
    // The last turn sees all of it, the tool result of the second included, under Work again.
    const last = messagesOf(reqs[4]).map(text).join('\n');
    for (const s of ['first question', 'first answer', 'second question', 'from-second-turn', 'second done', 'third question', 'third answer', 'fourth question']) expect(last).toContain(s);
    expect(text(messagesOf(reqs[4]).find((m) => m.role === 'system')!)).toContain('Mode: Work');

    // The bash call ran under Full Access: no approval was asked, the tool completed.
    const { json: items } = await call(url, `/v1/threads/${thread.id}/items`);
    const tool = items.items.find((i: { kind: string }) => i.kind === 'tool_call');
    expect(tool).toMatchObject({ turn_id: t2.json.turn.id, status: 'completed' });
    expect(tool.detail).toContain('from-second-turn');
  }, 90_000);

  it('fires the trusted-and-approved project hooks of a thread’s workspace, never an unapproved project file, and GET /v1/hooks shows the approval state', async () => {
    if (!existsSync(CLI)) throw new Error(`build the CLI first: ${CLI} is missing`);
    const e = await setup([bash('echo one'), { text: 'done one' }, bash('echo two'), { text: 'done two' }]);
    const log = join(e.root, 'hooks.log');
    const projectFile = (ws: string, label: string) => {
      script(join(ws, '.codewhale', 'hooks', 'gate.sh'), `echo "${label} $DEEPSEEK_SESSION_ID $DEEPSEEK_TOOL_NAME" >> "${log}"`);
      const toml = `[[hooks]]\nname = "${label}"\nevent = "tool_call_before"\ncommand = "./.codewhale/hooks/gate.sh"\n`;
      writeFileSync(join(ws, '.codewhale', 'hooks.toml'), toml);
    };
    // The approved workspace is the server's default one; the other is trusted but never approved.
    const other = join(e.root, 'other');
    mkdirSync(other);
    projectFile(e.ws, 'approved-gate');
    projectFile(other, 'unapproved-gate');
    cli(e.home, ['trust', '--workspace', e.ws]);
    cli(e.home, ['trust', '--workspace', other]);
    const review = JSON.parse(cli(e.home, ['hooks', 'review', '--json', '--workspace', e.ws])) as { digest: string; state: string };
    expect(review.state).toBe('pending');
    cli(e.home, ['hooks', 'approve', review.digest, '--workspace', e.ws]);

    const { url } = await e.start();
    const { json: a } = await call(url, '/v1/threads', { posture: 'full_access' });
    const { json: b } = await call(url, '/v1/threads', { posture: 'full_access', workspace: other });
    expect(a.thread.workspace).toBe(e.ws);
    expect(b.thread.workspace).toBe(other);

    const ta = await call(url, `/v1/threads/${a.thread.id}/turns`, { prompt: 'run one' });
    expect((await finished(url, a.thread.id, ta.json.turn.id)).turns[0].status).toBe('completed');
    const tb = await call(url, `/v1/threads/${b.thread.id}/turns`, { prompt: 'run two' });
    expect((await finished(url, b.thread.id, tb.json.turn.id)).turns[0].status).toBe('completed');

    const lines = existsSync(log) ? readFileSync(log, 'utf8') : '';
    expect(lines).toContain(`approved-gate ${a.thread.session_id} bash`);
    expect(lines).not.toContain('unapproved-gate');
    // Exactly one call fired it: the other workspace's thread ran no project hook at all.
    expect(lines.trim().split('\n')).toEqual([`approved-gate ${a.thread.session_id} bash`]);

    // GET /v1/hooks for each thread: the project's approval state, and its hooks only when loaded.
    const { json: ha } = await call(url, `/v1/hooks?thread_id=${a.thread.id}`);
    expect(ha.project).toMatchObject({ file_present: true, trusted: true, state: 'approved', loaded: true, digest: review.digest });
    expect(ha.hooks).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'approved-gate', source: 'project', fires_on_runtime: true })]));
    const { json: hb } = await call(url, `/v1/hooks?thread_id=${b.thread.id}`);
    expect(hb.project).toMatchObject({ file_present: true, trusted: true, state: 'pending', loaded: false });
    expect(hb.hooks.map((h: { name: string }) => h.name)).not.toContain('unapproved-gate');
    // Without thread_id: the server's default workspace (the approved one).
    expect((await call(url, '/v1/hooks')).json.project).toMatchObject({ state: 'approved', loaded: true });
  }, 90_000);
});
