/**
 * `codewhale exec`, run as a user would: the built binary, a temporary CODEWHALE_HOME and
 * workspace, real hook scripts, and a fake OpenAI-compatible server on 127.0.0.1.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeTurn } from '@codewhale/engine/testing';
import { sandbox, type Sandbox } from './run-cli.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function setup(turns: FakeTurn[], hooks = '', extra = ''): Promise<{ sb: Sandbox; server: FakeOpenAIServer }> {
  const server = await startFakeOpenAIServer({ turns });
  servers.push(server);
  const sb = sandbox();
  sb.config(`provider = "fake"\n\n[providers.fake]\nbase_url = "${server.url}"\nmodel = "fake-model"\n\n[retry]\ninitial_delay_ms = 10\nmax_delay_ms = 20\n${extra}\n${hooks}`);
  return { sb, server };
}

const bash = (command: string, id = 'call_1'): FakeTurn => ({ tool_calls: [{ id, name: 'bash', arguments: { command } }] });
const done = (text = 'All done.'): FakeTurn => ({ text });
const toolMessages = (server: FakeOpenAIServer, n: number) => (server.requests[n] as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === 'tool').map((m) => m.content);

describe('codewhale exec', () => {
  it('runs a prompt: assistant text on stdout, tool lines on stderr, exit 0', async () => {
    const { sb, server } = await setup([bash('echo hello'), done('Said hello.')]);
    const r = await sb.run(['exec', '--auto', 'say hello']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Said hello.\n');
    expect(r.stderr).toContain('tool: bash (echo hello)\n');
    expect(r.stderr).toContain('tool bash completed: hello\n');
    expect(toolMessages(server, 1)).toEqual(['hello\n[exit code: 0]']);
  });

  it('fires no hooks without --hooks, even when hooks are configured', async () => {
    const { sb } = await setup([bash('true'), done()], '');
    const marker = join(sb.dir, 'fired');
    sb.config(`${readFileSync(join(sb.home, 'config.toml'), 'utf8')}\n[hooks]\n[[hooks.hooks]]\nevent = "tool_call_before"\ncommand = "touch ${marker}"\n`);
    const r = await sb.run(['exec', '--auto', 'go']);
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('with --hooks, exit 2 denies; the model sees the redacted reason; the command never runs', async () => {
    const { sb, server } = await setup([bash('rm -rf victim'), done('Understood.')]);
    const gate = sb.script('gate.sh', `case "$DEEPSEEK_TOOL_ARGS" in *"rm -rf"*) echo '{"reason":"destructive operations are blocked by policy"}'; exit 2;; esac`);
    sb.config(`${readFileSync(join(sb.home, 'config.toml'), 'utf8')}\n[hooks]\n[[hooks.hooks]]\nname = "no-rm-rf"\nevent = "tool_call_before"\ncommand = "${gate}"\n`);
    writeFileSync(join(sb.ws, 'victim'), 'keep me');
    const r = await sb.run(['exec', '--hooks', '--auto', 'clean up']);
    expect(r.code).toBe(0);
    expect(existsSync(join(sb.ws, 'victim'))).toBe(true);
    expect(r.stderr).toContain('  hooks: deny [no-rm-rf=deny_exit_2]\n');
    expect(r.stderr).toContain("tool bash denied: ToolCallBefore hook denied tool 'bash': destructive operations are blocked by policy\n");
    expect(toolMessages(server, 1)[0]).toBe(
      "Error: Tool 'bash' was denied: ToolCallBefore hook denied tool 'bash': destructive operations are blocked by policy. Adjust approval mode or request permission.",
    );
  });

  it('turns a hook ask into a deny even with --auto (nothing can prompt headlessly)', async () => {
    const { sb, server } = await setup([bash('echo should-not-run'), done()], `[hooks]\n[[hooks.hooks]]\nevent = "tool_call_before"\ncommand = "echo '{\\"decision\\":\\"ask\\"}'"\n`);
    const r = await sb.run(['exec', '--hooks', '--auto', 'go']);
    expect(r.code).toBe(0);
    expect(toolMessages(server, 1)[0]).toBe("Error: Tool 'bash' was denied: a tool_call_before hook asked for approval, and this run cannot prompt anyone, so the call is denied");
  });

  it('without --auto, approvals are denied and reported', async () => {
    const { sb } = await setup([bash('echo x'), done()]);
    const r = await sb.run(['exec', '--json', 'go']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('approval required: bash: echo x — denied (exec cannot prompt; run with --auto to allow)\n');
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ status: 'completed', termination_reason: 'approval_required', approvals_required: [{ tool: 'bash', summary: 'bash: echo x', reason: 'posture' }] });
  });

  it('streams JSON Lines with a schema version, including the hook decision record', async () => {
    const { sb } = await setup(
      [bash('echo original'), done('ok')],
      `[hooks]\n[[hooks.hooks]]\nname = "rewriter"\nevent = "tool_call_before"\ncommand = "echo '{\\"updatedInput\\":{\\"command\\":\\"echo rewritten\\"},\\"additionalContext\\":\\"note\\"}'"\n`,
    );
    const r = await sb.run(['exec', '--hooks', '--auto', '--output-format', 'stream-json', 'go']);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.every((l) => l.schema_version === 1 && l.schema === 'codewhale.exec-stream')).toBe(true);
    expect(lines.map((l) => l.type)).toEqual(['turn_usage', 'tool_use', 'tool_result', 'content', 'turn_usage', 'metadata', 'done']);
    const result = lines.find((l) => l.type === 'tool_result')!;
    expect(result).toMatchObject({ name: 'bash', status: 'success', output: 'rewritten\n[exit code: 0]\n\n[hook context] note' });
    expect(result.decision).toMatchObject({
      decision: 'allow',
      updated_input: { command: 'echo rewritten' },
      input: { original: '{"command":"echo original"}', rewritten: '{"command":"echo rewritten"}' },
      hooks: [{ label: 'rewriter', outcome: 'no_decision', rewrote_input: true, added_context: true }],
    });
    expect((result.decision as { hook_set_digest: string }).hook_set_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', exit_code: 0 });
  });

  it('reports hook problems: a failing and a partly dropped shell_env hook warn on stderr, and as hook_warning lines in stream-json', async () => {
    const { sb } = await setup([bash('echo "[$GOOD]"'), done(), bash('true'), done()]);
    const broken = sb.script('broken.sh', 'echo TOKEN=sk-live-1234567890; exit 7');
    const partial = sb.script('partial.sh', "printf 'GOOD=1\\n=x\\n'");
    sb.config(
      readFileSync(join(sb.home, 'config.toml'), 'utf8') +
        `\n[hooks]\n[[hooks.hooks]]\nname = "broken"\nevent = "shell_env"\ncommand = "${broken}"\n[[hooks.hooks]]\nname = "partial"\nevent = "shell_env"\ncommand = "${partial}"\n`,
    );
    const text = await sb.run(['exec', '--hooks', '--auto', 'go']);
    expect(text.code).toBe(0);
    expect(text.stderr).toMatch(/warning: hooks: shell_env hook failed; contributing no env vars \(hook=broken exit_code=7/);
    expect(text.stderr).toMatch(/warning: hooks: shell_env entry dropped \(hook=partial key=null reason=empty_name line=2\)/);
    expect(text.stderr).toContain('tool bash completed: [1]');
    expect(text.stderr).not.toContain('sk-live');
    const json = await sb.run(['exec', '--hooks', '--auto', '--output-format', 'stream-json', 'go']);
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const warnings = lines.filter((l) => l.type === 'hook_warning');
    expect(warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^shell_env hook failed.*hook=broken/), expect.stringMatching(/^shell_env entry dropped.*reason=empty_name/)]);
    expect(warnings[0]).toMatchObject({ schema_version: 1, schema: 'codewhale.exec-stream', level: 'warning' });
    expect(json.stdout).not.toContain('sk-live');
  });

  it('injects shell_env values into the command while an ambient secret stays hidden; audits key names only', async () => {
    const { sb } = await setup(
      [bash('echo "[$DEPLOY_TOKEN][$SECRET_TOKEN][${#DEPLOY_TOKEN}]"'), done()],
      `[hooks]\n[[hooks.hooks]]\nname = "creds"\nevent = "shell_env"\ncommand = "echo DEPLOY_TOKEN=tok-4242"\n`,
    );
    const r = await sb.run(['exec', '--hooks', '--auto', 'deploy'], { env: { SECRET_TOKEN: 'ambient-secret' } });
    // The command got the value (its length shows it); the output shows it masked, as CI logs do.
    expect(r.stderr).toContain('tool bash completed: [***][][8]\n');
    expect(r.stderr + r.stdout).not.toContain('tok-4242');
    const audit = readFileSync(join(sb.home, 'audit.log'), 'utf8');
    expect(JSON.parse(audit)).toMatchObject({ event: 'shell_env_hook', details: { hook: 'creds', keys: ['DEPLOY_TOKEN'] } });
    expect(audit).not.toContain('tok-4242');
  });

  it('writes decision records to the opt-in audit file (CODEWHALE_TOOL_AUDIT_LOG)', async () => {
    const { sb } = await setup([bash('true'), done()], `[hooks]\n[[hooks.hooks]]\nevent = "tool_call_before"\ncommand = "true"\n`);
    const log = join(sb.dir, 'decisions.jsonl');
    await sb.run(['exec', '--hooks', '--auto', 'go'], { env: { CODEWHALE_TOOL_AUDIT_LOG: log } });
    expect(JSON.parse(readFileSync(log, 'utf8'))).toMatchObject({ tool: 'bash', decision: 'allow' });
  });

  it('does not load an unapproved project hooks file, and warns about rejected global hooks', async () => {
    const { sb } = await setup([bash('true'), done()], `[hooks]\n[[hooks.hooks]]\nevent = "tool_call_befor"\ncommand = "true"\n`);
    const marker = join(sb.dir, 'project-fired');
    sb.projectHooks(`[[hooks]]\nevent = "tool_call_before"\ncommand = "touch ${marker}"\n`);
    const r = await sb.run(['exec', '--hooks', '--auto', 'go']);
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(r.stderr).toMatch(/warning: hooks: rejected: .*did you mean `tool_call_before`/);
  });

  it('starts hooks and shell commands as children of the agent itself, with no helper process', async () => {
    const sb = sandbox();
    const parents = join(sb.dir, 'parents');
    sb.config(`[[hooks.hooks]]\nname = "who"\nevent = "tool_call_before"\ncommand = "tr '\\\\0\\\\n' '  ' < /proc/$PPID/cmdline | head -c 200 >> ${parents}; echo >> ${parents}"\n`);
    const script = join(sb.ws, 'calls.jsonl');
    const call = '{"tool_calls":[{"name":"bash","arguments":{"command":"tr \'\\\\0\\\\n\' \'  \' < /proc/$PPID/cmdline | head -c 200"}}]}';
    writeFileSync(script, `${Array.from({ length: 3 }, () => call).join('\n')}\n{"text":"done"}\n`);
    const r = await sb.run(['exec', '--auto', '--hooks', '--replay', script, 'go']);
    expect(r.code, r.stderr).toBe(0);
    const hookParents = readFileSync(parents, 'utf8').trim().split('\n');
    expect(hookParents).toHaveLength(3);
    for (const p of hookParents) expect(p).toMatch(/bin\.cjs exec --auto --hooks/);
    expect(r.stderr.match(/tool bash completed: \S*node\S* \S*bin\.cjs exec --auto --hooks/g)).toHaveLength(3);
  }, 30_000);

  it('plays a replay script offline', async () => {
    const sb = sandbox();
    const script = join(sb.dir, 'session.jsonl');
    writeFileSync(script, `// a recorded session\n{"tool_calls":[{"name":"bash","arguments":{"command":"echo replayed"}}]}\n{"text":"Replay done."}\n`);
    const r = await sb.run(['exec', '--auto', '--replay', script, 'go']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Replay done.\n');
    expect(r.stderr).toContain('tool bash completed: replayed');
  });

  describe('exit codes and errors', () => {
    it('1 when the model route fails for good (auth)', async () => {
      const { sb } = await setup([{ status: 401 }]);
      const r = await sb.run(['exec', 'hi']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error: .*401/m);
    });

    it('75 when the network keeps failing after retries', async () => {
      const { sb, server } = await setup([{ status: 500 }, { status: 502 }, { status: 503 }, { status: 500 }]);
      const r = await sb.run(['exec', '--output-format', 'stream-json', 'hi']);
      expect(r.code).toBe(75);
      expect(server.turnsServed).toBe(4);
      const last = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
      expect(last).toMatchObject({ type: 'done', status: 'failed', exit_code: 75 });
    });

    it('1 when the turn runs out of --max-turns', async () => {
      const { sb } = await setup([bash('true'), bash('true', 'c2'), done()]);
      const r = await sb.run(['exec', '--auto', '--max-turns', '1', 'loop']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('error: the turn reached its step limit (1 model requests)');
    });

    it('2 for usage errors, with one error line and no stack trace', async () => {
      const sb = sandbox();
      for (const args of [
        ['exec', '--bogus', 'x'],
        ['exec', '--json', '--output-format', 'stream-json', 'x'],
        ['exec', '--max-turns', 'many', 'x'],
        ['exec', '--mode', 'sideways', 'x'],
        ['nonsense'],
      ]) {
        const r = await sb.run(args);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr, args.join(' ')).toMatch(/^error: /);
        expect(r.stderr, args.join(' ')).not.toMatch(/\n\s+at /);
      }
    });

    it('2 naming the variable to set when the API key is missing', async () => {
      const sb = sandbox();
      const r = await sb.run(['exec', 'hi']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: DEEPSEEK_API_KEY is not set/);
    });

    it('3 for a malformed config, naming file, line and column', async () => {
      const sb = sandbox();
      sb.config('[hooks]\nenabled = yes\n');
      const r = await sb.run(['exec', '--hooks', 'hi']);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`${join(sb.home, 'config.toml')}:2:`);
    });

    it('3 for a malformed replay script, naming the line', async () => {
      const sb = sandbox();
      const script = join(sb.dir, 'bad.jsonl');
      writeFileSync(script, '{"text":"ok"}\n{not json}\n');
      const r = await sb.run(['exec', '--replay', script, 'hi']);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`${script}:2:`);
    });

    it('refuses a tool the run disallows', async () => {
      const { sb, server } = await setup([bash('echo nope'), done()]);
      const r = await sb.run(['exec', '--auto', '--disallowed-tools', 'bash', 'go']);
      expect(r.code).toBe(0);
      expect(toolMessages(server, 1)[0]).toBe("Error: tool 'bash' is not allowed in this session");
    });
  });
});

describe('output to a reader that stops early', () => {
  it('ends quietly on EPIPE, without a stack trace', async () => {
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('./run-cli.js');
    const sb = sandbox();
    // Enough hooks that `hooks list` writes far more than a pipe buffer holds.
    sb.config(`[hooks]\n${Array.from({ length: 3000 }, (_, i) => `[[hooks.hooks]]\nname = "hook-${i}"\nevent = "turn_end"\ncommand = "echo ${'x'.repeat(40)}"\n`).join('')}`);
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'hooks', 'list'], { cwd: sb.ws, env: { PATH: process.env.PATH, CODEWHALE_HOME: sb.home } });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      // Like `| head -c 1`: read one chunk, then close our end of the pipe.
      child.stdout.once('data', () => child.stdout.destroy());
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(r.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(r.code).toBe(0);
  });
});

describe('exec --hooks with project hooks', () => {
  async function approvedProject(turns: FakeTurn[]) {
    const { sb, server } = await setup(turns);
    const marker = join(sb.dir, 'project-gate.log');
    sb.script('.codewhale/hooks/gate.sh', `echo "$DEEPSEEK_TOOL_NAME" >> ${marker}`, true);
    sb.projectHooks(`[[hooks]]\nname = "project-gate"\nevent = "tool_call_before"\ncommand = "./.codewhale/hooks/gate.sh"\n`);
    expect((await sb.run(['trust'])).code).toBe(0);
    const digest = JSON.parse((await sb.run(['hooks', 'review', '--json'])).stdout).digest as string;
    expect((await sb.run(['hooks', 'approve', digest])).code).toBe(0);
    return { sb, server, marker };
  }

  it('fires approved project hooks from a trusted workspace', async () => {
    const { sb, marker } = await approvedProject([bash('true'), done()]);
    const r = await sb.run(['exec', '--hooks', '--auto', 'go']);
    expect(r.code).toBe(0);
    expect(readFileSync(marker, 'utf8')).toBe('bash\n');
  });

  it('does not load them once a pinned script changed, nor once the file changed', async () => {
    const { sb, marker } = await approvedProject([bash('true'), done(), bash('true'), done()]);
    sb.script('.codewhale/hooks/gate.sh', `echo changed >> ${marker}`, true);
    expect((await sb.run(['exec', '--hooks', '--auto', 'go'])).code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const list = await sb.run(['hooks', 'list']);
    expect(list.stdout).toContain('changed since approval');
    sb.projectHooks(`[[hooks]]\nevent = "tool_call_before"\ncommand = "echo edited >> ${marker}"\n`);
    expect((await sb.run(['exec', '--hooks', '--auto', 'go'])).code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('does not load them after a revoke', async () => {
    const { sb, marker } = await approvedProject([bash('true'), done()]);
    expect((await sb.run(['hooks', 'revoke'])).code).toBe(0);
    expect((await sb.run(['exec', '--hooks', '--auto', 'go'])).code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('exec flags', () => {
  it('--allowed-tools limits the tools offered to the model and refuses the rest', async () => {
    const { sb, server } = await setup([bash('echo no'), done()]);
    const r = await sb.run(['exec', '--auto', '--allowed-tools', 'read,list_dir', 'go']);
    expect(r.code).toBe(0);
    const offered = (server.requests[0] as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name);
    expect(offered).toEqual(['read', 'list_dir']);
    expect(toolMessages(server, 1)[0]).toBe("Error: tool 'bash' is not allowed in this session");
  });

  it('--workspace runs the agent in another directory; a missing one is a usage error', async () => {
    const { sb } = await setup([bash('pwd'), done()]);
    const other = join(sb.dir, 'other');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(other);
    const r = await sb.run(['exec', '--auto', '--workspace', other, 'where']);
    expect(r.stderr).toContain(`tool bash completed: ${other}`);
    const bad = await sb.run(['exec', '--workspace', join(sb.dir, 'nope'), 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: the workspace is not a directory/);
  });

  it('--mode plan refuses shell commands before any hook', async () => {
    const { sb, server } = await setup([bash('touch f'), done()]);
    const r = await sb.run(['exec', '--auto', '--mode', 'plan', 'go']);
    expect(r.code).toBe(0);
    expect(toolMessages(server, 1)[0]).toMatch(/^Error: Tool 'bash' was denied: Plan mode does not run shell commands/);
  });
});
