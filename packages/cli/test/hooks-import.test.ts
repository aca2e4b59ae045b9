import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { sandbox, type Sandbox } from './run-cli.js';

/** A realistic Claude Code setup: the user's settings, the project's shared file and a personal local one. */
const USER_SETTINGS = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": { "allow": ["Bash(npm run test:*)"] },
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "python3 ~/.claude/hooks/block-rm.py", "timeout": 10 }] },
      { "matcher": "mcp__github__.*", "hooks": [{ "type": "command", "command": "~/.claude/hooks/gh-audit.sh" }] }
    ],
    "Notification": [{ "hooks": [{ "type": "command", "command": "notify-send 'Claude Code' 'needs you'" }] }],
    "PreCompact": [{ "matcher": "auto", "hooks": [{ "type": "command", "command": "echo compacting" }] }]
  }
}
`;
const PROJECT_SETTINGS = `{
  "hooks": {
    "PostToolUse": [
      { "matcher": "Edit|Write", "hooks": [{ "type": "command", "command": "\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/format.sh", "timeout": 30 }] }
    ],
    "UserPromptSubmit": [{ "hooks": [{ "type": "command", "command": "node \\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/context.js" }] }],
    "Stop": [{ "hooks": [{ "type": "prompt", "prompt": "Are all tasks done? $ARGUMENTS" }] }],
    "PreToolUse": [{ "matcher": "^Notebook(Edit)?$", "hooks": [{ "type": "command", "command": "./nb-guard.sh" }] }]
  }
}
`;
const LOCAL_SETTINGS = `{
  "hooks": {
    "PostToolUse": [{ "matcher": "*", "hooks": [{ "type": "command", "command": "~/bin/log-tool.sh", "async": true }] }]
  }
}
`;
const CONFIG = `# my Codewhale config
model = "deepseek-chat" # the default model

[hooks]
enabled = true # keep hooks on
`;

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A sandbox with the three Claude Code files in place (HOME is the sandbox's root). */
function claudeSandbox(): Sandbox & { root: string } {
  const sb = sandbox();
  const root = dirname(sb.home);
  write(join(root, '.claude', 'settings.json'), USER_SETTINGS);
  write(join(sb.ws, '.claude', 'settings.json'), PROJECT_SETTINGS);
  write(join(sb.ws, '.claude', 'settings.local.json'), LOCAL_SETTINGS);
  sb.config(CONFIG);
  return Object.assign(sb, { root });
}

const read = (p: string): string | null => (existsSync(p) ? readFileSync(p, 'utf8') : null);

describe('codewhale hooks import', () => {
  test('dry run: the exact report, and nothing is written', async () => {
    const sb = claudeSandbox();
    const r = await sb.run(['hooks', 'import', '--from', 'claude-code']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const R = sb.root;
    expect(r.stdout.replaceAll(R, '<root>')).toBe(
      [
        'Claude Code hooks:',
        '  <root>/.claude/settings.json (user): 4 hooks',
        '  <root>/ws/.claude/settings.json (project): 4 hooks',
        '  <root>/ws/.claude/settings.local.json (project): 1 hook',
        '',
        'Would append to <root>/home/config.toml (3 new entries):',
        '',
        '# imported from <root>/.claude/settings.json PreToolUse[0].hooks[0]',
        '[[hooks.hooks]]',
        'name = "claude-code: PreToolUse Bash"',
        'event = "tool_call_before"',
        'protocol = "claude-code"',
        'command = "python3 ~/.claude/hooks/block-rm.py"',
        'timeout_secs = 10',
        'condition = { type = "tool_name", name = "bash" }',
        '',
        '# imported from <root>/.claude/settings.json PreToolUse[1].hooks[0]',
        '[[hooks.hooks]]',
        'name = "claude-code: PreToolUse mcp__github__.*"',
        'event = "tool_call_before"',
        'protocol = "claude-code"',
        'command = "~/.claude/hooks/gh-audit.sh"',
        'timeout_secs = 600',
        'condition = { type = "tool_name", name = "*mcp__github__*" }',
        '',
        '# imported from <root>/.claude/settings.json Notification[0].hooks[0]',
        '[[hooks.hooks]]',
        'name = "claude-code: Notification"',
        'event = "waiting_for_user"',
        'protocol = "claude-code"',
        `command = "notify-send 'Claude Code' 'needs you'"`,
        'timeout_secs = 600',
        '',
        'Would append to <root>/ws/.codewhale/hooks.toml (3 new entries):',
        '',
        '# imported from <root>/ws/.claude/settings.json PostToolUse[0].hooks[0]',
        '[[hooks]]',
        'name = "claude-code: PostToolUse Edit|Write"',
        'event = "tool_call_after"',
        'protocol = "claude-code"',
        'command = "\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/format.sh"',
        'timeout_secs = 30',
        'condition = { type = "any", conditions = [{ type = "tool_name", name = "edit" }, { type = "tool_name", name = "write" }] }',
        '',
        '# imported from <root>/ws/.claude/settings.json UserPromptSubmit[0].hooks[0]',
        '[[hooks]]',
        'name = "claude-code: UserPromptSubmit"',
        'event = "message_submit"',
        'protocol = "claude-code"',
        'command = "node \\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/context.js"',
        'timeout_secs = 600',
        '',
        '# imported from <root>/ws/.claude/settings.local.json PostToolUse[0].hooks[0]',
        '[[hooks]]',
        'name = "claude-code: PostToolUse"',
        'event = "tool_call_after"',
        'protocol = "claude-code"',
        'command = "~/bin/log-tool.sh"',
        'timeout_secs = 600',
        'background = true',
        '',
        '  Project hooks run only in a trusted workspace, once you approve this exact file: review it with `codewhale hooks review`, then `codewhale trust` and `codewhale hooks approve <digest>`.',
        '',
        'Notes:',
        '  <root>/ws/.claude/settings.json PostToolUse[0].hooks[0]: `tool_call_after` only observes: feedback for the model (exit 2, `decision: "block"`, `additionalContext`) is reported, not passed on',
        '  <root>/ws/.claude/settings.local.json PostToolUse[0].hooks[0]: `tool_call_after` only observes: feedback for the model (exit 2, `decision: "block"`, `additionalContext`) is reported, not passed on',
        '  <root>/ws/.claude/settings.local.json PostToolUse[0].hooks[0]: `async`: runs in the background (`background = true`), so it cannot steer',
        '',
        'Not carried over (3):',
        '  <root>/.claude/settings.json PreCompact[0].hooks[0] (matcher "auto"): Claude Code\'s `PreCompact` has no Codewhale counterpart',
        '  <root>/ws/.claude/settings.json Stop[0].hooks[0]: a `prompt` hook is not a command; Codewhale hooks run commands',
        '  <root>/ws/.claude/settings.json PreToolUse[0].hooks[0] (matcher "^Notebook(Edit)?$"): the matcher is a regular expression Codewhale cannot carry over: `(` is regular-expression syntax beyond `|` alternatives and `.*` wildcards',
        '',
        'Nothing was written. Run again with --write to append the new entries.',
        '',
      ].join('\n'),
    );
    expect(read(join(sb.home, 'config.toml'))).toBe(CONFIG);
    expect(existsSync(join(sb.ws, '.codewhale'))).toBe(false);
  });

  test('--write appends exactly what the dry run printed, keeps comments, loads, and a second import adds nothing', async () => {
    const sb = claudeSandbox();
    const dry = await sb.run(['hooks', 'import', '--from', 'claude-code', '--json']);
    const plan = JSON.parse(dry.stdout) as { targets: { file: string; toml: string }[] };
    const w = await sb.run(['hooks', 'import', '--from', 'claude-code', '--write']);
    expect(w.code).toBe(0);
    expect(w.stdout).toContain(`Appended to ${join(sb.home, 'config.toml')} (3 new entries):`);
    expect(w.stdout).toContain(`Appended to ${join(sb.ws, '.codewhale', 'hooks.toml')} (3 new entries):`);
    expect(w.stdout).not.toContain('Nothing was written');
    const config = read(join(sb.home, 'config.toml'))!;
    const project = read(join(sb.ws, '.codewhale', 'hooks.toml'))!;
    expect(config).toBe(`${CONFIG}${plan.targets[0]!.toml}`);
    expect(project).toBe(plan.targets[1]!.toml);

    const validateUser = await sb.run(['hooks', 'validate']);
    expect(validateUser.stderr).toBe('');
    expect(validateUser.code).toBe(0);
    const validateProject = await sb.run(['hooks', 'validate', join(sb.ws, '.codewhale', 'hooks.toml')]);
    expect(validateProject.code).toBe(0);
    const list = await sb.run(['hooks', 'list', '--json']);
    const hooks = (JSON.parse(list.stdout) as { hooks: { name: string; protocol: string }[] }).hooks;
    expect(hooks.map((h) => [h.name, h.protocol])).toEqual([
      ['claude-code: PreToolUse Bash', 'claude-code'],
      ['claude-code: PreToolUse mcp__github__.*', 'claude-code'],
      ['claude-code: Notification', 'claude-code'],
    ]);
    // The project file is not trusted or approved: its hooks do not load yet.
    expect(list.stdout).not.toContain('PostToolUse');
    // Review lists the script the imported command names under $CLAUDE_PROJECT_DIR, so approval pins it.
    const review = JSON.parse((await sb.run(['hooks', 'review', '--json'])).stdout) as { state: string; scripts: { path: string }[] };
    expect(review.state).not.toBe('approved');
    expect(review.scripts.map((s) => s.path)).toEqual(['.claude/hooks/context.js', '.claude/hooks/format.sh']);

    const again = await sb.run(['hooks', 'import', '--from', 'claude-code', '--write']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Nothing to append to ${join(sb.home, 'config.toml')} (0 new entries, 3 already there):`);
    expect(again.stdout).toContain(`  already there: ${join(sb.root, '.claude', 'settings.json')} PreToolUse[0].hooks[0]`);
    expect(read(join(sb.home, 'config.toml'))).toBe(config);
    expect(read(join(sb.ws, '.codewhale', 'hooks.toml'))).toBe(project);
  });

  test('malformed JSON: file, line and column, exit 3, no stack trace, nothing written', async () => {
    const sb = claudeSandbox();
    write(join(sb.ws, '.claude', 'settings.local.json'), '{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n');
    const r = await sb.run(['hooks', 'import', '--from', 'claude-code', '--write']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: ${join(sb.ws, '.claude', 'settings.local.json')}:3:14: invalid JSON: expected a value, found \`,\`\nhint: fix the file (JSON has no comments or trailing commas), then run the import again; nothing was written\n`,
    );
    expect(r.stderr).not.toMatch(/\bat .+:\d+:\d+\)/);
    expect(read(join(sb.home, 'config.toml'))).toBe(CONFIG);
    expect(existsSync(join(sb.ws, '.codewhale'))).toBe(false);
  });

  test('a named file that is missing, or a config.toml that cannot be parsed: exit 3, nothing written', async () => {
    const sb = claudeSandbox();
    const missing = await sb.run(['hooks', 'import', '--from', 'claude-code', 'nope.json', '--write']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe(`error: cannot read Claude Code settings file ${join(sb.ws, 'nope.json')}: ENOENT\nhint: check the path\n`);

    sb.config('[hooks\nenabled = true\n');
    const broken = await sb.run(['hooks', 'import', '--from', 'claude-code', '--write']);
    expect(broken.code).toBe(3);
    expect(broken.stderr).toContain(`error: ${join(sb.home, 'config.toml')}: config.toml cannot be edited safely: `);
    expect(broken.stderr).toContain('config.toml:1:');
    expect(read(join(sb.home, 'config.toml'))).toBe('[hooks\nenabled = true\n');
    // The project file is not written either: a problem with one target stops both.
    expect(existsSync(join(sb.ws, '.codewhale'))).toBe(false);

    // The same when the project's hooks.toml is the broken one: config.toml stays as it was.
    sb.config(CONFIG);
    sb.projectHooks('[[hooks]\n');
    const brokenProject = await sb.run(['hooks', 'import', '--from', 'claude-code', '--write']);
    expect(brokenProject.code).toBe(3);
    expect(brokenProject.stderr).toContain(`error: ${join(sb.ws, '.codewhale', 'hooks.toml')}: hooks.toml cannot be edited safely: hooks.toml:1:`);
    expect(read(join(sb.home, 'config.toml'))).toBe(CONFIG);
    expect(read(join(sb.ws, '.codewhale', 'hooks.toml'))).toBe('[[hooks]\n');
  });

  test('an imported Claude Code gate runs unchanged: it denies `rm -rf` by exit 2, allows the rest, sees only bash', async () => {
    const sb = sandbox();
    const root = dirname(sb.home);
    // A Claude Code PreToolUse gate as people write them: the stdin document in, exit 2 + stderr to block.
    write(
      join(root, '.claude', 'hooks', 'block-rm.mjs'),
      `let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const doc = JSON.parse(input);
  if (doc.hook_event_name === 'PreToolUse' && doc.tool_name === 'Bash' && /\\brm\\s+-rf\\b/.test(doc.tool_input.command)) {
    process.stderr.write('rm -rf is blocked by policy');
    process.exit(2);
  }
});
`,
    );
    write(
      join(root, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'node ~/.claude/hooks/block-rm.mjs', timeout: 10 }] }] } }),
    );
    expect((await sb.run(['hooks', 'import', '--from', 'claude-code', '--write'])).code).toBe(0);

    const rm = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"rm -rf build"}', '--expect', 'deny']);
    expect(rm.stderr).toBe('');
    expect(rm.code).toBe(0);
    expect(rm.stdout).toContain('claude-code: PreToolUse Bash (config.toml:2): deny (exit 2)');
    const ls = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}', '--expect', 'allow']);
    expect(ls.code).toBe(0);
    // The condition carried over: a read is not the gate's business.
    const read_ = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'read', '--input', '{"path":"rm -rf"}', '--json']);
    expect(read_.code).toBe(0);
    const readRun = JSON.parse(read_.stdout) as { hooks: { matched: boolean; reason: string }[]; outcomes: unknown[] };
    expect(readRun.hooks.map((h) => [h.matched, h.reason])).toEqual([[false, 'tool_name=`bash` does not match tool `read`']]);
    expect(readRun.outcomes).toEqual([]);
  });

  test('$CLAUDE_CONFIG_DIR and $CODEX_HOME move where your own settings are read', async () => {
    const sb = sandbox();
    write(join(sb.dir, 'claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } }));
    write(join(sb.dir, 'codex', 'hooks.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say codex' }] }] } }));
    const claude = JSON.parse((await sb.run(['hooks', 'import', '--from', 'claude-code', '--json'], { env: { CLAUDE_CONFIG_DIR: join(sb.dir, 'claude') } })).stdout) as {
      sources: { file: string; found: boolean }[];
      entries: { entry: { command: string } }[];
    };
    expect(claude.sources[0]).toMatchObject({ file: join(sb.dir, 'claude', 'settings.json'), found: true });
    expect(claude.entries.map((e) => e.entry.command)).toEqual(['say done']);
    const codex = JSON.parse((await sb.run(['hooks', 'import', '--from', 'codex', '--json'], { env: { CODEX_HOME: join(sb.dir, 'codex') } })).stdout) as { entries: { entry: { command: string } }[] };
    expect(codex.entries.map((e) => e.entry.command)).toEqual(['say codex']);
  });

  test('with hooks turned off in config.toml, the report says none of them runs', async () => {
    const sb = claudeSandbox();
    sb.config('[hooks]\nenabled = false\n');
    const r = await sb.run(['hooks', 'import', '--from', 'claude-code']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`\nHooks are turned off (\`[hooks] enabled = false\` in ${join(sb.home, 'config.toml')}): none of these runs until you set it to true.\n`);
  });

  test('a workspace that is your home reads your settings.json once, as yours', async () => {
    const sb = claudeSandbox();
    const r = await sb.run(['hooks', 'import', '--from', 'claude-code', '-w', sb.root]);
    expect(r.code).toBe(0);
    expect(r.stdout.replaceAll(sb.root, '<root>').split('\n').slice(0, 3)).toEqual([
      'Claude Code hooks:',
      '  <root>/.claude/settings.json (user): 4 hooks',
      '  <root>/.claude/settings.local.json (project): not found',
    ]);
    expect(r.stdout).toContain('(3 new entries)');
  });

  test('usage errors: --from missing or unknown', async () => {
    const sb = sandbox();
    const none = await sb.run(['hooks', 'import']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('`--from` is required: claude-code or codex');
    const bogus = await sb.run(['hooks', 'import', '--from', 'gemini']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('Allowed choices are claude-code, codex');
  });

  test("Codex: ~/.codex/config.toml's [[hooks.PreToolUse]], a named project file, and a TOML syntax error", async () => {
    const sb = sandbox();
    const root = dirname(sb.home);
    write(
      join(root, '.codex', 'config.toml'),
      `model = "gpt-5"\n\n[[hooks.PreToolUse]]\nmatcher = "Bash"\n\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "python3 ~/.codex/gate.py"\ntimeout = 5\n\n[[hooks.PreCompact]]\n[[hooks.PreCompact.hooks]]\ntype = "command"\ncommand = "echo"\n`,
    );
    write(join(sb.ws, 'hooks', 'codex-hooks.json'), JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'apply_patch', hooks: [{ type: 'command', command: './fmt.sh' }] }] } }));
    const user = await sb.run(['hooks', 'import', '--from', 'codex', '--json']);
    expect(user.code).toBe(0);
    const j = JSON.parse(user.stdout) as { entries: { scope: string; entry: Record<string, unknown> }[]; skipped: { reason: string }[]; sources: { file: string; found: boolean }[] };
    expect(j.sources.map((s) => [s.file.replace(root, '<root>'), s.found])).toEqual([
      ['<root>/.codex/config.toml', true],
      ['<root>/.codex/hooks.json', false],
      ['<root>/ws/.codex/config.toml', false],
      ['<root>/ws/.codex/hooks.json', false],
    ]);
    expect(j.entries).toMatchObject([{ scope: 'user', entry: { event: 'tool_call_before', command: 'python3 ~/.codex/gate.py', timeout_secs: 5, condition: { type: 'tool_name', name: 'bash' } } }]);
    expect(j.skipped.map((s) => s.reason)).toEqual(["Codex's `PreCompact` has no Codewhale counterpart"]);

    const named = await sb.run(['hooks', 'import', '--from', 'codex', 'hooks/codex-hooks.json', '--write']);
    expect(named.code).toBe(0);
    expect(read(join(sb.ws, '.codewhale', 'hooks.toml'))).toContain('condition = { type = "any", conditions = [{ type = "tool_name", name = "edit" }, { type = "tool_name", name = "write" }] }');
    expect(read(join(sb.home, 'config.toml'))).toBeNull();

    write(join(root, '.codex', 'config.toml'), 'model = "gpt-5"\n[[hooks.PreToolUse]\n');
    const bad = await sb.run(['hooks', 'import', '--from', 'codex']);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(new RegExp(`^error: ${join(root, '.codex', 'config.toml').replace(/[.]/g, '\\.')}:2:\\d+: TOML syntax error: `));
  });
});
