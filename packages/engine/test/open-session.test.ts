/**
 * The surface API end to end: sessions opened by the factory from a real config file, with
 * real hook scripts, over the fake OpenAI server on 127.0.0.1. Two hosts share one process
 * and one set of pools, each with its own `sess_` id.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gateDecisionToJson } from '@codewhale/hooks-payloads';
import { closeSharedPools, createSharedPools, openSession } from '../src/open-session.js';
import { HookHarness } from '../src/hook-harness.js';
import { OpenAICompatibleProvider } from '../src/provider/openai-compatible.js';
import { EngineError } from '../src/errors.js';
import type { HostEvent, SessionSnapshot } from '../src/surface.js';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeTurn } from '../src/testing/index.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function sandbox(hooksToml: (dir: string) => string) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-open-')));
  const home = join(dir, 'home');
  const ws = join(dir, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  writeFileSync(join(home, 'config.toml'), `# my config\n[hooks]\n${hooksToml(dir)}`);
  const env = { PATH: process.env.PATH, HOME: dir, CODEWHALE_HOME: home };
  return { dir, home, ws, env };
}

function script(dir: string, name: string, body: string): string {
  const p = join(dir, name);
  writeFileSync(p, `#!/bin/sh\n${body}\n`);
  chmodSync(p, 0o755);
  return p;
}

async function server(turns: FakeTurn[] | ((req: unknown, i: number) => FakeTurn)): Promise<FakeOpenAIServer> {
  const s = await startFakeOpenAIServer({ turns: turns as never });
  cleanups.push(() => s.close());
  return s;
}

const provider = (s: FakeOpenAIServer) => new OpenAICompatibleProvider({ id: 'fake', baseUrl: s.url, model: 'fake-model' });
const bash = (command: string, id = 'call_1'): FakeTurn => ({ tool_calls: [{ id, name: 'bash', arguments: { command } }] });

describe('openSession: two hosts in one process', () => {
  it('share pools, keep their own session ids, and publish immutable snapshots', async () => {
    const sb = sandbox((dir) => `[[hooks.hooks]]\nevent = "session_start"\ncommand = "echo $DEEPSEEK_SESSION_ID >> ${dir}/starts.log"\n`);
    const fake = await server(() => ({ text: 'hi', usage: { prompt_tokens: 10, completion_tokens: 2 } }));
    const pools = createSharedPools();
    const a = await openSession({ workspace: sb.ws, env: sb.env, profile: 'tui', provider: provider(fake), pools });
    const b = await openSession({ workspace: sb.ws, env: sb.env, profile: 'tui', provider: provider(fake), pools });
    cleanups.push(async () => {
      await a.dispose();
      await b.dispose();
      await closeSharedPools(pools);
    });
    expect(a.sessionId).toMatch(/^sess_[0-9a-f]{8}$/);
    expect(b.sessionId).toMatch(/^sess_[0-9a-f]{8}$/);
    expect(a.sessionId).not.toBe(b.sessionId);

    const snapshots: SessionSnapshot[] = [];
    const unsubscribe = a.subscribe((e) => {
      if (e.type === 'snapshot') snapshots.push(a.getSnapshot());
    });
    const first = a.getSnapshot();
    expect(a.getSnapshot()).toBe(first); // same object between changes
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toMatchObject({ state: 'idle', busy: false, mode: 'work', posture: 'ask', queuedCount: 0, sessionId: a.sessionId, profile: 'tui' });

    await a.start();
    await b.start();
    const r = await a.submit('hello');
    expect(r.kind === 'ran' && r.summary.status).toBe('completed');
    expect(snapshots.some((s) => s.state === 'in_progress' && s.busy && s.turnId?.startsWith('turn_'))).toBe(true);
    const after = a.getSnapshot();
    expect(after).not.toBe(first);
    expect(after).toMatchObject({ state: 'idle', busy: false, turnId: null, lastTurnStatus: 'completed', totals: { sessionTokens: 12, conversationTokens: 12, inputTokens: 10, outputTokens: 2 } });
    expect(b.getSnapshot().totals.sessionTokens).toBe(0);

    unsubscribe();
    unsubscribe(); // idempotent
    const seen = snapshots.length;
    a.setPosture('full_access');
    expect(a.getSnapshot().posture).toBe('full_access');
    expect(snapshots.length).toBe(seen);

    await pools.observerDispatcher.idle();
    const starts = readFileSync(join(sb.dir, 'starts.log'), 'utf8').trim().split('\n').sort();
    expect(starts).toEqual([a.sessionId, b.sessionId].sort());
  });

  it('cancel interrupts the running turn; setPosture changes what the next call needs', async () => {
    const sb = sandbox(() => '');
    const fake = await server([{ text: 'slow', delayMs: 5_000 }, bash('true'), { text: 'done' }]);
    const approvals: string[] = [];
    const host = await openSession({
      workspace: sb.ws,
      env: sb.env,
      profile: 'tui',
      provider: provider(fake),
      interaction: { approve: async (r) => (approvals.push(r.reason), 'deny'), askUser: async () => null },
    });
    cleanups.push(() => host.dispose());
    const running = host.submit('take your time');
    await new Promise((r) => setTimeout(r, 100));
    expect(host.getSnapshot().busy).toBe(true);
    await expect(host.submit('again')).rejects.toMatchObject({ category: 'state' });
    host.cancel();
    const r = await running;
    expect(r.kind === 'ran' && r.summary.status).toBe('interrupted');
    expect(host.getSnapshot().lastTurnStatus).toBe('interrupted');

    host.setPosture('full_access');
    const second = await host.submit('run true');
    expect(second.kind === 'ran' && second.summary.status).toBe('completed');
    expect(approvals).toEqual([]); // Full Access never prompts
  });

  it('cancel while message_submit hooks run interrupts the turn before the model is asked', async () => {
    const sb = sandbox((dir) => `[[hooks.hooks]]\nevent = "message_submit"\ncommand = "${script(dir, 'slow.sh', 'sleep 0.5')}"\n`);
    const fake = await server([{ text: 'should not be asked' }]);
    const host = await openSession({ workspace: sb.ws, env: sb.env, profile: 'tui', provider: provider(fake) });
    cleanups.push(() => host.dispose());
    const running = host.submit('hello');
    await new Promise((r) => setTimeout(r, 150));
    expect(host.getSnapshot().busy).toBe(true);
    host.cancel();
    const r = await running;
    expect(r.kind === 'ran' && r.summary.status).toBe('interrupted');
    expect(fake.turnsServed).toBe(0);
  });

  it('queues behind a running turn: counted in turn_end, then dispatched through message_submit', async () => {
    const sb = sandbox(
      (dir) =>
        `[[hooks.hooks]]\nevent = "turn_end"\ncommand = "cat >> ${dir}/turn_end.jsonl; echo >> ${dir}/turn_end.jsonl"\n` +
        `[[hooks.hooks]]\nevent = "message_submit"\ncommand = "${script(dir, 'shout.sh', `printf '{"text":"%s"}' "$(printf '%s' "$DEEPSEEK_MESSAGE" | tr a-z A-Z)"`)}"\n`,
    );
    const fake = await server([{ text: 'one', delayMs: 300 }, { text: 'two' }]);
    const host = await openSession({ workspace: sb.ws, env: sb.env, profile: 'tui', provider: provider(fake) });
    cleanups.push(() => host.dispose());
    const events: HostEvent[] = [];
    host.subscribe((e) => events.push(e));
    await host.start();
    const first = host.submit('first');
    await new Promise((r) => setTimeout(r, 100));
    host.queue('second');
    expect(host.getSnapshot()).toMatchObject({ queuedCount: 1, queued: ['second'] });
    await first;
    // The queued message runs on its own once the first turn ended.
    for (let i = 0; i < 100 && fake.requests.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    for (let i = 0; i < 100 && host.getSnapshot().busy; i++) await new Promise((r) => setTimeout(r, 20));
    const users = (fake.requests[1] as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual(['FIRST', 'SECOND']);
    const submitted = events.filter((e) => e.type === 'message_submitted');
    expect(submitted.map((e) => e.type === 'message_submitted' && [e.source, e.text, e.rewritten])).toEqual([
      ['fresh', 'FIRST', true],
      ['queued', 'SECOND', true],
    ]);
    // Each message_submit hook that ran is reported once, with its result and how long it took.
    const finished = events.flatMap((e) => (e.type === 'hook_finished' ? [e.hook] : []));
    expect(finished.map((h) => [h.event, h.result, h.index, h.total])).toEqual([
      ['message_submit', 'rewrote', 1, 1],
      ['message_submit', 'rewrote', 1, 1],
    ]);
    expect(finished.every((h) => h.durationMs > 0)).toBe(true);
    expect(events.filter((e) => e.type === 'hook_started')).toHaveLength(2);
    await host.end();
    // Observers of consecutive events may finish in any order (two workers): order by creation.
    const ends = readFileSync(join(sb.dir, 'turn_end.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { created_at: string; queued_message_count: number });
    ends.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
    expect(ends.map((d) => d.queued_message_count)).toEqual([1, 0]);
  });

  it('takes the conversation out as plain JSON and resumes it with the same session id', async () => {
    const sb = sandbox(() => '');
    const fake = await server([{ text: 'first answer' }, { text: 'second answer' }]);
    const host = await openSession({ workspace: sb.ws, env: sb.env, profile: 'runtime', provider: provider(fake) });
    await host.submit('remember 42');
    const stored = JSON.parse(JSON.stringify(host.conversation()));
    await host.dispose();
    expect(stored).toMatchObject({ version: 1, sessionId: host.sessionId, mode: 'work', posture: 'ask' });
    expect(stored.history.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);

    const resumed = await openSession({ workspace: sb.ws, env: sb.env, profile: 'runtime', provider: provider(fake), history: stored });
    cleanups.push(() => resumed.dispose());
    expect(resumed.sessionId).toBe(host.sessionId);
    expect(resumed.getSnapshot().totals).toEqual(stored.totals);
    await resumed.submit('what was it?');
    const sent = (fake.requests[1] as { messages: { role: string; content: string | null }[] }).messages;
    expect(sent.filter((m) => m.role !== 'system').map((m) => [m.role, m.content])).toEqual([
      ['user', 'remember 42'],
      ['assistant', 'first answer'],
      ['user', 'what was it?'],
    ]);
  });

  it('a config typo is an EngineError naming the file and line; nothing is silently dropped', async () => {
    const sb = sandbox(() => '');
    writeFileSync(join(sb.home, 'config.toml'), '[hooks\n');
    const err = await openSession({ workspace: sb.ws, env: sb.env, profile: 'tui', provider: provider(await server([])) }).catch((e) => e);
    expect(EngineError.isInstance(err)).toBe(true);
    expect(err.category).toBe('config');
    expect(err.message).toContain('config.toml');
    expect(err.issues[0].line).toBe(1);
  });

  it('reload picks up an edited config with the same session id', async () => {
    const sb = sandbox(() => '');
    const fake = await server([bash('echo hi'), { text: 'ok' }]);
    const host = await openSession({ workspace: sb.ws, env: sb.env, profile: 'tui', provider: provider(fake), flags: { posture: 'full_access' } });
    cleanups.push(() => host.dispose());
    const id = host.sessionId;
    const gate = script(sb.dir, 'deny.sh', `echo '{"decision":"deny","reason":"not today"}'`);
    writeFileSync(join(sb.home, 'config.toml'), `[hooks]\n[[hooks.hooks]]\nname = "no"\nevent = "tool_call_before"\ncommand = "${gate}"\n`);
    const report = host.reload();
    expect(report).toMatchObject({ changed: true, hookCount: 1 });
    await host.submit('go');
    expect(host.sessionId).toBe(id);
    const tool = (fake.requests[1] as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'tool');
    expect(tool?.content).toContain('not today');

    writeFileSync(join(sb.home, 'config.toml'), `[hooks\n`);
    const broken = host.reload();
    expect(broken.changed).toBe(false);
    expect(broken.failed).toBe(true);
    expect(broken.hookCount).toBe(1);
    expect(broken.notes[0]).toMatch(/not reloaded/);
    expect(report.failed).toBeUndefined();
  });
});

describe('typed permission rules (permissions.toml) through a session', () => {
  it('a typed deny blocks even under Full Access and without hooks; a bad entry is a notice; a broken file fails closed', async () => {
    const sb = sandbox(() => '');
    writeFileSync(join(sb.home, 'permissions.toml'), `# rules\n[[rules]]\ntool = "bash"\ncommand = "rm *"\naction = "deny"\n\n[[rules]]\ntool = "bash"\naction = "alow"\n`);
    const fake = await server([bash('rm -rf build'), { text: 'ok' }]);
    const host = await openSession({ workspace: sb.ws, env: sb.env, profile: 'exec', provider: provider(fake), flags: { posture: 'full_access' } });
    cleanups.push(() => host.dispose());
    const notices: string[] = [];
    host.subscribe((e) => {
      if (e.type === 'notice') notices.push(e.notice.message);
    });
    await host.submit('clean');
    const tool = (fake.requests[1] as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'tool');
    // The denial the model reads names the file, never the user's home.
    expect(tool?.content).toContain('a permission rule (permissions.toml:2) denies this call');
    expect(tool?.content).not.toContain(sb.home);
    expect(notices).toContainEqual(expect.stringMatching(/permissions\.toml:7: rejected: rule 2 — unknown action `alow`; did you mean `allow`/));

    writeFileSync(join(sb.home, 'permissions.toml'), '[[rules]\n');
    const err = await openSession({ workspace: sb.ws, env: sb.env, profile: 'exec', provider: provider(fake) }).catch((e) => e);
    expect(err).toMatchObject({ category: 'config' });
    expect(err.message).toContain('permissions.toml');
  });

  it('"always" writes the rule under the file\'s comments and applies it in the session at once', async () => {
    const sb = sandbox(() => '');
    writeFileSync(join(sb.home, 'permissions.toml'), '# my rules\n\n# keep me\n');
    const fake = await server([bash('make test', 'call_1'), { text: 'one' }, bash('make test', 'call_2'), { text: 'two' }]);
    const asked: string[] = [];
    let host!: Awaited<ReturnType<typeof openSession>>;
    host = await openSession({
      workspace: sb.ws,
      env: sb.env,
      profile: 'runtime',
      provider: provider(fake),
      interaction: {
        approve: async (request) => {
          asked.push(request.callId);
          const r = host.rememberAlways(request);
          expect(r).toMatchObject({ ok: true, rule: { tool: 'bash', command: 'make test', workspace: sb.ws, action: 'allow' }, file: join(sb.home, 'permissions.toml') });
          return 'allow';
        },
        askUser: async () => null,
      },
    });
    cleanups.push(() => host.dispose());
    await host.submit('first');
    await host.submit('again');
    // Asked once: the second identical call ran under the rule just written.
    expect(asked).toEqual(['call_1']);
    const text = readFileSync(join(sb.home, 'permissions.toml'), 'utf8');
    expect(text.startsWith('# my rules\n\n# keep me\n')).toBe(true);
    expect(text).toContain('command = "make test"');
    // A call no rule can express writes nothing.
    expect(host.rememberAlways({ id: 'a', callId: 'c', tool: 'bash', input: { command: 'rm *.log' }, reason: 'posture', summary: '' })).toMatchObject({ ok: false });
    expect(readFileSync(join(sb.home, 'permissions.toml'), 'utf8')).toBe(text);
  });

  it('a bad [retry] value is reported with its line and a fix, never dropped', async () => {
    const sb = sandbox(() => '');
    writeFileSync(join(sb.home, 'config.toml'), '# retry\n[retry]\nmax_retires = 3\n');
    const err = await openSession({ workspace: sb.ws, env: sb.env, profile: 'exec', provider: provider(await server([])) }).catch((e) => e);
    expect(err).toMatchObject({ category: 'config' });
    expect(err.message).toMatch(/config\.toml:3/);
    expect(err.message).toContain('max_retries');
  });
});

describe('hooks test and a real session share one gate chain', () => {
  it('give identical decision records for the same calls', async () => {
    const sb = sandbox(
      (dir) =>
        `[[hooks.hooks]]\nname = "widen"\nevent = "tool_call_before"\ncommand = "${script(dir, 'widen.sh', `case "$DEEPSEEK_TOOL_ARGS" in *'"ls"'*) echo '{"updatedInput":{"command":"ls -la"},"additionalContext":"widened"}';; *rm*) echo '{"decision":"deny","reason":"no rm"}';; *bad*) echo '{"updatedInput":{"cmd":1}}';; esac`)}"\n`,
    );
    const calls = [
      { id: 'c1', name: 'bash', input: { command: 'ls' } },
      { id: 'c2', name: 'bash', input: { command: 'rm -rf x' } },
      { id: 'c3', name: 'bash', input: { command: 'bad' } },
      { id: 'c4', name: 'read', input: { path: 'nothing.txt' } },
    ];
    const fake = await server([{ tool_calls: calls.map((c) => ({ id: c.id, name: c.name, arguments: c.input })) }, { text: 'done' }]);
    const host = await openSession({ workspace: sb.ws, env: sb.env, profile: 'tui', provider: provider(fake), flags: { posture: 'full_access' } });
    cleanups.push(() => host.dispose());
    const real = new Map<string, unknown>();
    host.subscribe((e) => {
      if (e.type === 'tool_call_completed' && e.outcome.decision) real.set(e.outcome.id, gateDecisionToJson(e.outcome.decision));
    });
    await host.submit('go');

    const harness = HookHarness.open({ workspace: sb.ws, env: sb.env });
    cleanups.push(() => harness.close());
    const stable = (r: unknown) => JSON.parse(JSON.stringify(r, (k, v) => (k === 'duration_ms' ? 0 : v)));
    for (const c of calls) {
      const dry = await harness.planCall({ ...c, mode: 'work' });
      expect(stable(gateDecisionToJson(dry.decision))).toEqual(stable(real.get(c.id)));
    }
    const bad = await harness.planCall({ ...calls[2]!, mode: 'work' });
    expect(bad).toMatchObject({ effective: 'deny', plan: { kind: 'blocked', stage: 'rewrite' } });
  });
});
