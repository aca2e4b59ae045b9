import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeTurn } from '@codewhale/engine/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { readSse, until, type SseFrame } from './support.js';
import { spawnServer, type ServerProcess } from './server-process.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/serve-env.mjs', import.meta.url));
const TOKEN = 'e2e-runtime-token-123456';
const API_KEY = 'sk-e2e-model-key-abcdef';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Env {
  readonly root: string;
  readonly home: string;
  readonly ws: string;
  readonly log: string;
  readonly fake: FakeOpenAIServer;
  readonly server: ServerProcess;
}

const bash = (command: string): FakeTurn => ({ tool_calls: [{ name: 'bash', arguments: { command } }] });

async function setup(turns: FakeTurn[]): Promise<Env> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-e2e-')));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  const scripts = join(root, 'scripts');
  for (const d of [home, ws, scripts]) mkdirSync(d, { recursive: true });
  const log = join(root, 'hooks.log');
  const script = (name: string, body: string) => {
    const p = join(scripts, name);
    writeFileSync(p, `#!/bin/sh\n${body}\n`);
    chmodSync(p, 0o755);
    return p;
  };
  const gate = script(
    'gate.sh',
    `echo "tool_call_before $DEEPSEEK_SESSION_ID $DEEPSEEK_TOOL_NAME" >> ${log}\ncase "$DEEPSEEK_TOOL_ARGS" in *needs-ask*) echo '{"decision":"ask","reason":"please confirm"}';; esac`,
  );
  const env = script('env.sh', `echo "shell_env $DEEPSEEK_TOOL_NAME" >> ${log}\necho HOOK_TOKEN=tok-e2e-secret-value`);
  const after = script('after.sh', `echo "tool_call_after $DEEPSEEK_SESSION_ID $DEEPSEEK_TOOL_NAME" >> ${log}`);
  const onError = script('on-error.sh', `echo "on_error $DEEPSEEK_SESSION_ID" >> ${log}`);
  const fake = await startFakeOpenAIServer({ turns });
  cleanups.push(() => fake.close());
  const hook = (name: string, event: string, command: string) => `[[hooks.hooks]]\nname = "${name}"\nevent = "${event}"\ncommand = "${command}"\n`;
  writeFileSync(
    join(home, 'config.toml'),
    `provider = "fake"\n\n[providers.fake]\nbase_url = "${fake.url}"\nmodel = "fake-model"\napi_key_env = "FAKE_API_KEY"\n\n[retry]\ninitial_delay_ms = 10\nmax_delay_ms = 20\n\n[hooks]\n` +
      hook('gate', 'tool_call_before', gate) +
      hook('creds', 'shell_env', env) +
      hook('after', 'tool_call_after', after) +
      hook('errors', 'on_error', `${onError} --a-long-argument-list-that-goes-well-past-the-sixty-character-preview`) +
      hook('ui-only', 'session_start', after),
  );
  const server = await spawnServer(process.execPath, [FIXTURE], { RT_WS: ws, CODEWHALE_HOME: home, CODEWHALE_RUNTIME_TOKEN: TOKEN, FAKE_API_KEY: API_KEY });
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
  return { root, home, ws, log, fake, server };
}

const call = async (url: string, path: string, body?: unknown) => {
  const res = await fetch(url + path, body === undefined ? { headers: H } : { method: 'POST', headers: H, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as Record<string, any> };
};

describe('end to end: a real server, the fake model server, real hook scripts', () => {
  it('fires the four runtime events, answers approvals (a hook ask among them) over HTTP, resumes SSE without loss or repeat, and stores no secret', async () => {
    const e = await setup([bash('echo "len=${#HOOK_TOKEN}"'), bash('echo needs-ask; exit 3'), { text: 'all done' }]);
    const { url } = e.server;
    const { json: created } = await call(url, '/v1/threads', { posture: 'ask' });
    const thread = created.thread;
    expect(thread.session_id).toMatch(/^sess_/);

    // A client follows the events and answers every approval; it drops the connection after the first one.
    const seen: SseFrame[] = [];
    const answered: { id: string; reason: string; status: number }[] = [];
    const answer = async (frames: SseFrame[]) => {
      for (const f of frames) {
        if (f.event !== 'approval.required' || answered.some((a) => a.id === JSON.parse(f.data).payload.approval.id)) continue;
        const approval = JSON.parse(f.data).payload.approval;
        const r = await call(url, `/v1/approvals/${approval.id}`, { decision: 'allow' });
        answered.push({ id: approval.id, reason: approval.reason, status: r.status });
      }
    };
    const { json: started } = await call(url, `/v1/threads/${thread.id}/turns`, { prompt: 'run two commands' });
    const first = await readSse(await fetch(`${url}/v1/threads/${thread.id}/events`, { headers: H }), (f) => f.some((x) => x.event === 'approval.required'));
    seen.push(...first);
    await answer(first);
    let lastId = seen.filter((f) => f.id).at(-1)!.id!;
    for (let round = 0; round < 10 && !seen.some((f) => f.event === 'turn.completed'); round++) {
      const more = await readSse(await fetch(`${url}/v1/threads/${thread.id}/events`, { headers: { ...H, 'last-event-id': lastId } }), (f) =>
        f.some((x) => x.event === 'turn.completed' || (x.event === 'approval.required' && !answered.some((a) => x.data.includes(a.id)))),
      );
      seen.push(...more);
      await answer(more);
      lastId = seen.filter((f) => f.id).at(-1)!.id!;
    }

    const { json: detail } = await call(url, `/v1/threads/${thread.id}`);
    expect(detail.turns.find((t: { id: string }) => t.id === started.turn.id).status).toBe('completed');
    expect(answered.map((a) => a.status)).toEqual([200, 200]);
    expect(answered.map((a) => a.reason)).toContain('hook');

    // SSE resume: the ids seen across reconnects are exactly the stored sequence up to turn.completed, once each.
    const ids = seen.filter((f) => f.id).map((f) => Number(f.id));
    expect(new Set(ids).size).toBe(ids.length);
    const full = await readSse(await fetch(`${url}/v1/threads/${thread.id}/events?since_seq=0`, { headers: H }), (f) => f.some((x) => x.event === 'turn.completed'));
    const stored = full.filter((f) => f.id).map((f) => Number(f.id));
    expect(ids).toEqual(stored.slice(0, ids.length));
    expect(ids.at(-1)).toBe(stored.at(-1));

    // Each of the four events fired from a real hook script, with the thread's session id (shell_env carries only the tool).
    // tool_call_after and on_error are observers: they run in the background and may end after turn.completed.
    const lines = [`tool_call_before ${thread.session_id} bash`, 'shell_env exec_shell', `tool_call_after ${thread.session_id} bash`, `on_error ${thread.session_id}`];
    await until(() => lines.every((line) => readFileSync(e.log, 'utf8').includes(line))).catch(() => {});
    const log = readFileSync(e.log, 'utf8');
    for (const line of lines) expect(log).toContain(line);
    expect(log).not.toMatch(/^session_start/m);

    // Items: the decision record is stored with the tool call; the shell_env value and the model key are stored nowhere.
    const { json: items, text: itemsText } = await call(url, `/v1/threads/${thread.id}/items`);
    const tools = items.items.filter((i: { kind: string }) => i.kind === 'tool_call');
    expect(tools).toHaveLength(2);
    expect(tools[0].detail).toContain(`len=${'tok-e2e-secret-value'.length}`);
    expect(tools[0].decision).toMatchObject({ decision: 'allow' });
    expect(tools[1].decision).toMatchObject({ decision: 'ask' });
    expect(tools[1].status).toBe('failed');
    const db = readFileSync(join(e.home, 'runtime', 'runtime.db')).toString('latin1') + readFileSync(join(e.home, 'runtime', 'runtime.db-wal')).toString('latin1');
    for (const secret of ['tok-e2e-secret-value', API_KEY, TOKEN]) {
      expect(db).not.toContain(secret);
      expect(itemsText).not.toContain(secret);
    }

    // GET /v1/hooks: the list model, with where each hook fires; never a full command or an env value.
    const { json: hooks, text: hooksText } = await call(url, `/v1/hooks?thread_id=${thread.id}`);
    const byName = Object.fromEntries(hooks.hooks.map((h: { name: string }) => [h.name, h]));
    for (const n of ['gate', 'creds', 'after', 'errors']) expect(byName[n]).toMatchObject({ fires_on_runtime: true, fires_on: expect.arrayContaining(['runtime']) });
    expect(byName['ui-only']).toMatchObject({ fires_on_runtime: false, fires_on: ['tui'] });
    expect(byName.gate.effective_timeout_secs).toBe(30);
    expect(hooksText).not.toContain('tok-e2e-secret-value');
    expect(hooksText).not.toContain(API_KEY);
    // The command preview is at most 60 characters: a long command is never returned in full.
    expect(Array.from(byName.errors.command_preview as string).length).toBeLessThanOrEqual(60);
    expect(hooksText).not.toContain('sixty-character-preview');
    expect((await call(url, '/v1/hooks?thread_id=thr_missing')).status).toBe(404);
  }, 90_000);

  it('a shell_env value a tool prints is absent from the database file, the events and every model request; credential shapes are redacted where stored', async () => {
    const GH = 'ghp_0123456789abcdefABCDEF0123456789abcd';
    const e = await setup([
      bash(`echo "value=$HOOK_TOKEN"; echo "gh=${GH} url=https://bob:hunter2pass@example.com/x --password=s3cretpw1 AKIAIOSFODNN7EXAMPLE xoxb-1234567890-0987654321-AbCdEf"`),
      { text: 'done' },
    ]);
    const { url } = e.server;
    const { json: created } = await call(url, '/v1/threads', { posture: 'full_access' });
    const id = created.thread.id;
    await call(url, `/v1/threads/${id}/turns`, { prompt: 'print it; my key is AKIAIOSFODNN7EXAMPLE' });
    const events = await readSse(await fetch(`${url}/v1/threads/${id}/events?since_seq=0`, { headers: H }), (f) => f.some((x) => x.event === 'turn.completed'), 30_000);
    const eventsText = events.map((f) => f.data).join('\n');
    const { text: itemsText, json: items } = await call(url, `/v1/threads/${id}/items`);
    const dir = join(e.home, 'runtime');
    const db = readFileSync(join(dir, 'runtime.db')).toString('latin1') + readFileSync(join(dir, 'runtime.db-wal')).toString('latin1');
    const sent = JSON.stringify(e.fake.requests);
    // The command really printed the value: the model saw it masked.
    expect(sent).toContain('value=***');
    for (const where of [db, eventsText, itemsText, sent]) expect(where).not.toContain('tok-e2e-secret-value');
    // Credential shapes never reach the database, the events or the items (the prompt's included).
    for (const secret of [GH, 'hunter2pass', 's3cretpw1', 'AKIAIOSFODNN7EXAMPLE', 'xoxb-1234567890-0987654321-AbCdEf']) {
      for (const where of [db, eventsText, itemsText]) expect(where).not.toContain(secret);
    }
    const tool = items.items.find((i: { kind: string }) => i.kind === 'tool_call');
    expect(tool.detail).toContain('url=https://bob:[redacted]@example.com/x');
    expect(tool.detail).toContain('value=***');
    // The database and its WAL are private even though the home existed before the server.
    expect(statSync(join(dir, 'runtime.db')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'runtime.db-wal')).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('kill -9 mid-turn, restart: the next model request carries the whole history, the call that ran and the one cut short (closed as interrupted)', async () => {
    const e = await setup([bash('echo first-result-4711'), bash('sleep 30'), { text: 'resumed' }]);
    const { json: created } = await call(e.server.url, '/v1/threads', { posture: 'full_access' });
    const id = created.thread.id;
    await call(e.server.url, `/v1/threads/${id}/turns`, { prompt: 'run two commands' });
    for (let i = 0; i < 500; i++) {
      const { json } = await call(e.server.url, `/v1/threads/${id}/items`);
      if (json.items.some((it: { kind: string; summary: string }) => it.kind === 'tool_call' && it.summary.includes('sleep 30'))) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    // The turn never completes: nothing but the per-item journal can have kept the conversation.
    e.server.child.kill('SIGKILL');
    await e.server.exited;
    const again = await spawnServer(process.execPath, [FIXTURE], { RT_WS: e.ws, CODEWHALE_HOME: e.home, CODEWHALE_RUNTIME_TOKEN: TOKEN, FAKE_API_KEY: API_KEY });
    cleanups.push(async () => {
      if (again.child.exitCode === null) again.child.kill('SIGTERM');
      await again.exited;
    });
    const { json: next } = await call(again.url, `/v1/threads/${id}/turns`, { prompt: 'and now?' });
    for (let i = 0; i < 500; i++) {
      const { json } = await call(again.url, `/v1/threads/${id}`);
      if (json.turns.find((t: { id: string }) => t.id === next.turn.id).status !== 'in_progress') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(e.fake.requests).toHaveLength(3);
    const messages = (e.fake.requests[2] as { messages: { role: string; content: string | null; tool_calls?: { id: string; function: { arguments: string } }[]; tool_call_id?: string }[] }).messages;
    const roles = messages.filter((m) => m.role !== 'system').map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'user']);
    const rest = messages.filter((m) => m.role !== 'system');
    expect(rest[0]!.content).toBe('run two commands');
    expect(rest[2]!.content).toContain('first-result-4711');
    expect(rest[2]!.tool_call_id).toBe(rest[1]!.tool_calls![0]!.id);
    expect(rest[3]!.tool_calls![0]!.function.arguments).toContain('sleep 30');
    expect(rest[4]!.tool_call_id).toBe(rest[3]!.tool_calls![0]!.id);
    expect(rest[4]!.content).toContain('interrupted');
    expect(rest[5]!.content).toBe('and now?');
  }, 60_000);

  it('GET /v1/hooks?thread_id= reports the hooks the thread’s live session runs, with pending_reload when the files changed', async () => {
    const e = await setup([bash('echo still-runs'), { text: 'done' }]);
    const { url } = e.server;
    const { json: created } = await call(url, '/v1/threads', { posture: 'full_access' });
    const id = created.thread.id;
    const names = (j: Record<string, any>) => j.hooks.map((h: { name: string }) => h.name);
    const before = (await call(url, `/v1/hooks?thread_id=${id}`)).json;
    expect(before).toMatchObject({ source: 'session', pending_reload: false });
    expect(names(before)).toContain('gate');
    // A deny gate added on disk after the thread's session loaded its hooks.
    const config = join(e.home, 'config.toml');
    writeFileSync(config, `${readFileSync(config, 'utf8')}[[hooks.hooks]]\nname = "late-deny"\nevent = "tool_call_before"\ncommand = "echo '{\\"decision\\":\\"deny\\",\\"reason\\":\\"late\\"}'"\n`);
    const disk = (await call(url, '/v1/hooks')).json;
    expect(disk.source).toBe('disk');
    expect(names(disk)).toContain('late-deny');
    const after = (await call(url, `/v1/hooks?thread_id=${id}`)).json;
    expect(after).toMatchObject({ source: 'session', pending_reload: true });
    expect(after.pending_reload_note).toContain('changed');
    expect(names(after)).not.toContain('late-deny');
    expect(after.hook_set_digest).toBe(before.hook_set_digest);
    // The view told the truth: the session does not run the new gate.
    const { json: t } = await call(url, `/v1/threads/${id}/turns`, { prompt: 'run it' });
    for (let i = 0; i < 500; i++) {
      const { json } = await call(url, `/v1/threads/${id}`);
      if (json.turns.find((x: { id: string }) => x.id === t.turn.id).status !== 'in_progress') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const { json: items } = await call(url, `/v1/threads/${id}/items`);
    expect(items.items.find((i: { kind: string }) => i.kind === 'tool_call')).toMatchObject({ status: 'completed' });
    expect(items.items.find((i: { kind: string }) => i.kind === 'tool_call').detail).toContain('still-runs');
  }, 60_000);

  it('shuts down gracefully on SIGTERM: the running turn is recorded as interrupted, exit code 0', async () => {
    const e = await setup([{ text: 'slow', delayMs: 30_000 }]);
    const { url } = e.server;
    const { json: created } = await call(url, '/v1/threads', {});
    const { json: started } = await call(url, `/v1/threads/${created.thread.id}/turns`, { prompt: 'wait' });
    await new Promise((r) => setTimeout(r, 300));
    e.server.child.kill('SIGTERM');
    expect((await e.server.exited).code).toBe(0);
    const again = await spawnServer(process.execPath, [FIXTURE], { RT_WS: e.ws, CODEWHALE_HOME: e.home, CODEWHALE_RUNTIME_TOKEN: TOKEN, FAKE_API_KEY: API_KEY });
    cleanups.push(async () => {
      again.child.kill('SIGTERM');
      await again.exited;
    });
    const { json } = await call(again.url, `/v1/threads/${created.thread.id}`);
    expect(json.turns.find((t: { id: string }) => t.id === started.turn.id).status).toBe('interrupted');
    // The shutdown itself recorded the turn: the restart found nothing to recover.
    await new Promise((r) => setTimeout(r, 50));
    expect(again.stdout()).toContain('recovered 0 0');
  }, 60_000);
});
