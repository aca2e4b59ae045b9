/**
 * End to end: a real session over a fake OpenAI-compatible server on 127.0.0.1 (real HTTP,
 * real SSE, tool-call arguments split across chunks), with real hook scripts run by the real
 * supervisor. Each test checks what a hook received (env and stdin) and what the model was
 * sent next.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HookRuntime, JsonlLog } from '@codewhale/hooks-supervisor';
import { SessionHost, type HostNotice, type HostProfile } from '../src/session-host.js';
import { OpenAICompatibleProvider } from '../src/provider/openai-compatible.js';
import type { Interaction } from '../src/session.js';
import type { Posture } from '../src/modes.js';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeTurn } from '../src/testing/index.js';
import { hookSet, type HookSpec } from './hook-set.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Harness {
  host: SessionHost;
  runtime: HookRuntime;
  server: FakeOpenAIServer;
  ws: string;
  dir: string;
  notices: HostNotice[];
  /** The chat messages of the n-th request the model received. */
  sent: (n: number) => { role: string; content: string | null; tool_call_id?: string }[];
  /** The last tool message of the n-th request. */
  toolReply: (n: number) => string;
}

async function harness(opts: { turns: FakeTurn[]; hooks: (dir: string) => HookSpec[]; profile?: HostProfile; posture?: Posture; interaction?: Interaction; mode?: 'plan' | 'work' }): Promise<Harness> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-e2e-')));
  const ws = join(dir, 'ws');
  mkdirSync(ws);
  const server = await startFakeOpenAIServer({ turns: opts.turns });
  const runtime = new HookRuntime({
    hooks: hookSet(opts.hooks(dir)),
    workspace: ws,
    parentEnv: { PATH: process.env.PATH, HOME: dir, SECRET_TOKEN: 'ambient-secret' },
    auditLog: new JsonlLog(join(dir, 'audit.log')),
  });
  const notices: HostNotice[] = [];
  const host = new SessionHost({
    provider: new OpenAICompatibleProvider({ id: 'fake', baseUrl: server.url, model: 'fake-model' }),
    workspace: ws,
    hooks: runtime,
    profile: opts.profile ?? 'tui',
    posture: opts.posture ?? 'full_access',
    mode: opts.mode ?? 'work',
    interaction: opts.interaction,
    parentEnv: { PATH: process.env.PATH, HOME: dir, SECRET_TOKEN: 'ambient-secret' },
    retry: { initialDelayMs: 10, maxDelayMs: 20 },
  });
  host.subscribe((e) => {
    if (e.type === 'notice') notices.push(e.notice);
  });
  cleanups.push(async () => {
    await runtime.idle();
    await runtime.close();
    await server.close();
  });
  const sent = (n: number) => (server.requests[n] as { messages: { role: string; content: string | null; tool_call_id?: string }[] }).messages;
  const toolReply = (n: number) => {
    const tools = sent(n).filter((m) => m.role === 'tool');
    return tools[tools.length - 1]!.content ?? '';
  };
  return { host, runtime, server, ws, dir, notices, sent, toolReply };
}

function script(dir: string, name: string, body: string): string {
  const p = join(dir, name);
  writeFileSync(p, `#!/bin/sh\n${body}\n`);
  chmodSync(p, 0o755);
  return p;
}

const bash = (command: string, id = 'call_1'): FakeTurn => ({ tool_calls: [{ id, name: 'bash', arguments: { command } }] });
const done = (text = 'done'): FakeTurn => ({ text, usage: { prompt_tokens: 100, completion_tokens: 10, prompt_cache_hit_tokens: 60, prompt_cache_miss_tokens: 40 } });

describe('tool_call_before through a real session', () => {
  it('denies rm -rf: the model sees the bounded, redacted denial and the command never runs', async () => {
    const h = await harness({
      turns: [bash('rm -rf ./victim'), done()],
      hooks: (dir) => [
        {
          event: 'tool_call_before',
          name: 'no-rm-rf',
          command: script(dir, 'gate.sh', `case "$DEEPSEEK_TOOL_ARGS" in *"rm -rf"*) echo '{"decision":"deny","reason":"rm -rf is not allowed in /home/alice token=abc"}';; esac`),
        },
      ],
    });
    mkdirSync(join(h.ws, 'victim'));
    const r = await h.host.submit('clean up');
    expect(r.kind === 'ran' && r.summary.status).toBe('completed');
    expect(existsSync(join(h.ws, 'victim'))).toBe(true);
    expect(h.toolReply(1)).toBe("Error: Tool 'bash' was denied: ToolCallBefore hook denied tool 'bash': rm [argument] is not allowed in [path] [secret]. Adjust approval mode or request permission.");
  });

  it('exit 2 denies whatever stdout says, with the default reason for plain text', async () => {
    const h = await harness({ turns: [bash('ls'), done()], hooks: () => [{ event: 'tool_call_before', command: `echo 'Tool blocked by security policy'; exit 2` }] });
    await h.host.submit('list');
    expect(h.toolReply(1)).toContain("ToolCallBefore hook denied tool 'bash': ToolCallBefore hook denied tool execution");
  });

  it('rewrites the command: the rewritten command runs, the model sees its output, the receipt records it', async () => {
    const h = await harness({
      turns: [bash('echo original'), done()],
      hooks: (dir) => [
        { event: 'tool_call_before', command: `echo '{"decision":"allow","updatedInput":{"command":"echo rewritten"}}'` },
        { event: 'tool_call_after', command: `printf '%s' "$DEEPSEEK_TOOL_EXECUTION_RECEIPT" > ${dir}/receipt.json; cat > ${dir}/after-stdin.json` },
      ],
    });
    await h.host.submit('say something');
    expect(h.toolReply(1)).toBe('rewritten\n[exit code: 0]');
    await h.runtime.idle();
    const receipt = JSON.parse(readFileSync(join(h.dir, 'receipt.json'), 'utf8'));
    expect(receipt).toMatchObject({ command: 'echo rewritten', cwd: h.ws, state: 'completed', exit_code: 0, stdout: 'rewritten\n', output_kind: 'combined' });
    const doc = JSON.parse(readFileSync(join(h.dir, 'after-stdin.json'), 'utf8'));
    expect(Object.keys(doc)).toEqual([
      'schema_version',
      'event',
      'tool_name',
      'session_id',
      'tool_call_id',
      'session_id_truncated',
      'tool_call_id_truncated',
      'tool_name_truncated',
      'execution_receipt',
    ]);
    expect(doc).toMatchObject({ event: 'tool_call_after', tool_name: 'bash', session_id: h.runtime.sessionId, tool_call_id: 'call_1' });
    expect(doc.execution_receipt).toMatchObject({ command: 'echo rewritten', completion: 'completed', output_mode: 'combined' });
  });

  it('blocks a rewrite the tool would not accept (validated again against the schema)', async () => {
    const h = await harness({ turns: [bash('ls'), done()], hooks: () => [{ event: 'tool_call_before', command: `echo '{"updatedInput":{"cmd":"ls"}}'` }] });
    await h.host.submit('list');
    expect(h.toolReply(1)).toMatch(/^Error: a tool_call_before hook rewrote the input of 'bash' into one the tool does not accept/);
  });

  it('appends [hook context] to a result that ran, and joins several hooks', async () => {
    const h = await harness({
      turns: [bash('echo hi'), done()],
      hooks: () => [
        { event: 'tool_call_before', command: `echo '{"additionalContext":"prod is frozen"}'` },
        { event: 'tool_call_before', command: `echo '{"additionalContext":"be careful"}'` },
      ],
    });
    await h.host.submit('go');
    expect(h.toolReply(1)).toBe('hi\n[exit code: 0]\n\n[hook context] prod is frozen\nbe careful');
  });

  it('gives the gate the engine mode spelling, the session id, and no token total', async () => {
    const h = await harness({
      turns: [bash('true'), done()],
      hooks: (dir) => [{ event: 'tool_call_before', command: `env | grep -E '^(DEEPSEEK|CODEWHALE)_' | sort > ${dir}/gate-env` }],
    });
    await h.host.submit('go');
    const env = readFileSync(join(h.dir, 'gate-env'), 'utf8');
    expect(env).toContain(`DEEPSEEK_SESSION_ID=${h.runtime.sessionId}\n`);
    expect(env).toContain('DEEPSEEK_MODE=Agent\n');
    expect(env).toContain('DEEPSEEK_MODEL=fake-model\n');
    expect(env).toContain('DEEPSEEK_TOOL_ARGS={"command":"true"}\n');
    expect(env).not.toContain('TOTAL_TOKENS');
  });

  it('ask forces the approval prompt in Ask posture; a denial reaches the model', async () => {
    const asked: string[] = [];
    const h = await harness({
      turns: [{ tool_calls: [{ id: 'c1', name: 'read', arguments: { path: 'x.txt' } }] }, done()],
      hooks: () => [{ event: 'tool_call_before', command: `echo '{"decision":"ask"}'` }],
      posture: 'ask',
      interaction: { approve: async (r) => (asked.push(`${r.tool}:${r.reason}`), 'deny'), askUser: async () => null },
    });
    await h.host.submit('read it');
    expect(asked).toEqual(['read:hook']);
    expect(h.toolReply(1)).toBe("Error: Tool 'read' was denied: the user denied this call. Do not retry the same call.");
  });

  it('ask does not downgrade Full Access', async () => {
    const h = await harness({ turns: [bash('echo ran'), done()], hooks: () => [{ event: 'tool_call_before', command: `echo '{"decision":"ask"}'` }], posture: 'full_access' });
    await h.host.submit('go');
    expect(h.toolReply(1)).toBe('ran\n[exit code: 0]');
  });

  it('Plan mode refuses bash before any hook sees it', async () => {
    const h = await harness({ turns: [bash('touch f'), done()], hooks: (dir) => [{ event: 'tool_call_before', command: `touch ${dir}/gate-ran` }], mode: 'plan' });
    await h.host.submit('go');
    expect(h.toolReply(1)).toMatch(/^Error: Tool 'bash' was denied: Plan mode does not run shell commands/);
    expect(existsSync(join(h.dir, 'gate-ran'))).toBe(false);
  });
});

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []);

describe('a shell command and its gates, through a real session', () => {
  it('starts after a gate that allows cleanly, exactly once', async () => {
    const h = await harness({ turns: [bash('echo run >> ../runs; echo hi'), done()], hooks: (dir) => [{ event: 'tool_call_before', command: `echo gate >> ${dir}/runs` }] });
    await h.host.submit('go');
    expect(lines(join(h.dir, 'runs'))).toEqual(['gate', 'run']);
    expect(h.toolReply(1)).toBe('hi\n[exit code: 0]');
  });

  const steering: [string, string, (h: Harness) => void][] = [
    ['a deny (exit 2)', 'exit 2', (h) => expect(h.toolReply(1)).toMatch(/^Error: Tool 'bash' was denied/)],
    ['a JSON deny', `echo '{"decision":"deny","reason":"no"}'`, (h) => expect(h.toolReply(1)).toMatch(/^Error: Tool 'bash' was denied/)],
    ['a rewrite', `echo '{"updatedInput":{"command":"echo other >> ../runs"}}'`, (h) => expect(lines(join(h.dir, 'runs'))).toEqual(['other'])],
    ['context', `echo '{"additionalContext":"careful"}'`, (h) => expect(h.toolReply(1)).toBe('[exit code: 0]\n\n[hook context] careful')],
    ['an explicit allow', `echo '{"decision":"allow"}'`, (h) => expect(h.toolReply(1)).toBe('[exit code: 0]')],
  ];
  for (const [what, gate, check] of steering) {
    it(`after ${what}, the decision says what runs`, async () => {
      const h = await harness({ turns: [bash('echo run >> ../runs'), done()], hooks: () => [{ event: 'tool_call_before', command: gate }] });
      await h.host.submit('go');
      check(h);
      expect(lines(join(h.dir, 'runs')).filter((l) => l === 'run').length).toBe(what === 'context' || what === 'an explicit allow' ? 1 : 0);
    });
  }

  it('in a batch of two calls, both gates run before either command', async () => {
    const h = await harness({
      turns: [
        {
          tool_calls: [
            { id: 'a', name: 'bash', arguments: { command: 'echo run-a >> ../runs' } },
            { id: 'b', name: 'bash', arguments: { command: 'echo run-b >> ../runs' } },
          ],
        },
        done(),
      ],
      hooks: (dir) => [{ event: 'tool_call_before', command: `echo gate >> ${dir}/runs` }],
    });
    await h.host.submit('go');
    expect(lines(join(h.dir, 'runs'))).toEqual(['gate', 'gate', 'run-a', 'run-b']);
  });

  it('a shell_env hook fires before the spawn, and its variables reach the command', async () => {
    const h = await harness({
      turns: [bash('echo "v=$INJECTED" >> ../runs'), done()],
      hooks: () => [
        { event: 'tool_call_before', command: 'true' },
        { event: 'shell_env', command: `echo INJECTED=yes` },
      ],
    });
    await h.host.submit('go');
    expect(lines(join(h.dir, 'runs'))).toEqual(['v=yes']);
  });

  it('a call that needs a prompt (Ask posture) runs once approved', async () => {
    const h = await harness({
      turns: [bash('echo run >> ../runs'), done()],
      hooks: () => [{ event: 'tool_call_before', command: 'true' }],
      posture: 'ask',
      interaction: { approve: async () => 'allow', askUser: async () => null },
    });
    await h.host.submit('go');
    expect(lines(join(h.dir, 'runs'))).toEqual(['run']);
  });
});

describe('shell_env through a real session', () => {
  it('injects a token the command sees while the ambient secret stays hidden, auditing key names only', async () => {
    const h = await harness({
      turns: [bash('echo "token=$DEPLOY_TOKEN secret=$SECRET_TOKEN len=${#DEPLOY_TOKEN}"'), done()],
      hooks: () => [{ event: 'shell_env', name: 'creds', command: `echo 'export DEPLOY_TOKEN="short-lived-123"'` }],
    });
    await h.host.submit('deploy');
    // The command saw the value (its length); the model sees it masked, as a CI log would show it.
    expect(h.toolReply(1)).toBe(`token=*** secret= len=${'short-lived-123'.length}\n[exit code: 0]`);
    const audit = readFileSync(join(h.dir, 'audit.log'), 'utf8');
    expect(JSON.parse(audit.trim())).toMatchObject({ event: 'shell_env_hook', details: { hook: 'creds', tool: 'exec_shell', keys: ['DEPLOY_TOKEN'] } });
    expect(audit).not.toContain('short-lived-123');
  });
});

describe('lifecycle hooks from the session host', () => {
  it('message_submit replaces the text before history and the model; a block never reaches the model', async () => {
    const h = await harness({
      turns: [done('ok')],
      hooks: () => [
        {
          event: 'message_submit',
          command: `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const t=JSON.parse(s).text;if(t.includes("secret"))process.exit(2);console.log(JSON.stringify({text:"[hooked] "+t}))})'`,
        },
      ],
    });
    const first = await h.host.submit('hello');
    expect(first).toMatchObject({ kind: 'ran', text: '[hooked] hello' });
    expect(
      h
        .sent(0)
        .filter((m) => m.role === 'user')
        .map((m) => m.content),
    ).toEqual(['[hooked] hello']);
    const blocked = await h.host.submit('my secret');
    expect(blocked).toEqual({ kind: 'blocked', reason: 'message_submit hook blocked submission' });
    expect(h.server.requests).toHaveLength(1);
    expect(h.notices.map((n) => n.level)).toEqual(['warning']);
  });

  it('fires turn_end with usage, totals, tool count and queued count, and the state events in order', async () => {
    const h = await harness({
      turns: [
        { tool_calls: [{ id: 'q', name: 'request_user_input', arguments: { questions: [{ id: 'a', header: 'Pick', question: 'Which?', options: [{ label: 'x' }, { label: 'y' }] }] } }] },
        done(),
      ],
      hooks: (dir) => [
        { event: 'turn_end', command: `cat > ${dir}/turn_end.json` },
        ...(['session_busy', 'waiting_for_user', 'session_idle'] as const).map((event) => ({ event, command: `printf '%s %s\\n' "${event}" "$(cat)" >> ${dir}/states.log` })),
      ],
      interaction: { approve: async () => 'allow', askUser: async () => ({ a: 'x' }) },
    });
    await h.host.start();
    await h.host.submit('ask me');
    await h.runtime.idle();
    const doc = JSON.parse(readFileSync(join(h.dir, 'turn_end.json'), 'utf8'));
    expect(doc).toMatchObject({
      event: 'turn_end',
      session_id: h.runtime.sessionId,
      workspace: h.ws,
      mode: 'ACT',
      model_backed: true,
      provider: 'fake',
      model: 'fake-model',
      status: 'completed',
      error: null,
      tool_count: 1,
      queued_message_count: 0,
      stop_hook_active: false,
    });
    expect(doc.created_at).toMatch(/\+00:00$/);
    expect(doc.usage).toMatchObject({ prompt_cache_hit_tokens: 60, prompt_cache_miss_tokens: 40 });
    expect(doc.totals.session_tokens).toBe(doc.usage.input_tokens + doc.usage.output_tokens);
    const pairs = readFileSync(join(h.dir, 'states.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf(' ')), JSON.parse(line.slice(line.indexOf(' ') + 1))]);
    // Two workers: completion order is not guaranteed, submission order is; compare as a set.
    expect(pairs).toEqual(
      expect.arrayContaining([
        ['session_busy', { from: 'idle', to: 'in_progress' }],
        ['waiting_for_user', { from: 'in_progress', to: 'waiting', reason: 'user_input' }],
        ['session_busy', { from: 'waiting', to: 'in_progress' }],
        ['session_idle', { from: 'in_progress', to: 'idle', last_turn_status: 'completed' }],
      ]),
    );
    expect(pairs).toHaveLength(4);
  });

  it('fires tool_call_after for every call and on_error with the exit code for a failing command', async () => {
    const h = await harness({
      turns: [bash('exit 3'), done()],
      hooks: (dir) => [
        { event: 'tool_call_after', command: `echo "after $DEEPSEEK_TOOL_SUCCESS $DEEPSEEK_TOOL_EXIT_CODE $DEEPSEEK_TOOL_STATUS" >> ${dir}/after.log` },
        { event: 'on_error', condition: { type: 'exit_code', code: 3n }, command: `echo "$DEEPSEEK_ERROR" > ${dir}/error.log` },
      ],
    });
    await h.host.submit('fail');
    await h.runtime.idle();
    expect(readFileSync(join(h.dir, 'after.log'), 'utf8')).toBe('after false 3 failed\n');
    expect(readFileSync(join(h.dir, 'error.log'), 'utf8')).toBe('tool `bash` failed: [exit code: 3]\n');
  });

  it('a denial is not a tool failure (D32): tool_call_after fires with success false, on_error does not', async () => {
    const h = await harness({
      turns: [bash('echo denied-by-hook', 'c1'), bash('echo denied-by-user', 'c2'), bash('exit 3', 'c3'), done()],
      hooks: (dir) => [
        { event: 'tool_call_before', command: `case "$DEEPSEEK_TOOL_ARGS" in *denied-by-hook*) exit 2;; *denied-by-user*) echo '{"decision":"ask","reason":"check"}';; esac` },
        { event: 'tool_call_after', command: `echo "after $DEEPSEEK_TOOL_CALL_ID $DEEPSEEK_TOOL_SUCCESS" >> ${dir}/after.log` },
        { event: 'on_error', command: `echo "on_error $DEEPSEEK_TOOL_CALL_ID" >> ${dir}/error.log` },
      ],
      posture: 'ask',
      interaction: { approve: async (r) => (r.input && JSON.stringify(r.input).includes('denied-by-user') ? 'deny' : 'allow'), askUser: async () => null },
    });
    await h.host.submit('three calls');
    await h.runtime.idle();
    expect(readFileSync(join(h.dir, 'after.log'), 'utf8').trim().split('\n').sort()).toEqual(['after c1 false', 'after c2 false', 'after c3 false']);
    // Only the command that ran and failed is an error.
    expect(readFileSync(join(h.dir, 'error.log'), 'utf8')).toBe('on_error c3\n');
  });

  it('a queued follow-up keeps the session busy (D31): one busy/idle pair for a turn and its queued message', async () => {
    const h = await harness({
      turns: [{ ...done('first'), delayMs: 300 }, done('second')],
      hooks: (dir) => (['session_busy', 'session_idle'] as const).map((event) => ({ event, command: `printf '%s %s\\n' "${event}" "$(cat)" >> ${dir}/states.log` })),
    });
    await h.host.start();
    let ended = 0;
    const both = new Promise<void>((r) => h.host.subscribe((e) => void (e.type === 'turn_completed' && ++ended === 2 && r())));
    const first = h.host.submit('one');
    h.host.queue('two');
    await first;
    await both;
    for (let i = 0; i < 100 && h.host.getSnapshot().state !== 'idle'; i++) await new Promise((r) => setTimeout(r, 10));
    await h.runtime.idle();
    expect(h.host.getSnapshot().state).toBe('idle');
    const lines = readFileSync(join(h.dir, 'states.log'), 'utf8').trim().split('\n').sort();
    expect(lines).toEqual(['session_busy {"from":"idle","to":"in_progress"}', 'session_idle {"from":"in_progress","to":"idle","last_turn_status":"completed"}']);
  });

  it('a queued message that its message_submit hook blocks still lets the session settle to idle', async () => {
    const h = await harness({
      turns: [{ ...done('first'), delayMs: 300 }],
      hooks: (dir) => [
        { event: 'message_submit', command: `case "$DEEPSEEK_MESSAGE" in *blocked*) exit 2;; esac` },
        ...(['session_busy', 'session_idle'] as const).map((event) => ({ event, command: `printf '%s\\n' "${event}" >> ${dir}/states.log` })),
      ],
    });
    await h.host.start();
    const first = h.host.submit('one');
    h.host.queue('this is blocked');
    await first;
    for (let i = 0; i < 300 && (h.host.getSnapshot().state !== 'idle' || h.host.getSnapshot().busy); i++) await new Promise((r) => setTimeout(r, 10));
    await h.runtime.idle();
    expect(h.host.getSnapshot().state).toBe('idle');
    expect(readFileSync(join(h.dir, 'states.log'), 'utf8').trim().split('\n').sort()).toEqual(['session_busy', 'session_idle']);
  });

  it("a sub-agent's own tool calls fire no operator hooks; the parent fires subagent_spawn and subagent_complete", async () => {
    const h = await harness({
      turns: [{ tool_calls: [{ id: 'a1', name: 'agent', arguments: { prompt: 'inspect the repo' } }] }, bash('echo from-child', 'child_call'), done('child finished'), done('parent finished')],
      hooks: (dir) => [
        { event: 'tool_call_before', command: `echo "$DEEPSEEK_TOOL_NAME" >> ${dir}/gated.log` },
        { event: 'shell_env', command: `echo shell_env >> ${dir}/gated.log` },
        { event: 'subagent_spawn', command: `cat > ${dir}/spawn.json` },
        { event: 'subagent_complete', command: `cat > ${dir}/complete.json` },
      ],
    });
    await h.host.submit('delegate');
    await h.runtime.idle();
    expect(readFileSync(join(h.dir, 'gated.log'), 'utf8')).toBe('agent\n');
    expect(JSON.parse(readFileSync(join(h.dir, 'spawn.json'), 'utf8'))).toMatchObject({ event: 'subagent_spawn', agent_id: 'agent_1', prompt_preview: 'inspect the repo', prompt_truncated: false });
    expect(JSON.parse(readFileSync(join(h.dir, 'complete.json'), 'utf8'))).toMatchObject({ event: 'subagent_complete', agent_id: 'agent_1', result_preview: 'child finished', status: 'completed' });
    // The child's bash ran (its output reached the child's model), without any hook.
    expect(JSON.stringify(h.server.requests[2])).toContain('from-child');
  });

  it('fires mode_change with both labels, and session_start / session_end', async () => {
    const h = await harness({
      turns: [],
      hooks: (dir) => [
        { event: 'mode_change', command: `echo "$DEEPSEEK_PREVIOUS_MODE->$DEEPSEEK_MODE" >> ${dir}/mode.log` },
        { event: 'session_start', command: `echo start >> ${dir}/life.log` },
        { event: 'session_end', command: `echo end >> ${dir}/life.log` },
      ],
    });
    await h.host.start();
    h.host.setMode('plan');
    h.host.setMode('plan');
    h.host.setMode('operate');
    await h.host.end();
    await h.runtime.idle();
    // Two workers: hooks of consecutive events may finish in any order; compare as a set.
    expect(readFileSync(join(h.dir, 'mode.log'), 'utf8').trim().split('\n').sort()).toEqual(['ACT->PLAN', 'PLAN->OPERATE']);
    expect(readFileSync(join(h.dir, 'life.log'), 'utf8')).toBe('start\nend\n');
  });

  it('a terminal auth failure fires on_error and session_error, and the turn fails', async () => {
    const h = await harness({
      turns: [{ status: 401, body: { error: { message: 'bad key' } } }],
      hooks: (dir) => [
        { event: 'on_error', command: `echo "$DEEPSEEK_ERROR" > ${dir}/err.log` },
        { event: 'session_error', command: `cat > ${dir}/session_error.json` },
      ],
    });
    const r = await h.host.submit('hi');
    expect(r.kind === 'ran' && r.summary).toMatchObject({ status: 'failed', errorCategory: 'authentication' });
    await h.runtime.idle();
    expect(readFileSync(join(h.dir, 'err.log'), 'utf8')).toMatch(/401/);
    expect(Object.keys(JSON.parse(readFileSync(join(h.dir, 'session_error.json'), 'utf8')))).toEqual(['status', 'error']);
  });

  it('the exec profile fires only the two engine events', async () => {
    const h = await harness({
      turns: [bash('true'), done()],
      profile: 'exec',
      hooks: (dir) => [
        { event: 'tool_call_before', command: `echo before >> ${dir}/fired.log` },
        { event: 'tool_call_after', command: `echo after >> ${dir}/fired.log` },
        { event: 'turn_end', command: `echo turn_end >> ${dir}/fired.log` },
        { event: 'message_submit', command: `echo submit >> ${dir}/fired.log` },
      ],
    });
    await h.host.start();
    await h.host.submit('go');
    await h.runtime.idle();
    expect(readFileSync(join(h.dir, 'fired.log'), 'utf8')).toBe('before\n');
  });

  it('the runtime profile fires the four Runtime API events and no UI event', async () => {
    const h = await harness({
      turns: [bash('exit 1'), done()],
      profile: 'runtime',
      hooks: (dir) => [
        ...(['tool_call_before', 'tool_call_after', 'on_error', 'turn_end', 'session_busy', 'message_submit'] as const).map((event) => ({ event, command: `echo ${event} >> ${dir}/fired.log` })),
        { event: 'shell_env', command: `echo shell_env >> ${dir}/fired.log` },
      ],
    });
    await h.host.start();
    await h.host.submit('go');
    await h.runtime.idle();
    const fired = readFileSync(join(h.dir, 'fired.log'), 'utf8').trim().split('\n').sort();
    expect(fired).toEqual(['on_error', 'shell_env', 'tool_call_after', 'tool_call_before']);
  });
});
