/**
 * `codewhale hooks test EVENT`: a dry run through the real loader, matcher, runner, parser and
 * fold — the built binary, real hook scripts, a temporary CODEWHALE_HOME and workspace.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from './run-cli.js';

/** A config.toml with `[hooks]` and these `[[hooks.hooks]]` bodies. */
function hooksConfig(sb: Sandbox, ...entries: string[]): void {
  sb.config(`# test config\n[hooks]\n${entries.map((e) => `\n[[hooks.hooks]]\n${e.trim()}\n`).join('')}`);
}

function gateScripts(sb: Sandbox) {
  return {
    deny: sb.script('deny.sh', `case "$DEEPSEEK_TOOL_ARGS" in *"rm -rf"*) echo '{"reason":"Deleting build outputs is forbidden (api_key=sk-live-abcdef123456)"}'; exit 2;; esac`),
    rewrite: sb.script('rewrite.sh', `echo '{"decision":"allow","updatedInput":{"command":"ls -la"},"additionalContext":"listing was widened by policy"}'`),
    env: sb.script('env.sh', `env | grep '^DEEPSEEK_' | sort > "${sb.dir}/env.txt"`),
  };
}

describe.concurrent('hooks test tool_call_before', { timeout: 30_000 }, () => {
  it('exit 2 denies with the redacted reason; shows matched and unmatched hooks and why', async () => {
    const sb = sandbox();
    const s = gateScripts(sb);
    hooksConfig(
      sb,
      `name = "no-rm-rf"\nevent = "tool_call_before"\ncommand = "${s.deny}"\ncondition = { type = "tool_category", category = "shell" }`,
      `name = "writes-only"\nevent = "tool_call_before"\ncommand = "${s.rewrite}"\ncondition = { type = "tool_name", name = "write" }`,
      `name = "plan-only"\nevent = "tool_call_before"\ncommand = "${s.rewrite}"\ncondition = { type = "mode", mode = "plan" }`,
      `name = "notify"\nevent = "turn_end"\ncommand = "true"`,
    );
    writeFileSync(join(sb.ws, 'build'), 'keep');
    const r = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"rm -rf build"}']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Dry run of `tool_call_before` (gate): the hooks run for real; the tool call does not.');
    expect(r.stdout).toMatch(/context: tool `bash` \(category shell\), mode Agent, model \S+, session sess_[0-9a-f]{8}, call call_hooks_test_1/);
    expect(r.stdout).toContain('hooks: 1 matched, 3 not matched');
    expect(r.stdout).toMatch(/ - no-rm-rf \(config\.toml:4\): deny \(exit 2\) — Deleting build outputs is forbidden \[secret\] \[exit 2, \d+ ms\]/);
    expect(r.stdout).toContain(' - writes-only (config.toml:10): not matched — tool_name=`write` does not match tool `bash`');
    expect(r.stdout).toContain(' - plan-only (config.toml:16): not matched — mode=`plan`, but the mode is `Agent`');
    expect(r.stdout).toContain(' - notify (config.toml:22): not matched — event is `turn_end`');
    expect(r.stdout).toContain("result: deny (exit 2)\n  message: ToolCallBefore hook denied tool 'bash': Deleting build outputs is forbidden [secret]");
    expect(r.stdout).toMatch(/hook set digest: [0-9a-f]{64}/);
    expect(r.stdout + r.stderr).not.toContain('sk-live-abcdef123456');
    // Commands are never printed: only labels and where they were written.
    expect(r.stdout).not.toContain(s.deny);
    // Nothing but the hooks ran.
    expect(readFileSync(join(sb.ws, 'build'), 'utf8')).toBe('keep');
  });

  it('a strict gate that times out denies (no verdict); --expect deny holds', async () => {
    const sb = sandbox();
    hooksConfig(sb, 'name = "slow-gate"\nevent = "tool_call_before"\ncommand = "sleep 5"\ntimeout_secs = 1\ncontinue_on_error = false');
    const r = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'read', '--input', '{"path":"README.md"}', '--expect', 'deny']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ - slow-gate \(config\.toml:4\) \[strict\]: no verdict — hook timed out after 1s \(strict: the call is denied\) \[no exit code, \d+ ms\]/);
    expect(r.stdout).toContain('result: deny (a strict hook gave no verdict)');
    expect(r.stdout).toContain("message: ToolCallBefore hook returned no verdict for tool 'read' and `continue_on_error = false` is configured: slow-gate: hook timed out after 1s");
    expect(r.stdout).toContain('expect: deny — ok');
    expect(r.stdout).toContain('log:\n  - warn: hook failed (hook=slow-gate event=tool_call_before exit_code=null');
  });

  it('a spawn failure is reported by kind, never by path; a strict gate then denies', async () => {
    const sb = sandbox();
    sb.config(`[hooks]\nworking_dir = "${join(sb.dir, 'missing-dir')}"\n\n[[hooks.hooks]]\nname = "gate"\nevent = "tool_call_before"\ncommand = "true"\ncontinue_on_error = false\n`);
    const r = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.result).toMatchObject({ decision: 'deny', deny_kind: 'no_verdict' });
    expect(j.outcomes[0]).toMatchObject({ label: 'gate', outcome: 'no_verdict', detail: 'hook process could not be started (NotFound)', exit_code: null, strict: true });
    expect(r.stdout).not.toContain('missing-dir');
  });

  it('a rewrite is shown: rewritten and original input, added context; the hook sees the engine spelling of the mode', async () => {
    const sb = sandbox();
    const s = gateScripts(sb);
    hooksConfig(sb, `name = "env"\nevent = "tool_call_before"\ncommand = "${s.env}"`, `name = "widen"\nevent = "tool_call_before"\ncommand = "${s.rewrite}"`);
    const r = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}', '--mode', 'plan', '--expect', 'allow']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ - env \(config\.toml:4\): no decision \(allow\) \[exit 0, \d+ ms\]/);
    expect(r.stdout).toMatch(/ - widen \(config\.toml:9\): allow; rewrote the input, added context \[exit 0, \d+ ms\]/);
    expect(r.stdout).toContain('result: allow\n  input rewritten to: {"command":"ls -la"}\n  original input:     {"command":"ls"}\n  additional context: listing was widened by policy');
    expect(r.stdout).toContain('in Plan mode the engine refuses `bash` before any hook runs');
    const env = readFileSync(join(sb.dir, 'env.txt'), 'utf8');
    expect(env).toContain('DEEPSEEK_MODE=Plan\n');
    expect(env).toContain('DEEPSEEK_TOOL_NAME=bash\n');
    expect(env).toContain('DEEPSEEK_TOOL_ARGS={"command":"ls"}\n');
    expect(env).toMatch(/DEEPSEEK_SESSION_ID=sess_[0-9a-f]{8}\n/);

    const j = JSON.parse((await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}', '--json'])).stdout);
    expect(j.result).toMatchObject({
      decision: 'allow',
      updated_input: { command: 'ls -la' },
      additional_context: 'listing was widened by policy',
      input: { original: '{"command":"ls"}', rewritten: '{"command":"ls -la"}' },
    });
    expect(j.result.hooks.map((h: { outcome: string }) => h.outcome)).toEqual(['no_decision', 'allow']);
    expect(j.env.DEEPSEEK_MODE).toBe('Agent');
    expect(j.stdin_document).toBeNull();
  });

  it('a rewrite the tool would not accept is flagged', async () => {
    const sb = sandbox();
    const bad = sb.script('bad.sh', `echo '{"updatedInput":{"cmd":"ls"}}'`);
    hooksConfig(sb, `name = "bad-rewrite"\nevent = "tool_call_before"\ncommand = "${bad}"`);
    const r = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/the rewritten input is not accepted by `bash` \(command: .+\); the engine would block the call/);
  });

  it('--expect that does not hold exits 1', async () => {
    const sb = sandbox();
    const s = gateScripts(sb);
    hooksConfig(sb, `name = "no-rm-rf"\nevent = "tool_call_before"\ncommand = "${s.deny}"`);
    const r = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"rm -rf /"}', '--expect', 'allow']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('expect: allow — MISMATCH (got deny)');
    expect(r.stderr).toBe('expectation failed: expected `allow`, got `deny`\n');
    const j = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"rm -rf /"}', '--expect', 'allow', '--json']);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout).expectation).toEqual({ expected: 'allow', actual: 'deny', met: false });
  });

  it('with no hooks, or hooks globally disabled, the call is allowed and nothing runs', async () => {
    const sb = sandbox();
    const marker = join(sb.dir, 'ran');
    sb.config(`[hooks]\nenabled = false\n\n[[hooks.hooks]]\nname = "gate"\nevent = "tool_call_before"\ncommand = "touch ${marker}"\n`);
    const r = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}', '--expect', 'allow']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('hooks: 0 matched, 1 not matched (hooks are globally disabled: `[hooks].enabled = false`)');
    expect(r.stdout).toContain(' - gate (config.toml:4): not matched — hooks are globally disabled');
    expect(r.stdout).toContain('result: allow (no hook matched)');
    expect(existsSync(marker)).toBe(false);
  });
});

describe.concurrent('hooks test message_submit', { timeout: 30_000 }, () => {
  function setup(): Sandbox {
    const sb = sandbox();
    const redact = sb.script(
      'redact.sh',
      `sed 's/token=[a-z0-9]*/token=[REDACTED]/' | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify({text:JSON.parse(s).text})))'`,
    );
    const block = sb.script('block.sh', `if printf '%s' "$DEEPSEEK_MESSAGE" | grep -q prod; then echo '{"reason":"no prod deploys on friday"}'; exit 2; fi`);
    hooksConfig(sb, `name = "redact"\nevent = "message_submit"\ncommand = "${redact}"`, `name = "no-prod"\nevent = "message_submit"\ncommand = "${block}"`);
    return sb;
  }

  it('replaced: each hook sees the previous text; the final text is shown', async () => {
    const sb = setup();
    const r = await sb.run(['hooks', 'test', 'message_submit', '--text', 'deploy staging token=abc123', '--expect', 'replaced']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(' - redact (config.toml:4): replaced');
    expect(r.stdout).toContain(' - no-prod (config.toml:9): unchanged');
    expect(r.stdout).toContain('result: replaced\n  text: "deploy staging token=[REDACTED]"\n  original: "deploy staging token=abc123"');
    expect(r.stdout).toMatch(/stdin: \{"event":"message_submit","text":"deploy staging token=abc123","text_bytes":27,/);
  });

  it('blocked by exit 2 with the structured reason; unchanged; --expect mismatch', async () => {
    const sb = setup();
    const blocked = await sb.run(['hooks', 'test', 'message_submit', '--text', 'deploy prod', '--expect', 'blocked', '--json']);
    expect(blocked.code).toBe(0);
    const j = JSON.parse(blocked.stdout);
    expect(j.result).toEqual({ kind: 'blocked', reason: 'no prod deploys on friday' });
    expect(j.outcomes).toEqual([
      // `deploy prod` has no token: the redact hook hands the same text back, which changes nothing.
      { index: 0, label: 'redact', result: 'unchanged', detail: null },
      { index: 1, label: 'no-prod', result: 'blocked', detail: 'no prod deploys on friday' },
    ]);
    expect(j.stdin_document).toMatchObject({ event: 'message_submit', text: 'deploy prod', mode: 'ACT' });

    const unchanged = await sb.run(['hooks', 'test', 'message_submit', '--text', 'hello', '--expect', 'unchanged']);
    expect(unchanged.code).toBe(0);
    expect(unchanged.stdout).toContain('result: unchanged\n  text: "hello"');

    const mismatch = await sb.run(['hooks', 'test', 'message_submit', '--text', 'hello', '--expect', 'blocked']);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain('expectation failed: expected `blocked`, got `unchanged`');
  });
});

describe.concurrent('hooks test shell_env', { timeout: 30_000 }, () => {
  function setup(): Sandbox {
    const sb = sandbox();
    const creds = sb.script('creds.sh', `printf 'export AWS_SESSION_TOKEN="tok-very-secret-42"\\nBAD KEY=1\\n# comment\\nREGION=eu-west-1\\n'`);
    hooksConfig(sb, `name = "creds"\nevent = "shell_env"\ncommand = "${creds}"\ncondition = { type = "tool_category", category = "shell" }`);
    return sb;
  }

  it('prints key names, never values, and the entries it dropped', async () => {
    const sb = setup();
    const r = await sb.run(['hooks', 'test', 'shell_env']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('context: tool `exec_shell` (shell_env carries no session, workspace, model or mode)');
    expect(r.stdout).toMatch(/ - creds \(config\.toml:4\): 2 keys: AWS_SESSION_TOKEN, REGION; dropped \(unnamed\) \(invalid name, line 2\) \[exit 0, \d+ ms\]/);
    expect(r.stdout).toContain('result: 2 variables: AWS_SESSION_TOKEN, REGION (values hidden; --show-values prints them)');
    const json = await sb.run(['hooks', 'test', 'shell_env', '--json']);
    expect(JSON.parse(json.stdout).result).toEqual({ keys: ['AWS_SESSION_TOKEN', 'REGION'] });
    for (const out of [r, json]) {
      expect(out.stdout + out.stderr).not.toContain('tok-very-secret-42');
      expect(out.stdout + out.stderr).not.toContain('eu-west-1');
    }
    // A dry run writes no audit log.
    expect(existsSync(join(sb.home, 'audit.log'))).toBe(false);
  });

  it('--show-values prints the values', async () => {
    const sb = setup();
    const r = await sb.run(['hooks', 'test', 'shell_env', '--tool', 'bash', '--input', '{"command":"aws s3 ls"}', '--show-values']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('result: 2 variables: AWS_SESSION_TOKEN, REGION\n  AWS_SESSION_TOKEN=tok-very-secret-42\n  REGION=eu-west-1\n');
    const j = JSON.parse((await sb.run(['hooks', 'test', 'shell_env', '--show-values', '--json'])).stdout);
    expect(j.result.values).toEqual({ AWS_SESSION_TOKEN: 'tok-very-secret-42', REGION: 'eu-west-1' });
  });
});

describe.concurrent('hooks test observer events', { timeout: 30_000 }, () => {
  it('turn_end: the real stdin document, per-hook outcomes (ok, failed, timed out)', async () => {
    const sb = sandbox();
    const doc = join(sb.dir, 'turn_end.json');
    const fail = sb.script('fail.sh', 'exit 3');
    hooksConfig(
      sb,
      `name = "record"\nevent = "turn_end"\ncommand = "cat > ${doc}"`,
      `name = "broken"\nevent = "turn_end"\ncommand = "${fail}"`,
      `name = "slow"\nevent = "turn_end"\ncommand = "sleep 5"\ntimeout_secs = 1`,
      `name = "plan-only"\nevent = "turn_end"\ncommand = "true"\ncondition = { type = "mode", mode = "plan" }`,
    );
    const r = await sb.run(['hooks', 'test', 'turn_end', '--error', 'model overloaded']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Dry run of `turn_end` (observer)');
    expect(r.stdout).toMatch(/ - record \(config\.toml:4\): ok \[exit 0, \d+ ms\]/);
    expect(r.stdout).toMatch(/ - broken \(config\.toml:9\): failed \[exit 3, \d+ ms\]/);
    expect(r.stdout).toMatch(/ - slow \(config\.toml:14\): failed — hook timed out after 1s \[no exit code, \d+ ms\]/);
    expect(r.stdout).toContain(' - plan-only (config.toml:20): not matched — mode=`plan`, but the mode is `ACT`');
    expect(r.stdout).toContain('result: 1 ok, 2 failed — observer: Codewhale ignores the result; every matching hook runs');
    const stdin = JSON.parse(readFileSync(doc, 'utf8'));
    expect(Object.keys(stdin).slice(0, 5)).toEqual(['event', 'session_id', 'workspace', 'mode', 'created_at']);
    expect(stdin).toMatchObject({ event: 'turn_end', workspace: sb.ws, mode: 'ACT', status: 'failed', error: 'model overloaded', stop_hook_active: false });
    expect(stdin.created_at).toMatch(/\+00:00$/);
  });

  it('tool_call_after: exit_code conditions and the execution receipt on stdin', async () => {
    const sb = sandbox();
    const doc = join(sb.dir, 'after.json');
    hooksConfig(
      sb,
      `name = "on-fail"\nevent = "tool_call_after"\ncommand = "cat > ${doc}"\ncondition = { type = "exit_code", code = 1 }`,
      `name = "on-ok"\nevent = "tool_call_after"\ncommand = "true"\ncondition = { type = "exit_code", code = 0 }`,
    );
    const r = await sb.run(['hooks', 'test', 'tool_call_after', '--tool', 'bash', '--input', '{"command":"make test"}', '--exit-code', '1', '--text', 'FAIL: 2 tests', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.hooks.map((h: { matched: boolean; reason: string | null }) => [h.matched, h.reason])).toEqual([
      [true, null],
      [false, 'exit_code=0, but the tool reported 1'],
    ]);
    expect(j.outcomes).toEqual([expect.objectContaining({ label: 'on-fail', outcome: 'ok', exit_code: 0 })]);
    expect(j.env).toMatchObject({ DEEPSEEK_TOOL_NAME: 'bash', DEEPSEEK_TOOL_EXIT_CODE: '1', DEEPSEEK_TOOL_SUCCESS: 'false', DEEPSEEK_TOOL_STATUS: 'failed' });
    const stdin = JSON.parse(readFileSync(doc, 'utf8'));
    expect(stdin).toMatchObject({ schema_version: 1, event: 'tool_call_after', tool_name: 'bash', tool_call_id: 'call_hooks_test_1' });
    expect(stdin.execution_receipt).toMatchObject({ command: 'make test', cwd: sb.ws, completion: 'failed', exit_code: 1, stdout: 'FAIL: 2 tests', output_mode: 'combined' });
  });

  it('sub-agent and on_error firings: their documents, and tool conditions on a firing with no tool', async () => {
    const sb = sandbox();
    hooksConfig(
      sb,
      `name = "sub"\nevent = "subagent_complete"\ncommand = "true"`,
      `name = "bash-errors"\nevent = "on_error"\ncommand = "true"\ncondition = { type = "tool_name", name = "bash" }`,
      `name = "all-errors"\nevent = "on_error"\ncommand = "true"`,
    );
    const sub = JSON.parse((await sb.run(['hooks', 'test', 'subagent_complete', '--text', 'failed: could not open file', '--json'])).stdout);
    expect(sub.stdin_document).toMatchObject({ event: 'subagent_complete', agent_id: 'agent_1', result_preview: 'failed: could not open file', result_truncated: false, status: 'failed' });
    expect(sub.env.DEEPSEEK_MESSAGE).toBe('failed: could not open file');

    const transport = await sb.run(['hooks', 'test', 'on_error', '--error', 'HTTP 429: slow down']);
    expect(transport.stdout).toContain(' - bash-errors (config.toml:9): not matched — tool_name=`bash` needs a tool, and this firing has none');
    expect(transport.stdout).toMatch(/ - all-errors \(config\.toml:15\): ok \[exit 0, \d+ ms\]/);
    const failure = JSON.parse((await sb.run(['hooks', 'test', 'on_error', '--tool', 'Bash', '--input', '{"command":"false"}', '--exit-code', '1', '--json'])).stdout);
    expect(failure.hooks.filter((h: { matched: boolean }) => h.matched).map((h: { label: string }) => h.label)).toEqual(['bash-errors', 'all-errors']);
    expect(failure.env).toMatchObject({ DEEPSEEK_ERROR: 'tool `Bash` failed: command failed', DEEPSEEK_TOOL_EXIT_CODE: '1' });
    expect(JSON.parse(failure.env.DEEPSEEK_TOOL_EXECUTION_RECEIPT)).toMatchObject({ command: 'false', exit_code: 1, output_kind: 'separate' });
    expect(failure.stdin_document).toBeNull();
  });

  it('session state and error events get their documents; a strict failing hook stops the rest', async () => {
    const sb = sandbox();
    const out = join(sb.dir, 'state.json');
    hooksConfig(
      sb,
      `name = "waiting"\nevent = "waiting_for_user"\ncommand = "cat > ${out}"`,
      `name = "strict"\nevent = "session_start"\ncommand = "exit 1"\ncontinue_on_error = false`,
      `name = "after-strict"\nevent = "session_start"\ncommand = "true"`,
    );
    const w = await sb.run(['hooks', 'test', 'waiting_for_user', '--reason', 'user_input']);
    expect(w.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('{"from":"in_progress","to":"waiting","reason":"user_input"}\n');
    const s = await sb.run(['hooks', 'test', 'session_start']);
    expect(s.code).toBe(0);
    expect(s.stdout).toContain('stdin: none (EOF at once)');
    expect(s.stdout).toMatch(/ - strict \(config\.toml:9\) \[strict\]: failed \[exit 1, \d+ ms\]/);
    expect(s.stdout).toContain(' - after-strict (config.toml:15): not run — an earlier strict hook failed and stopped this event');
    expect(s.stdout).toContain('result: 0 ok, 1 failed, 1 not run');
  });
});

describe.concurrent('hooks test usage errors', { timeout: 30_000 }, () => {
  it.each([
    [['hooks', 'test', 'PreToolUse'], 'error: unknown event `PreToolUse`; did you mean `tool_call_before`?'],
    [['hooks', 'test', 'turn_ended'], 'error: unknown event `turn_ended`; did you mean `turn_end`?'],
    [['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":'], 'error: --input is not valid JSON'],
    [['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '[1]'], 'error: --input must be a JSON object'],
    [['hooks', 'test', 'tool_call_before'], 'error: tool_call_before needs --tool NAME'],
    [['hooks', 'test', 'message_submit'], 'error: message_submit needs --text TEXT'],
    [['hooks', 'test', 'turn_end', '--expect', 'allow'], 'error: --expect does not apply to turn_end'],
    [['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--expect', 'replaced'], 'error: --expect for tool_call_before is one of allow, deny, ask'],
    [['hooks', 'test', 'session_start', '--mode', 'turbo'], 'error: unknown mode `turbo`'],
    [['hooks', 'test', 'waiting_for_user', '--reason', 'coffee'], 'error: --reason is one of approval, user_input, goal_continuation'],
    [['hooks', 'test'], 'error: name the event to simulate, or pass --replay FILE'],
  ])('%j → exit 2', async (args, message) => {
    const r = await sandbox().run(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.startsWith(message)).toBe(true);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('an option the event does not use is noted, not fatal', async () => {
    const r = await sandbox().run(['hooks', 'test', 'session_start', '--text', 'hi']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('note: --text is not used by session_start\n');
  });
});
