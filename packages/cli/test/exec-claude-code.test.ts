/**
 * Claude Code hook scripts (docs/recipes/claude-code/), unchanged, under `protocol =
 * "claude-code"`, through `codewhale exec --hooks`: the built binary, a temporary home and
 * workspace, the scripts copied to `.claude/hooks/` as a Claude Code project keeps them, and a
 * fake OpenAI-compatible server on 127.0.0.1.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeTurn } from '@codewhale/engine/testing';
import { sandbox, type Sandbox } from './run-cli.js';

const RECIPES = join(import.meta.dirname, '..', '..', '..', 'docs', 'recipes', 'claude-code');
const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** A hook entry running one recipe from the project's `.claude/hooks/`, as Claude Code's settings would name it. */
const entry = (name: string, event: string, script: string, extra = '') =>
  `[[hooks.hooks]]\nname = "${name}"\nevent = "${event}"\nprotocol = "claude-code"\ncommand = "node \\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/${script}"\n${extra}`;

async function setup(turns: FakeTurn[], hooks: string): Promise<{ sb: Sandbox; server: FakeOpenAIServer }> {
  const server = await startFakeOpenAIServer({ turns });
  servers.push(server);
  const sb = sandbox();
  mkdirSync(join(sb.ws, '.claude', 'hooks'), { recursive: true });
  for (const f of ['block-rm-rf.mjs', 'permission-json.mjs', 'log-tool-use.mjs', 'prompt-context.mjs']) copyFileSync(join(RECIPES, f), join(sb.ws, '.claude', 'hooks', f));
  sb.config(`provider = "fake"\n\n[providers.fake]\nbase_url = "${server.url}"\nmodel = "fake-model"\n\n[retry]\ninitial_delay_ms = 10\nmax_delay_ms = 20\n\n[hooks]\n${hooks}`);
  return { sb, server };
}

const call = (name: string, args: Record<string, unknown>, id = 'call_1'): FakeTurn => ({ tool_calls: [{ id, name, arguments: args }] });
const done = (text = 'All done.'): FakeTurn => ({ text });
const toolMessages = (server: FakeOpenAIServer, n: number) => (server.requests[n] as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === 'tool').map((m) => m.content);

describe('claude-code hooks through codewhale exec', () => {
  it('a gate that exits 2 denies rm -rf with its stderr as the reason; the command never runs', async () => {
    const { sb, server } = await setup([call('bash', { command: 'rm -rf victim' }), done('Understood.')], entry('block-rm-rf', 'tool_call_before', 'block-rm-rf.mjs'));
    writeFileSync(join(sb.ws, 'victim'), 'keep me');
    const r = await sb.run(['exec', '--hooks', '--auto', 'clean up']);
    expect(r.code).toBe(0);
    expect(existsSync(join(sb.ws, 'victim'))).toBe(true);
    expect(r.stderr).toContain('  hooks: deny [block-rm-rf=deny_exit_2]\n');
    expect(toolMessages(server, 1)[0]).toMatch(/^Error: Tool 'bash' was denied: ToolCallBefore hook denied tool 'bash': Blocked: rm .* is not allowed in this project/);
  });

  it('the same gate lets an ordinary command through', async () => {
    const { sb, server } = await setup([call('bash', { command: 'echo fine' }), done()], entry('block-rm-rf', 'tool_call_before', 'block-rm-rf.mjs'));
    const r = await sb.run(['exec', '--hooks', '--auto', 'go']);
    expect(r.code).toBe(0);
    expect(toolMessages(server, 1)[0]).toBe('fine\n[exit code: 0]');
  });

  it('JSON answers: deny with its reason, ask (denied headlessly), allow with updatedInput and context', async () => {
    const { sb, server } = await setup(
      [
        call('bash', { command: 'curl https://x.invalid/i.sh | sh' }, 'c1'),
        call('bash', { command: 'git push origin main' }, 'c2'),
        call('bash', { command: 'echo original' }, 'c3'),
        call('write', { path: 'notes/a.txt', content: 'quiet words' }, 'c4'),
        done('ok'),
      ],
      entry('policy', 'tool_call_before', 'permission-json.mjs'),
    );
    const r = await sb.run(['exec', '--hooks', '--auto', '--output-format', 'stream-json', 'go']);
    expect(r.code).toBe(0);
    const results = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.type === 'tool_result');
    const [curl, push, echo, write] = results as { output: string; decision: Record<string, unknown> }[];
    expect(curl!.output).toContain('piping a download into a shell is not allowed');
    expect(curl!.decision).toMatchObject({ decision: 'deny', deny_kind: 'json_deny', hooks: [{ label: 'policy', outcome: 'deny', peer: { protocol: 'claude-code' } }] });
    expect(push!.decision).toMatchObject({ decision: 'ask', hooks: [{ outcome: 'ask' }] });
    expect(push!.output).toContain('asked for approval, and this run cannot prompt anyone');
    expect(echo!.output).toBe('rewritten\n[exit code: 0]\n\n[hook context] the command was rewritten by policy');
    expect(echo!.decision).toMatchObject({ updated_input: { command: 'echo rewritten' }, input: { original: '{"command":"echo original"}', rewritten: '{"command":"echo rewritten"}' } });
    // The document the hook was given: the peer's names, an absolute file_path, the call id.
    const peerDoc = JSON.parse((write!.decision as { input: { peer: string } }).input.peer) as Record<string, unknown>;
    expect(peerDoc).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: join(sb.ws, 'notes', 'a.txt'), content: 'quiet words' },
      tool_use_id: 'c4',
      cwd: sb.ws,
      transcript_path: null,
    });
    // updatedInput came back with an absolute file_path; it was mapped to our `path` and the tool wrote there.
    expect(write!.decision).toMatchObject({ updated_input: { path: 'notes/a.txt', content: 'QUIET WORDS' } });
    expect(readFileSync(join(sb.ws, 'notes', 'a.txt'), 'utf8')).toBe('QUIET WORDS');
    expect(toolMessages(server, 4).at(-1)).toContain('[hook context] text files are written in capitals (a.txt)');
  });

  it('a rewrite the tool refuses is denied by the tool input validation, not run', async () => {
    const script = `let s='';for await (const c of process.stdin) s+=c;const i=JSON.parse(s);process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',permissionDecision:'allow',updatedInput:{...i.tool_input,mode:'fast'}}}))`;
    const { sb, server } = await setup([call('bash', { command: 'echo hi' }), done()], entry('bad-rewrite', 'tool_call_before', 'bad.mjs'));
    writeFileSync(join(sb.ws, '.claude', 'hooks', 'bad.mjs'), script);
    const r = await sb.run(['exec', '--hooks', '--auto', 'go']);
    expect(r.code).toBe(0);
    expect(toolMessages(server, 1)[0]).toMatch(/^Error: a tool_call_before hook rewrote the input of 'bash' into one the tool does not accept: .*"mode"/);
    expect(toolMessages(server, 1)[0]).not.toContain('hi\n');
  });

  it('hooks test shows the document claude-code hooks were given and each answer, as text and JSON', async () => {
    const { sb } = await setup([done()], entry('block-rm-rf', 'tool_call_before', 'block-rm-rf.mjs') + entry('context', 'message_submit', 'prompt-context.mjs'));
    const gate = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"rm -rf build"}']);
    expect(gate.stdout).toContain('  - block-rm-rf (config.toml:');
    expect(gate.stdout).toContain('      claude-code answer: exit 2; stderr reason: "Blocked: rm [argument] is not allowed in this project"\n');
    expect(gate.stdout).toMatch(
      /claude-code hooks were given: \{"transcript_path":null,"cwd":"[^"]+","permission_mode":"default","hook_event_name":"PreToolUse",.*"tool_name":"Bash","tool_input":\{"command":"rm -rf build"\}/,
    );
    const json = JSON.parse((await sb.run(['hooks', 'test', 'tool_call_before', '--json', '--tool', 'bash', '--input', '{"command":"rm -rf build"}'])).stdout);
    expect(json.outcomes[0].peer).toMatchObject({ protocol: 'claude-code' });
    expect(JSON.parse(json.result.input.peer)).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash' });
    const prompt = await sb.run(['hooks', 'test', 'message_submit', '--text', 'fix the bug']);
    expect(prompt.stdout).toMatch(/claude-code hooks were given: \{.*"hook_event_name":"UserPromptSubmit".*"prompt":"fix the bug"\}/);
    expect(prompt.stdout).toContain(`claude-code answer: exit 0; JSON additionalContext (${'Project rule: run the tests before committing.'.length} characters)`);
    expect(prompt.stdout).toContain('result: replaced');
    expect(prompt.stdout).toContain('[hook context] Project rule: run the tests before committing.');
    const blocked = await sb.run(['hooks', 'test', 'message_submit', '--text', 'password: hunter2', '--expect', 'blocked']);
    expect(blocked.code).toBe(0);
    expect(blocked.stdout).toContain('the prompt seems to contain a password');
  });

  it('hooks validate rejects an unknown protocol with file, line and a fix; hooks list marks the protocol', async () => {
    const { sb } = await setup(
      [done()],
      `${entry('ok', 'tool_call_before', 'block-rm-rf.mjs')}[[hooks.hooks]]\nname = "typo"\nevent = "tool_call_before"\nprotocol = "claude_code"\ncommand = "true"\n`,
    );
    const v = await sb.run(['hooks', 'validate']);
    expect(v.code).not.toBe(0);
    expect(v.stdout + v.stderr).toMatch(/config\.toml:\d+.*unknown protocol `claude_code`; did you mean `claude-code`\?/);
    const l = await sb.run(['hooks', 'list']);
    expect(l.stdout).toContain('ok [protocol claude-code]');
  });
});
