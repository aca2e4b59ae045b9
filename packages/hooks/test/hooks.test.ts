/**
 * `openHooks` end to end: a real Codewhale home (config.toml on disk), real hook scripts run
 * by the real supervisor. Each test checks what the embedder gets back and what the hooks saw.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { approveProjectHooks } from '@codewhale/hooks-config';
import { sha256Hex } from '@codewhale/hooks-supervisor';
import { openHooks, type Hooks, type HooksNotice } from '../src/index.js';

const opened: Hooks[] = [];
afterEach(async () => {
  for (const h of opened.splice(0)) await h.close();
});

interface Setup {
  dir: string;
  home: string;
  ws: string;
  notices: HooksNotice[];
  hooks: Hooks;
  script(name: string, body: string): string;
}

/** A home whose config.toml holds `toml` (with `$DIR` replaced by the temp directory). */
async function setup(toml: (dir: string) => string, extra: { project?: string } = {}): Promise<Setup> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-hooks-')));
  const home = join(dir, 'home');
  const ws = join(dir, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  const script = (name: string, body: string): string => {
    const p = join(dir, name);
    writeFileSync(p, `#!/bin/sh\n${body}\n`);
    chmodSync(p, 0o755);
    return p;
  };
  writeFileSync(join(home, 'config.toml'), `[hooks]\nenabled = true\n\n${toml(dir)}`);
  if (extra.project) {
    mkdirSync(join(ws, '.codewhale'));
    writeFileSync(join(ws, '.codewhale', 'hooks.toml'), extra.project);
  }
  const notices: HooksNotice[] = [];
  const hooks = await openHooks({ workspace: ws, home, env: { PATH: process.env.PATH, HOME: dir, CODEWHALE_CONFIG_PATH: '' }, onNotice: (n) => notices.push(n) });
  opened.push(hooks);
  return { dir, home, ws, notices, hooks, script };
}

const hook = (event: string, command: string, more = '') => `[[hooks.hooks]]\nevent = "${event}"\ncommand = ${JSON.stringify(command)}\n${more}\n`;

describe('beforeToolCall', () => {
  it('a claude-code hook sees the posture given with the call as permission_mode', async () => {
    const s = await setup((dir) => hook('tool_call_before', `cat > ${dir}/doc.json`, 'protocol = "claude-code"'));
    const seen = async (posture?: string) => {
      await s.hooks.beforeToolCall({ name: 'bash', input: { command: 'ls' }, ...(posture ? { posture } : {}) });
      return (JSON.parse(readFileSync(join(s.dir, 'doc.json'), 'utf8')) as { permission_mode: string }).permission_mode;
    };
    expect(await seen('full_access')).toBe('bypassPermissions');
    expect(await seen('auto_review')).toBe('acceptEdits');
    expect(await seen()).toBe('default');
  });

  it('deny: the reason for the model and the hook that denied', async () => {
    const s = await setup(() => hook('tool_call_before', `echo '{"decision":"deny","reason":"no pushes to main"}'`, 'name = "guard"'));
    const gate = await s.hooks.beforeToolCall({ name: 'bash', callId: 'c1', input: { command: 'git push' } });
    expect(gate.decision).toBe('deny');
    expect(gate.hook).toBe('guard');
    expect(gate.reason).toContain('no pushes to main');
    expect(gate.env.size).toBe(0);
    expect(gate.record.hooks.map((h) => h.outcome)).toEqual(['deny']);
  });

  it('ask keeps the asking hook and its reason, for the prompt', async () => {
    const s = await setup(() => hook('tool_call_before', `echo '{"decision":"ask","reason":"this deletes files"}'`, 'name = "careful"'));
    const gate = await s.hooks.beforeToolCall({ name: 'bash', input: { command: 'rm -r build' } });
    expect(gate).toMatchObject({ decision: 'ask', reason: 'this deletes files', hook: 'careful' });
  });

  it('approve answers an ask: yes runs (and only then mints shell_env values), no denies with the reason', async () => {
    const s = await setup(
      (dir) => hook('tool_call_before', `echo '{"decision":"ask","reason":"prod deploy"}'`, 'name = "careful"') + hook('shell_env', `echo x >> ${dir}/minted; echo TOKEN=tok-abcdef`),
    );
    const asked: unknown[] = [];
    const no = await s.hooks.beforeToolCall({ name: 'bash', input: { command: 'deploy' }, approve: (r) => (asked.push(r), false) });
    expect(no).toMatchObject({ decision: 'deny', reason: 'not approved: prod deploy', hook: 'careful' });
    expect(no.env.size).toBe(0);
    expect(existsSync(join(s.dir, 'minted'))).toBe(false);
    expect(asked).toMatchObject([{ name: 'bash', input: { command: 'deploy' }, reason: 'prod deploy', hook: 'careful' }]);
    const unanswered = await s.hooks.beforeToolCall({ name: 'bash', input: { command: 'deploy' } });
    expect(unanswered).toMatchObject({ decision: 'ask' });
    expect(unanswered.env.size).toBe(0);
    const yes = await s.hooks.beforeToolCall({ name: 'bash', input: { command: 'deploy' }, approve: async () => true });
    expect(yes.decision).toBe('allow');
    expect(yes.env.get('TOKEN')).toBe('tok-abcdef');
  });

  it('validate prepares the original input first; one the tool refuses is denied before any hook runs', async () => {
    const s = await setup((dir) => hook('tool_call_before', `echo "$DEEPSEEK_TOOL_ARGS" >> ${dir}/seen`));
    const schema = z.object({ path: z.string().default('.') });
    const bad = await s.hooks.beforeToolCall({ name: 'list_dir', input: { path: 7 }, validate: schema });
    expect(bad.decision).toBe('deny');
    expect(bad.reason).toMatch(/^invalid input for 'list_dir': path:/);
    expect(existsSync(join(s.dir, 'seen'))).toBe(false);
    const good = await s.hooks.beforeToolCall({ name: 'list_dir', input: {}, validate: schema });
    expect(good).toMatchObject({ decision: 'allow', input: { path: '.' } });
    expect(readFileSync(join(s.dir, 'seen'), 'utf8')).toBe('{"path":"."}\n');
  });

  it('a rewrite is checked again by the tool schema: defaults filled in when valid, the call denied when not', async () => {
    const schema = z.object({ command: z.string(), timeout: z.number().default(30) }).strict();
    const s = await setup(
      () =>
        hook('tool_call_before', `echo '{"updatedInput":{"command":"ls -la"}}'`, 'condition = { type = "tool_name", name = "bash" }') +
        hook('tool_call_before', `echo '{"updatedInput":{"command":42}}'`, 'condition = { type = "tool_name", name = "grep" }'),
    );
    const good = await s.hooks.beforeToolCall({ name: 'bash', input: { command: 'ls' }, validate: schema });
    expect(good).toMatchObject({ decision: 'allow', rewritten: true, input: { command: 'ls -la', timeout: 30 }, invalidRewrite: null });
    const bad = await s.hooks.beforeToolCall({ name: 'grep', input: { command: 'x' }, validate: schema });
    expect(bad.decision).toBe('deny');
    expect(bad.invalidRewrite).toContain('command');
    expect(bad.reason).toContain('does not accept');
    // A validator function works the same way.
    const refuse42 = (v: unknown) => ((v as { command?: unknown }).command === 42 ? { ok: false as const, issues: `refused ${JSON.stringify(v)}` } : { ok: true as const, value: v });
    const fn = await s.hooks.beforeToolCall({ name: 'grep', input: {}, validate: refuse42 });
    expect(fn).toMatchObject({ decision: 'deny', invalidRewrite: 'refused {"command":42}' });
  });

  it('additionalContext is appended by decorate; shell_env values in the text are masked', async () => {
    const s = await setup(() => hook('tool_call_before', `echo '{"additionalContext":"prod is frozen"}'`) + hook('shell_env', `echo DEPLOY_TOKEN=tok-12345-secret`));
    const gate = await s.hooks.beforeToolCall({ name: 'bash', input: { command: 'env' } });
    expect(gate.context).toBe('prod is frozen');
    expect(s.hooks.decorate(gate, 'DEPLOY_TOKEN=tok-12345-secret\n[exit code: 0]')).toBe('DEPLOY_TOKEN=***\n[exit code: 0]\n\n[hook context] prod is frozen');
    expect(s.hooks.decorate(null, 'plain')).toBe('plain');
  });

  it('shell_env runs for shell tools only, seen as exec_shell; key names (never values) reach the audit log', async () => {
    const s = await setup((dir) => hook('shell_env', `echo "$DEEPSEEK_TOOL_NAME" >> ${dir}/seen; echo DEPLOY_TOKEN=tok-12345-secret`));
    const read = await s.hooks.beforeToolCall({ name: 'read_file', input: { path: 'a' } });
    const mcp = await s.hooks.beforeToolCall({ name: 'mcp__github__create_issue', input: {} });
    expect(read.env.size + mcp.env.size).toBe(0);
    expect(existsSync(join(s.dir, 'seen'))).toBe(false);
    for (const name of ['bash', 'Bash', 'exec_shell']) {
      const gate = await s.hooks.beforeToolCall({ name, input: { command: 'deploy' } });
      expect(gate.env.get('DEPLOY_TOKEN')).toBe('tok-12345-secret');
    }
    expect(readFileSync(join(s.dir, 'seen'), 'utf8')).toBe('exec_shell\nexec_shell\nexec_shell\n');
    const audit = readFileSync(join(s.home, 'audit.log'), 'utf8').trim().split('\n');
    expect(audit).toHaveLength(3);
    expect(JSON.parse(audit[0]!)).toMatchObject({ event: 'shell_env_hook', details: { tool: 'exec_shell', keys: ['DEPLOY_TOKEN'] } });
    expect(audit.join('\n')).not.toContain('tok-12345-secret');
    // Later: the embedder defers shell_env until after its prompt.
    const deferred = await s.hooks.beforeToolCall({ name: 'bash', input: { command: 'deploy' }, shellEnv: false });
    expect(deferred.env.size).toBe(0);
    expect((await s.hooks.shellEnv({ name: 'bash', input: { command: 'deploy' } })).vars.get('DEPLOY_TOKEN')).toBe('tok-12345-secret');
  });

  it('no hooks: allow with the input as given', async () => {
    const s = await setup(() => '');
    const gate = await s.hooks.beforeToolCall({ name: 'bash', input: { command: 'ls' } });
    expect(gate).toMatchObject({ decision: 'allow', input: { command: 'ls' }, reason: null, context: null, aborted: false });
    expect(gate.record.hooks).toEqual([]);
  });

  it('an aborted signal kills a slow gate and its children at once and denies the call', async () => {
    const s = await setup((dir) => hook('tool_call_before', `sh -c 'echo $$ > ${dir}/child.pid; sleep 30' & echo $$ > ${dir}/gate.pid; wait`, 'timeout_secs = 60'));
    const ac = new AbortController();
    const started = performance.now();
    const pending = s.hooks.beforeToolCall({ name: 'bash', input: { command: 'ls' }, signal: ac.signal });
    const pidFile = join(s.dir, 'child.pid');
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    const gate = await pending;
    // A wide liveness margin: the gate's own budget is 60 s and its child sleeps 30 s.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(gate).toMatchObject({ decision: 'deny', aborted: true });
    expect(gate.env.size).toBe(0);
    const child = Number(readFileSync(pidFile, 'utf8'));
    const alive = () => {
      try {
        process.kill(child, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
  });

  it('a signal aborted before the call runs no hook', async () => {
    const s = await setup((dir) => hook('tool_call_before', `touch ${dir}/ran`));
    const gate = await s.hooks.beforeToolCall({ name: 'bash', input: {}, signal: AbortSignal.abort() });
    expect(gate).toMatchObject({ decision: 'deny', aborted: true });
    expect(existsSync(join(s.dir, 'ran'))).toBe(false);
  });
});

describe('problems are reported, never silently allowed', () => {
  it('a strict gate with a typo is rejected and reported through onNotice', async () => {
    const s = await setup(() => hook('tool_call_before', 'exit 2', 'continue_on_error = false\nconditon = { type = "tool_name", name = "bash" }'));
    expect(s.notices.map((n) => n.message).join('\n')).toMatch(/conditon.*did you mean `condition`/);
    expect(s.hooks.configuration.loaded.set.hooks).toHaveLength(0);
  });

  it('project hooks pending approval are reported and do not run', async () => {
    const s = await setup(() => '', { project: '[[hooks]]\nevent = "tool_call_before"\ncommand = "exit 2"\n' });
    expect(s.notices.map((n) => n.message).join('\n')).toContain('project hooks are not part of this session');
    expect((await s.hooks.beforeToolCall({ name: 'bash', input: {} })).decision).toBe('allow');
  });

  it('an approval given during a session enables those bytes from the next session; a reload keeps the approval the session started with', async () => {
    const denyAll = '[[hooks]]\nname = "proj-deny"\nevent = "tool_call_before"\ncommand = "exit 2"\n';
    const s = await setup((dir) => `[projects."${dir}/ws"]\ntrust_level = "trusted"\n`, { project: denyAll });
    const configPath = join(s.home, 'config.toml');
    const projectPath = join(s.ws, '.codewhale', 'hooks.toml');
    const approve = () => {
      const bytes = readFileSync(projectPath);
      const r = approveProjectHooks({ configText: readFileSync(configPath, 'utf8'), workspace: s.ws, projectFile: bytes, digest: sha256Hex(bytes), sha256: sha256Hex });
      if (!r.ok) throw new Error(r.error.message);
      writeFileSync(configPath, r.value.configText);
    };
    const decision = async (h: Hooks) => (await h.beforeToolCall({ name: 'bash', input: { command: 'ls' } })).decision;
    expect(await decision(s.hooks)).toBe('allow');

    // Approved during the session: the reload says when it takes effect, and it does not load them.
    approve();
    const r = s.hooks.reload();
    expect(r.notes[0]).toMatch(/approved during this session load when the next session starts/);
    expect(r.hookCount).toBe(0);
    expect(s.hooks.configuration.loaded.set.hooks).toHaveLength(0);
    expect(s.hooks.configuration.loaded.project?.loadable).toBe(false);
    expect(await decision(s.hooks)).toBe('allow');

    // The next session runs them.
    const next = await openHooks({ workspace: s.ws, home: s.home, env: { PATH: process.env.PATH, HOME: s.dir, CODEWHALE_CONFIG_PATH: '' } });
    opened.push(next);
    expect(await decision(next)).toBe('deny');
    // An edit takes them out at once; approving the edit does not bring it in before the next session...
    writeFileSync(projectPath, `# edited\n${denyAll}`);
    expect(next.reload().hookCount).toBe(0);
    approve();
    const again = next.reload();
    expect(again.hookCount).toBe(0);
    expect(again.notes[0]).toMatch(/next session/);
    expect(await decision(next)).toBe('allow');
    // ...and the bytes this session started with, approved as they were, run again.
    writeFileSync(projectPath, denyAll);
    approve();
    const back = next.reload();
    expect(back.hookCount).toBe(1);
    expect(back.notes.join('\n')).not.toMatch(/next session/);
    expect(await decision(next)).toBe('deny');
  });

  it('a hook that fails at run time is reported', async () => {
    const s = await setup(() => hook('tool_call_before', 'exit 7', 'name = "broken"'));
    await s.hooks.beforeToolCall({ name: 'bash', input: {} });
    expect(s.notices.some((n) => n.message.includes('broken'))).toBe(true);
  });

  it('a config file with a TOML syntax error fails openHooks with the file and line', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-hooks-')));
    writeFileSync(join(dir, 'config.toml'), '[hooks\nenabled = true\n');
    await expect(openHooks({ workspace: dir, home: dir, env: {} })).rejects.toMatchObject({ name: 'HooksConfigError', issues: [{ line: 1 }] });
  });
});

describe('afterToolCall and the lifecycle', () => {
  it('tool_call_after gets the result, exit code and the receipt of a shell run; on_error fires for a failure, not for a denial', async () => {
    const s = await setup(
      (dir) =>
        hook('tool_call_after', `{ echo "$DEEPSEEK_TOOL_NAME $DEEPSEEK_TOOL_SUCCESS \${DEEPSEEK_TOOL_EXIT_CODE:-none}"; echo "$DEEPSEEK_TOOL_EXECUTION_RECEIPT"; cat; } >> ${dir}/after`) +
        hook('on_error', `echo "$DEEPSEEK_TOOL_NAME" >> ${dir}/errors`),
    );
    await s.hooks.afterToolCall({
      name: 'bash',
      callId: 'c1',
      input: { command: 'false' },
      result: '[exit code: 1]',
      success: false,
      exitCode: 1,
      status: 'failed',
      receipt: { command: 'false', cwd: s.ws, exitCode: 1, status: 'failed', stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false },
    });
    await s.hooks.afterToolCall({ name: 'read_file', input: {}, result: 'denied', success: false, gate: { decision: 'deny' } });
    await s.hooks.idle();
    const after = readFileSync(join(s.dir, 'after'), 'utf8');
    expect(after).toContain('bash false 1');
    expect(after).toContain('"command":"false"');
    expect(after).toContain('"tool_call_id":"c1"');
    expect(after).toContain('read_file false none');
    expect(readFileSync(join(s.dir, 'errors'), 'utf8')).toBe('bash\n');
  });

  it('session_start waits for its hooks; message_submit can rewrite; mode_change and turn_end carry the facts', async () => {
    const s = await setup(
      (dir) =>
        hook('session_start', `echo "start $DEEPSEEK_SESSION_ID" > ${dir}/start`) +
        hook('message_submit', `echo '{"text":"rewritten"}'`) +
        hook('mode_change', `echo "$DEEPSEEK_PREVIOUS_MODE -> $DEEPSEEK_MODE" > ${dir}/mode`) +
        hook('turn_end', `cat > ${dir}/turn`),
    );
    await s.hooks.lifecycle.sessionStart();
    expect(readFileSync(join(s.dir, 'start'), 'utf8')).toBe(`start ${s.hooks.sessionId}\n`);
    expect(await s.hooks.lifecycle.messageSubmit('hello')).toMatchObject({ kind: 'replaced', text: 'rewritten' });
    s.hooks.update({ mode: 'plan' });
    s.hooks.lifecycle.modeChange('work');
    s.hooks.lifecycle.turnEnd({ turnId: 'turn_1', status: 'completed', durationMs: 5, toolCount: 2 });
    await s.hooks.idle();
    expect(readFileSync(join(s.dir, 'mode'), 'utf8')).toBe('PLAN -> ACT\n');
    expect(JSON.parse(readFileSync(join(s.dir, 'turn'), 'utf8'))).toMatchObject({ event: 'turn_end', turn_id: 'turn_1', status: 'completed', tool_count: 2 });
  });
});
