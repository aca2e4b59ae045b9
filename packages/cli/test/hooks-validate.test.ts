/**
 * `codewhale hooks validate [FILE]`: the built binary against real files.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandbox } from './run-cli.js';

const BROKEN_CONFIG = `# my hooks
[hooks]
default_timeout_secs = 0
enabeld = true

[[hooks.hooks]]
name = "env"
event = "shell_env"
command = "print-env"
condition = { type = "mode", mode = "plan" }

[[hooks.hooks]]
name = "gate"
event = "tool_call_before"
command = "gate.sh"
conditon = { type = "tool_name", name = "bash" }

[[hooks.hooks]]
name = "ok"
event = "turn_end"
command = "notify.sh"
background = true
`;

describe.concurrent('codewhale hooks validate', { timeout: 30_000 }, () => {
  it('checks the user config by default: a valid file exits 0 with the summary', async () => {
    const sb = sandbox();
    sb.config('[hooks]\n[[hooks.hooks]]\nevent = "turn_end"\ncommand = "notify.sh"\n[[hooks.hooks]]\nevent = "shell_env"\ncommand = "creds"\nbackground = true\n');
    const r = await sb.run(['hooks', 'validate']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Checking ${join(sb.home, 'config.toml')} as a config.toml`);
    expect(r.stdout).toContain(`${join(sb.home, 'config.toml')}:5: warning: \`shell_env\` hook \`(unnamed)\` — \`background = true\` is not honored for \`shell_env\``);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('2 hooks valid, 0 rejected, 1 warning');
  });

  it('rejected entries: every problem with file and line, exit 1', async () => {
    const sb = sandbox();
    sb.config(BROKEN_CONFIG);
    const r = await sb.run(['hooks', 'validate']);
    expect(r.code).toBe(1);
    const f = join(sb.home, 'config.toml');
    expect(r.stdout).toContain(`${f}:3: rejected: \`[hooks]\` setting — \`default_timeout_secs = 0\``);
    expect(r.stdout).toContain(`${f}:4: warning: \`[hooks]\` setting — unknown key \`enabeld\` in \`[hooks]\` is ignored; did you mean \`enabled\`?`);
    expect(r.stdout).toContain(`${f}:6: rejected: \`shell_env\` hook \`env\` — `);
    expect(r.stdout).toContain(`${f}:12: rejected: \`tool_call_before\` hook \`gate\` — unknown key \`conditon\`; did you mean \`condition\`?`);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 hook valid, 2 rejected (and 1 setting rejected), 1 warning');
    expect(r.stdout).not.toContain('gate.sh');
  });

  it('--json: hooks, problems with file/line/entry, counts', async () => {
    const sb = sandbox();
    sb.config(BROKEN_CONFIG);
    const r = await sb.run(['hooks', 'validate', '--json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ kind: 'config', ok: false, summary: { valid: 1, rejected: 2, rejected_settings: 1, warnings: 1 } });
    expect(j.hooks).toEqual([expect.objectContaining({ label: 'ok', event: 'turn_end', line: 18 })]);
    expect(j.problems.find((p: { code: string }) => p.code === 'unknown_key')).toMatchObject({ severity: 'rejected', line: 12, entry: 1, file: join(sb.home, 'config.toml') });
  });

  it('a TOML syntax error: exit 3 naming file, line and column', async () => {
    const sb = sandbox();
    const file = join(sb.dir, 'broken.toml');
    writeFileSync(file, '[hooks]\n[[hooks.hooks]]\nevent = "turn_end\ncommand = "x"\n');
    const r = await sb.run(['hooks', 'validate', file]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^error: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:\\d+: TOML syntax error: .+\\nhint: .+\\n$`));
    const j = await sb.run(['hooks', 'validate', file, '--json']);
    expect(j.code).toBe(3);
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: false, error: { code: 'toml_syntax', line: 3 } });
  });

  it('an unreadable FILE exits 3; a missing default config is nothing to check (exit 0)', async () => {
    const sb = sandbox();
    const r = await sb.run(['hooks', 'validate', 'no-such.toml']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: cannot read .*no-such\.toml: ENOENT\n/);
    const d = await sb.run(['hooks', 'validate']);
    expect(d.code).toBe(0);
    expect(d.stdout).toContain('does not exist: no hooks are configured');
  });

  it('detects a project hooks.toml by its [[hooks]] shape', async () => {
    const sb = sandbox();
    sb.projectHooks('enabled = false\n\n[[hooks]]\nevent = "turn_end"\ncommand = "./n.sh"\n\n[[hooks]]\nevent = "turn_ended"\ncommand = "x"\n');
    const r = await sb.run(['hooks', 'validate', '.codewhale/hooks.toml']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('as a project hooks.toml (`[[hooks]]` entries)');
    expect(r.stdout).toContain(`${join(sb.ws, '.codewhale', 'hooks.toml')}:7: rejected: \`turn_ended\` hook \`(unnamed)\` — unknown event \`turn_ended\`; did you mean \`turn_end\`?`);
    expect(r.stdout).toContain('1 hook valid, 1 rejected, 0 warnings');
    // The same shape in a file named anything else is still a project file.
    const other = join(sb.dir, 'shared-hooks.toml');
    writeFileSync(other, '[[hooks]]\nevent = "session_start"\ncommand = "x"\n');
    const o = await sb.run(['hooks', 'validate', other]);
    expect(o.code).toBe(0);
    expect(o.stdout).toContain('as a project hooks.toml');
  });

  it('the project shape written in the user config is reported there (exit 1)', async () => {
    const sb = sandbox();
    sb.config('[[hooks]]\nevent = "turn_end"\ncommand = "x"\n');
    const r = await sb.run(['hooks', 'validate']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('config.toml:1: rejected: `[hooks]` setting — `[[hooks]]` is the shape of a project `hooks.toml`');
  });
});
