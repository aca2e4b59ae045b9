import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentSession, toolErrorText } from './session.js';
import { ReplayProvider } from './provider/replay-provider.js';
import { parseReplayScript } from './provider/replay-script.js';
import { approvalDenialText, type ApprovalAnswer, type EngineEvent } from './events.js';
import { ToolError } from './tools/tool.js';

const ws = () => realpathSync(mkdtempSync(join(tmpdir(), 'cw-session-')));
const replay = (...lines: object[]) => new ReplayProvider(parseReplayScript(lines.map((l) => JSON.stringify(l)).join('\n'), 'test.jsonl'));
const userMessages = (p: ReplayProvider, n: number) => p.requests[n]!.messages.filter((m) => m.role === 'user').map((m) => (m as { content: string }).content);
const toolMessage = (p: ReplayProvider, n: number) => {
  const tools = p.requests[n]!.messages.filter((m) => m.role === 'tool');
  return (tools[tools.length - 1] as { content: string }).content;
};

describe('AgentSession', () => {
  it('steps until the model stops calling tools, and keeps history consistent', async () => {
    const provider = replay({ tool_calls: [{ id: 'a', name: 'list_dir', arguments: {} }] }, { text: 'done' });
    const s = new AgentSession({ provider, workspace: ws(), posture: 'full_access' });
    const r = await s.runTurn('look');
    expect(r).toMatchObject({ status: 'completed', text: 'done', toolCount: 1 });
    expect(s.history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('injects a steer at the next step of the running turn', async () => {
    const provider = replay({ tool_calls: [{ id: 'a', name: 'list_dir', arguments: {} }], delay_ms: 100 }, { text: 'ok' });
    const s = new AgentSession({ provider, workspace: ws(), posture: 'full_access' });
    const running = s.runTurn('first');
    await new Promise((r) => setTimeout(r, 20));
    expect(s.steer('and also this')).toBe(true);
    await running;
    expect(userMessages(provider, 1)).toEqual(['first', 'and also this']);
    expect(s.steer('too late')).toBe(false);
  });

  it('cancels a running turn: interrupted, not failed', async () => {
    const provider = replay({ text: 'slow', delay_ms: 5_000 });
    const s = new AgentSession({ provider, workspace: ws() });
    const running = s.runTurn('wait');
    setTimeout(() => s.cancel(), 50);
    const r = await running;
    expect(r).toMatchObject({ status: 'interrupted', errorCategory: 'cancelled', error: null });
  });

  it('refuses a second concurrent turn', async () => {
    const s = new AgentSession({ provider: replay({ text: 'x', delay_ms: 100 }), workspace: ws() });
    const first = s.runTurn('a');
    await expect(s.runTurn('b')).rejects.toThrow(/already running/);
    await first;
  });

  it('fails the turn, classified, when the model errors for good', async () => {
    const events: EngineEvent[] = [];
    const s = new AgentSession({ provider: replay({ error: { category: 'authentication', message: 'bad key' } }), workspace: ws() });
    s.on((e) => events.push(e));
    const r = await s.runTurn('hi');
    expect(r).toMatchObject({ status: 'failed', errorCategory: 'authentication' });
    expect(events.find((e) => e.type === 'error')).toMatchObject({ category: 'authentication', terminal: true });
  });

  it('keeps the todo list', async () => {
    const provider = replay(
      {
        tool_calls: [
          {
            id: 't',
            name: 'todo_write',
            arguments: {
              todos: [
                { content: 'a', status: 'completed' },
                { content: 'b', status: 'pending' },
              ],
            },
          },
        ],
      },
      { text: 'ok' },
    );
    const s = new AgentSession({ provider, workspace: ws() });
    await s.runTurn('plan');
    expect(s.todos).toEqual([
      { content: 'a', status: 'completed' },
      { content: 'b', status: 'pending' },
    ]);
    expect(toolMessage(provider, 1)).toBe('todo list updated: 2 item(s), 1 completed');
  });

  it('Auto-Review refuses a dangerous command without asking, and runs an ordinary one', async () => {
    let asked = 0;
    const provider = replay(
      { tool_calls: [{ id: 'a', name: 'bash', arguments: { command: 'rm -rf /' } }] },
      { tool_calls: [{ id: 'b', name: 'bash', arguments: { command: 'echo fine' } }] },
      { text: 'ok' },
    );
    const s = new AgentSession({ provider, workspace: ws(), posture: 'auto_review', interaction: { approve: async () => (asked++, 'allow'), askUser: async () => null } });
    await s.runTurn('go');
    expect(asked).toBe(0);
    expect(toolMessage(provider, 1)).toMatch(/Auto-Review refused this command as dangerous/);
    expect(toolMessage(provider, 2)).toBe('fine\n[exit code: 0]');
  });

  it('Ask posture prompts for writes; allow for the session stops the prompts for that tool', async () => {
    const dir = ws();
    const asked: string[] = [];
    const provider = replay(
      { tool_calls: [{ id: 'a', name: 'write', arguments: { path: 'a.txt', content: '1' } }] },
      { tool_calls: [{ id: 'b', name: 'write', arguments: { path: 'b.txt', content: '2' } }] },
      { text: 'ok' },
    );
    const s = new AgentSession({ provider, workspace: dir, posture: 'ask', interaction: { approve: async (r) => (asked.push(r.callId), 'allow_session'), askUser: async () => null } });
    await s.runTurn('write');
    expect(asked).toEqual(['a']);
  });

  it('tells the model who denied an approval: the user, nobody in time, the Auto-Review policy, or the end of the turn', async () => {
    const seen: Record<string, string> = {};
    const answers: ApprovalAnswer[] = ['deny', { deny: 'expired' }, { deny: 'auto_review' }, { deny: 'interrupted' }];
    for (const answer of answers) {
      const provider = replay({ tool_calls: [{ id: 'a', name: 'write', arguments: { path: 'a.txt', content: '1' } }] }, { text: 'ok' });
      const s = new AgentSession({ provider, workspace: ws(), posture: 'ask', interaction: { approve: async () => answer, askUser: async () => null } });
      await s.runTurn('write');
      const text = toolMessage(provider, 1);
      seen[typeof answer === 'string' ? 'user' : answer.deny] = text;
      expect(text).toBe(`Error: Tool 'write' was denied: ${approvalDenialText(typeof answer === 'string' ? 'user' : answer.deny, 'posture')}`);
    }
    expect(seen.user).toContain('the user denied this call');
    for (const cause of ['expired', 'auto_review', 'interrupted']) expect(seen[cause]).not.toMatch(/user denied/);
    expect(seen.expired).toContain('nobody answered in time');
    expect(seen.auto_review).toContain('Auto-Review asks nobody');
    expect(new Set(Object.values(seen)).size).toBe(4);
  });

  it('reports unknown tools, invalid JSON and schema violations to the model', async () => {
    const provider = replay(
      { tool_calls: [{ id: 'a', name: 'teleport', arguments: {} }] },
      { tool_calls: [{ id: 'b', name: 'read', arguments: '{not json' }] },
      { tool_calls: [{ id: 'c', name: 'read', arguments: { file: 'x' } }] },
      { text: 'ok' },
    );
    const s = new AgentSession({ provider, workspace: ws(), posture: 'full_access' });
    await s.runTurn('go');
    expect(toolMessage(provider, 1)).toMatch(/^Error: unknown tool 'teleport'\. Available tools: read, write, edit, bash, list_dir, grep, todo_write, request_user_input, agent$/);
    expect(toolMessage(provider, 2)).toBe("Error: the arguments for 'read' are not valid JSON");
    expect(toolMessage(provider, 3)).toMatch(/^Error: invalid input for 'read': .*Expected input schema: \{/);
  });

  it('stops at the step limit with a budget failure', async () => {
    const call = { tool_calls: [{ name: 'list_dir', arguments: {} }] };
    const s = new AgentSession({ provider: replay(call, call, call), workspace: ws(), posture: 'full_access', maxSteps: 2 });
    expect(await s.runTurn('loop')).toMatchObject({ status: 'failed', errorCategory: 'budget', toolCount: 2 });
  });
});

describe('toolErrorText', () => {
  it('drops the "adjust approval mode" suffix when the message already talks about the mode', () => {
    expect(toolErrorText('bash', new ToolError('hook_denied', 'denied in plan mode'))).toBe("Error: Tool 'bash' was denied: denied in plan mode.");
    expect(toolErrorText('bash', new ToolError('hook_denied', 'nope'))).toBe("Error: Tool 'bash' was denied: nope. Adjust approval mode or request permission.");
  });
});

describe('AgentSession: cancelling a turn stops its hooks', () => {
  it('a slow tool_call_before gate and its child are killed at once; the call is refused as cancelled', async () => {
    const { existsSync, readFileSync } = await import('node:fs');
    const { HookRuntime } = await import('@codewhale/hooks-supervisor');
    const { hookDefinition, hookSet } = await import('@codewhale/hooks-config/testing');
    const dir = ws();
    const pidFile = join(dir, 'child.pid');
    const gate = hookDefinition('tool_call_before', `sh -c 'echo $$ > ${pidFile}; sleep 30' & wait`, { timeoutSecs: 60, effectiveTimeoutSecs: 60 });
    const runtime = new HookRuntime({ hooks: hookSet([gate]), workspace: dir, parentEnv: { PATH: process.env.PATH } });
    const provider = replay({ tool_calls: [{ id: 'a', name: 'list_dir', arguments: {} }] }, { text: 'never' });
    const s = new AgentSession({ provider, workspace: dir, posture: 'full_access', hooks: runtime });
    const events: EngineEvent[] = [];
    s.on((e) => events.push(e));
    const started = performance.now();
    const turn = s.runTurn('go');
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await new Promise((r) => setTimeout(r, 20));
    s.cancel();
    const r = await turn;
    // A wide liveness margin: the gate's budget is 60 s and its child sleeps 30 s.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(r.status).toBe('interrupted');
    const done = events.find((e) => e.type === 'tool_call_completed');
    expect(done && done.type === 'tool_call_completed' ? done.outcome.error?.kind : null).toBe('cancelled');
    const child = Number(readFileSync(pidFile, 'utf8'));
    const alive = () => {
      try {
        process.kill(child, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && alive(); i++) await new Promise((res) => setTimeout(res, 50));
    expect(alive()).toBe(false);
    await runtime.close();
  });
});
