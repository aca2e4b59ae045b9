/**
 * `codewhale hooks test --replay FILE`: policy regression testing over the tool calls of a
 * recorded session, through today's `tool_call_before` hooks.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from './run-cli.js';

const REPLAY = `// a recorded session
{"text": "Let me look.", "tool_calls": [{"name": "bash", "arguments": {"command": "ls -1"}}, {"name": "bash", "arguments": {"command": "rm -rf build"}}]}

{"tool_calls": [{"id": "w1", "name": "write", "arguments": {"path": "notes.txt", "content": "x"}}, {"name": "bash", "arguments": "{not json"}]}
{"text": "Done."}
`;

const TRANSCRIPT = [
  { type: 'content', text: 'Cleaning up.' },
  { type: 'tool_use', id: 'call_1', name: 'bash', input: { command: 'rm -rf build' }, started_at: '2026-11-30T00:00:00Z' },
  { type: 'tool_result', id: 'call_1', name: 'bash', output: 'ok', status: 'success', decision: { decision: 'allow', hooks: [] } },
  { type: 'tool_use', id: 'call_2', name: 'read', input: { path: 'README.md' }, started_at: '2026-11-30T00:00:01Z' },
  { type: 'tool_result', id: 'call_2', name: 'read', output: '# hi', status: 'success', decision: null },
  { type: 'metadata', status: 'completed' },
  { type: 'done', status: 'completed', exit_code: 0 },
]
  .map((o) => JSON.stringify({ schema_version: 1, schema: 'codewhale.exec-stream', ...o }))
  .join('\n')
  .concat('\nwarning: not a JSON line\n');

function policy(sb: Sandbox): void {
  const deny = sb.script('deny.sh', `case "$DEEPSEEK_TOOL_ARGS" in *"rm -rf"*) echo '{"reason":"no recursive deletes"}'; exit 2;; esac`);
  const rewrite = sb.script('rewrite.sh', `echo '{"updatedInput":{"path":"notes.txt","content":"x\\\\n"},"additionalContext":"normalised"}'`);
  sb.config(
    `[hooks]\n\n[[hooks.hooks]]\nname = "no-rm-rf"\nevent = "tool_call_before"\ncommand = "${deny}"\ncondition = { type = "tool_category", category = "shell" }\n\n` +
      `[[hooks.hooks]]\nname = "eol"\nevent = "tool_call_before"\ncommand = "${rewrite}"\ncondition = { type = "tool_name", name = "write" }\n`,
  );
}

describe.concurrent('hooks test --replay', { timeout: 30_000 }, () => {
  it('a replay JSONL script: call by call, with provenance and a summary', async () => {
    const sb = sandbox();
    policy(sb);
    const file = join(sb.dir, 'session.jsonl');
    writeFileSync(file, REPLAY);
    const r = await sb.run(['hooks', 'test', '--replay', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Replaying 4 tool calls from ${file} (replay script) through tool_call_before — the hooks run for real; no tool runs.`);
    expect(r.stdout).toContain('  1. bash {"command":"ls -1"} (line 2) → allow [no-rm-rf=no_decision]');
    expect(r.stdout).toContain('  2. bash {"command":"rm -rf build"} (line 2) → deny — ToolCallBefore hook denied tool \'bash\': no recursive deletes [no-rm-rf=deny_exit_2]');
    expect(r.stdout).toContain('  3. write {"path":"notes.txt","content":"x"} (line 4) → allow, input rewritten to {"path":"notes.txt","content":"x\\n"}, context added [eol=no_decision]');
    expect(r.stdout).toContain('  4. bash (invalid JSON) (line 4) → refused before hooks — the arguments are not valid JSON');
    expect(r.stdout).toContain('summary: 4 calls — 2 allowed (1 rewritten), 1 denied, 0 asked, 1 refused before hooks');
  });

  it('a stream-json transcript: tool_use lines only; a changed decision is flagged; --expect fails on any mismatch', async () => {
    const sb = sandbox();
    policy(sb);
    const file = join(sb.dir, 'run.jsonl');
    writeFileSync(file, TRANSCRIPT);
    const r = await sb.run(['hooks', 'test', '--replay', file, '--expect', 'deny']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('(stream-json transcript)');
    expect(r.stdout).toMatch(/ 1\. bash \{"command":"rm -rf build"\} \(line 2\) → deny — .* {2}<< CHANGED: was allow\n/);
    expect(r.stdout).toMatch(/ 2\. read \{"path":"README\.md"\} \(line 4\) → allow \[no hook matched\] {2}<< expected deny\n/);
    expect(r.stdout).toContain('summary: 2 calls — 1 allowed, 1 denied, 0 asked; 1 changed since the recording');
    expect(r.stdout).toContain('expect: every call deny — 1 MISMATCHED');
    expect(r.stderr).toBe('expectation failed: 1 of 2 calls did not get `deny`\n');
  });

  it('--json: one record per call, then a summary record; --expect that holds exits 0', async () => {
    const sb = sandbox();
    policy(sb);
    const file = join(sb.dir, 'run.jsonl');
    writeFileSync(file, TRANSCRIPT.split('\n').slice(0, 3).join('\n'));
    const r = await sb.run(['hooks', 'test', 'tool_call_before', '--replay', file, '--json', '--expect', 'deny']);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ type: 'call', n: 1, line: 2, id: 'call_1', tool: 'bash', outcome: 'deny', recorded: 'allow', changed: true, expect_met: true });
    expect(lines[0].decision).toMatchObject({ decision: 'deny', deny_kind: 'exit_2', call_id: 'call_1', hooks: [expect.objectContaining({ label: 'no-rm-rf', outcome: 'deny_exit_2' })] });
    expect(lines[1]).toMatchObject({ type: 'summary', format: 'stream-json', calls: 1, deny: 1, changed: 1, mismatches: 0, expect: 'deny' });
  });

  it('errors: an unreadable recording exits 3; a broken replay script lists its problems (exit 3); another event is a usage error', async () => {
    const sb = sandbox();
    const missing = await sb.run(['hooks', 'test', '--replay', 'nope.jsonl']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^error: cannot read the recording .*nope\.jsonl: ENOENT\n/);
    const bad = join(sb.dir, 'bad.jsonl');
    writeFileSync(bad, '{"txt": "hi"}\n{"tool_calls": [{"name": "bash"\n');
    const b = await sb.run(['hooks', 'test', '--replay', bad]);
    expect(b.code).toBe(3);
    expect(b.stderr).toContain(`${bad}:1: unknown key \`txt\`; did you mean \`text\`?`);
    expect(b.stderr).toContain(`${bad}:2: not valid JSON`);
    expect(b.stderr).toMatch(/error: .*bad\.jsonl is neither a valid replay script nor a stream-json transcript \(2 problems above\)/);
    const u = await sb.run(['hooks', 'test', 'turn_end', '--replay', bad]);
    expect(u.code).toBe(2);
    expect(u.stderr).toMatch(/^error: --replay replays recorded tool calls through tool_call_before\n/);
  });
});
