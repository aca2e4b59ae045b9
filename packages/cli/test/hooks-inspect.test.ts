/**
 * `codewhale hooks list`, `hooks events`, and the CLI's usage errors, run as a user would:
 * the built binary, a temporary CODEWHALE_HOME and workspace.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_EVENT_NAMES } from '@codewhale/hooks-payloads';
import { sandbox } from './run-cli.js';

const GATE = `[hooks]
default_timeout_secs = 20

[[hooks.hooks]]
name = "gate"
event = "tool_call_before"
command = "~/.codewhale/hooks/gate.sh --token sk-secret-123"
condition = { type = "tool_category", category = "shell" }

[[hooks.hooks]]
name = "notify"
event = "PreToolUse"
command = "echo"
`;

describe.concurrent('codewhale hooks list', { timeout: 30_000 }, () => {
  it('lists hooks by event with the effective timeout, condition and problems', async () => {
    const sb = sandbox();
    sb.config(GATE);
    const r = await sb.run(['hooks', 'list']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('1 configured hook(s) (global enabled: yes):');
    expect(r.stdout).toContain('### tool_call_before\n  - gate (timeout 20s — `[hooks].default_timeout_secs` override) if tool_category=`shell`');
    expect(r.stdout).toContain('rejected: `PreToolUse` hook `notify` — unknown event `PreToolUse`; did you mean `tool_call_before`?');
  });

  it('redacts a secret on a command line from the preview, in text and JSON', async () => {
    const sb = sandbox();
    sb.config(GATE);
    const [text, json] = await Promise.all([sb.run(['hooks', 'list']), sb.run(['hooks', 'list', '--json'])]);
    expect(text.stdout).toContain('$ ~/.codewhale/hooks/gate.sh [secret] [secret]');
    expect(JSON.parse(json.stdout).hooks[0].command_preview).toBe('~/.codewhale/hooks/gate.sh [secret] [secret]');
    for (const r of [text, json]) expect(r.stdout).not.toContain('sk-secret');
  });

  it('is what a bare `codewhale hooks` prints', async () => {
    const sb = sandbox();
    sb.config(GATE);
    const [bare, list] = await Promise.all([sb.run(['hooks']), sb.run(['hooks', 'list'])]);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toBe(list.stdout);
  });

  it('--json gives the snake_case model with the project state and no raw command', async () => {
    const sb = sandbox();
    sb.config(GATE);
    sb.projectHooks('[[hooks]]\nevent = "turn_end"\ncommand = "./notify.sh"\n');
    const r = await sb.run(['hooks', 'list', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.enabled).toBe(true);
    expect(j.default_timeout_secs).toBe(20);
    expect(j.events).toEqual([...HOOK_EVENT_NAMES]);
    expect(j.hooks).toHaveLength(1);
    expect(j.hooks[0]).toMatchObject({ label: 'gate', event: 'tool_call_before', effective_timeout_secs: 20, timeout_source: 'override', timeout_overridden: true, source: 'global' });
    expect(j.problems[0]).toMatchObject({ severity: 'rejected', code: 'unknown_event', line: 10 });
    expect(j.project).toMatchObject({ file_present: true, trusted: false, state: 'pending', loaded: false });
    expect(j.project.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(j.hook_set_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(r.stdout).not.toContain('sk-secret-123 --');
  });

  it('an unapproved project file is not loaded and shows as pending', async () => {
    const sb = sandbox();
    sb.projectHooks('[[hooks]]\nname = "proj"\nevent = "turn_end"\ncommand = "echo hi"\n');
    const r = await sb.run(['hooks', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No hooks configured.');
    expect(r.stdout).toContain('status: pending approval — not loaded');
    expect(r.stdout).toContain('workspace trusted: no');
    expect(r.stdout).not.toContain('### turn_end');
  });

  it('--workspace chooses the workspace and --config another config file', async () => {
    const sb = sandbox();
    const other = join(sb.dir, 'other-ws');
    mkdirSync(join(other, '.codewhale'), { recursive: true });
    writeFileSync(join(other, '.codewhale', 'hooks.toml'), '[[hooks]]\nevent = "turn_end"\ncommand = "x"\n');
    const alt = join(sb.dir, 'alt.toml');
    writeFileSync(alt, '[hooks]\n[[hooks.hooks]]\nname = "from-alt"\nevent = "session_start"\ncommand = "true"\n');
    const r = await sb.run(['hooks', 'list', '--workspace', other, '--config', alt]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('from-alt');
    expect(r.stdout).toContain('status: pending approval');
    const missing = await sb.run(['hooks', 'list', '--workspace', join(sb.dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: the workspace is not a directory: .*nope\nhint: /);
  });

  it('a TOML syntax error in the config stops with file:line:column, exit 3', async () => {
    const sb = sandbox();
    sb.config('[hooks]\nenabled = yes\n');
    const r = await sb.run(['hooks', 'list']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*config\.toml:2:11: TOML syntax error: .+\nhint: .+\n$/);
  });
});

describe.concurrent('codewhale hooks events', { timeout: 30_000 }, () => {
  it('lists the 15 events in documented order with the steering allowlist', async () => {
    const r = await sandbox().run(['hooks', 'events']);
    expect(r.code).toBe(0);
    const listed = [...r.stdout.matchAll(/^- `([a-z_]+)` — /gm)].map((m) => m[1]);
    expect(listed).toEqual([...HOOK_EVENT_NAMES]);
    expect(r.stdout).toContain('can allow/deny/ask');
    expect(r.stdout).toContain('Only `message_submit`, `tool_call_before`, and `shell_env` can steer a turn.');
    expect(r.stdout).toContain('can have any external side effect');
  });

  it('--json: name, steering class, description, env vars and stdin kind, in order', async () => {
    const r = await sandbox().run(['hooks', 'events', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.events.map((e: { name: string }) => e.name)).toEqual([...HOOK_EVENT_NAMES]);
    expect(j.steering_events).toEqual(['message_submit', 'tool_call_before', 'shell_env']);
    const shellEnv = j.events.find((e: { name: string }) => e.name === 'shell_env');
    expect(shellEnv).toMatchObject({ steering: 'env', stdin: 'none', env: ['DEEPSEEK_TOOL_NAME', 'DEEPSEEK_TOOL_ARGS'] });
    expect(j.events.find((e: { name: string }) => e.name === 'turn_end')).toMatchObject({ steering: 'observer', stdin: 'turn_end' });
    expect(j.events.find((e: { name: string }) => e.name === 'tool_call_before')).toMatchObject({ steering: 'gate', fired_by: 'engine' });
  });
});

describe.concurrent('usage errors', { timeout: 30_000 }, () => {
  it.each([
    [['hooks', 'frobnicate'], /unknown command 'hooks frobnicate'/],
    [['hooks', 'tets'], /unknown command 'hooks tets'; did you mean `hooks test`\?/],
    [['hooks', 'list', '--bogus'], /unknown option '--bogus'/],
    [['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--exit-code', 'x'], /--exit-code must be an integer/],
    [['hooks', 'approve'], /missing required argument 'digest'/],
    [['nonsense'], /unknown command 'nonsense'/],
  ])('%j → exit 2, one error line, no stack trace', async (args, message) => {
    const r = await sandbox().run(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('error: '))).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
