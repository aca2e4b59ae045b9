/**
 * Claude Code hook scripts (docs/recipes/claude-code/), unchanged, under `protocol =
 * "claude-code"`, in a Runtime API thread: a real server process on 127.0.0.1 (as `codewhale
 * serve` starts it), the fake OpenAI server, the scripts in the workspace's `.claude/hooks/`.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAIServer, type FakeTurn } from '@codewhale/engine/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServer } from './server-process.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/serve-env.mjs', import.meta.url));
const RECIPES = fileURLToPath(new URL('../../../docs/recipes/claude-code/', import.meta.url));
const TOKEN = 'e2e-claude-code-token-123456';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const tool = (name: string, args: Record<string, unknown>, id: string): FakeTurn => ({ tool_calls: [{ id, name, arguments: args }] });
const entry = (name: string, event: string, script: string) =>
  `[[hooks.hooks]]\nname = "${name}"\nevent = "${event}"\nprotocol = "claude-code"\ncommand = "node \\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/${script}"\n`;

const call = async (url: string, path: string, body?: unknown) => {
  const res = await fetch(url + path, body === undefined ? { headers: H } : { method: 'POST', headers: H, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

describe('claude-code hooks in a Runtime API thread', () => {
  it('the rm -rf gate, the JSON policy and the PostToolUse logger run unchanged; items keep the peer answer', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-e2e-cc-')));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const home = join(root, 'home');
    const ws = join(root, 'ws');
    mkdirSync(join(ws, '.claude', 'hooks'), { recursive: true });
    mkdirSync(home, { recursive: true });
    for (const f of ['block-rm-rf.mjs', 'permission-json.mjs', 'log-tool-use.mjs']) copyFileSync(join(RECIPES, f), join(ws, '.claude', 'hooks', f));
    writeFileSync(join(ws, 'victim'), 'keep me');
    const fake = await startFakeOpenAIServer({
      turns: [tool('bash', { command: 'rm -rf victim' }, 'c1'), tool('bash', { command: 'echo original' }, 'c2'), tool('write', { path: 'notes/a.txt', content: 'quiet' }, 'c3'), { text: 'done' }],
    });
    cleanups.push(() => fake.close());
    writeFileSync(
      join(home, 'config.toml'),
      `provider = "fake"\n\n[providers.fake]\nbase_url = "${fake.url}"\nmodel = "fake-model"\napi_key_env = "FAKE_API_KEY"\n\n[hooks]\n` +
        entry('block-rm-rf', 'tool_call_before', 'block-rm-rf.mjs') +
        entry('policy', 'tool_call_before', 'permission-json.mjs') +
        entry('logger', 'tool_call_after', 'log-tool-use.mjs'),
    );
    const server = await spawnServer(process.execPath, [FIXTURE], { RT_WS: ws, CODEWHALE_HOME: home, CODEWHALE_RUNTIME_TOKEN: TOKEN, FAKE_API_KEY: 'sk-fake-key-123456' });
    cleanups.push(async () => {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    });
    const { url } = server;
    const hooks = await call(url, '/v1/hooks');
    expect(hooks.json.hooks.map((h: { name: string; protocol: string }) => [h.name, h.protocol])).toEqual([
      ['block-rm-rf', 'claude-code'],
      ['policy', 'claude-code'],
      ['logger', 'claude-code'],
    ]);
    const { json: created } = await call(url, '/v1/threads', { posture: 'full_access' });
    const threadId = created.thread.id as string;
    const started = await call(url, `/v1/threads/${threadId}/turns`, { prompt: 'tidy up' });
    expect(started.status).toBe(201);
    const end = Date.now() + 30_000;
    for (;;) {
      const { json } = await call(url, `/v1/threads/${threadId}`);
      if (json.turns[0].status !== 'in_progress') break;
      if (Date.now() > end) throw new Error('turn still in progress');
      await new Promise((r) => setTimeout(r, 50));
    }

    expect(readFileSync(join(ws, 'victim'), 'utf8')).toBe('keep me');
    expect(readFileSync(join(ws, 'notes', 'a.txt'), 'utf8')).toBe('QUIET');
    const { json: items } = await call(url, `/v1/threads/${threadId}/items`);
    const calls = items.items.filter((i: { kind: string }) => i.kind === 'tool_call');
    expect(calls.map((c: { metadata: { call_id: string } }) => c.metadata.call_id)).toEqual(['c1', 'c2', 'c3']);
    expect(calls[0].detail).toContain('Blocked: rm');
    expect(calls[0].decision).toMatchObject({
      decision: 'deny',
      deny_kind: 'exit_2',
      hooks: [
        { label: 'block-rm-rf', outcome: 'deny_exit_2', peer: { protocol: 'claude-code', answer: 'exit 2; stderr reason: "Blocked: rm [argument] is not allowed in this project"' } },
        { label: 'policy', outcome: 'no_decision', peer: { answer: 'exit 0; no output' } },
      ],
    });
    expect(calls[1].detail).toContain('rewritten');
    expect(calls[1].decision.input.peer).toContain('"tool_name":"Bash"');

    // The logger saw each call that ran, in the peer's terms (and not the denied one: D32 says it fires, with success false).
    const logFile = join(ws, '.claude', 'tool-log.jsonl');
    const deadline = Date.now() + 10_000;
    while ((!existsSync(logFile) || readFileSync(logFile, 'utf8').trim().split('\n').length < 3) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const logged = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    expect(logged.map((l) => [l.event, l.tool_name, l.tool_use_id, l.success, l.permission_mode])).toEqual([
      ['PostToolUse', 'Bash', 'c1', false, 'bypassPermissions'],
      ['PostToolUse', 'Bash', 'c2', true, 'bypassPermissions'],
      ['PostToolUse', 'Write', 'c3', true, 'bypassPermissions'],
    ]);
    expect(logged[2]!.tool_input).toEqual({ file_path: join(ws, 'notes', 'a.txt'), content: 'QUIET' });
  }, 60_000);
});
