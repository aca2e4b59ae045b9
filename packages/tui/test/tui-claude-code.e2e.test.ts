/**
 * Claude Code hook scripts (docs/recipes/claude-code/), unchanged, under `protocol =
 * "claude-code"`, in the TUI through a real terminal: tmux runs the built `codewhale` binary
 * with a replay script; the person types, the gates decide, `/why` shows the peer's answer.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTmux, Terminal } from './tmux.js';

const RECIPES = fileURLToPath(new URL('../../../docs/recipes/claude-code/', import.meta.url));
const entry = (name: string, event: string, script: string) =>
  `[[hooks.hooks]]\nname = "${name}"\nevent = "${event}"\nprotocol = "claude-code"\ncommand = "node \\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/${script}"\n`;

describe('codewhale (the TUI) with Claude Code hooks', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-tui-cc-')));
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  const term = new Terminal('e2e-cc', root);
  beforeAll(() => requireTmux());
  afterAll(() => {
    term.kill();
    rmSync(root, { recursive: true, force: true });
  });

  it('gate by exit 2, JSON rewrite, PostToolUse logger and prompt context run unchanged; /why shows the answers', async () => {
    mkdirSync(home, { recursive: true });
    mkdirSync(join(ws, '.claude', 'hooks'), { recursive: true });
    for (const f of ['block-rm-rf.mjs', 'permission-json.mjs', 'log-tool-use.mjs', 'prompt-context.mjs']) copyFileSync(join(RECIPES, f), join(ws, '.claude', 'hooks', f));
    writeFileSync(join(ws, 'victim'), 'keep me');
    writeFileSync(
      join(home, 'config.toml'),
      `[projects."${ws}"]\ntrust_level = "trusted"\n\n[hooks]\n` +
        entry('block-rm-rf', 'tool_call_before', 'block-rm-rf.mjs') +
        entry('policy', 'tool_call_before', 'permission-json.mjs') +
        entry('logger', 'tool_call_after', 'log-tool-use.mjs') +
        entry('context', 'message_submit', 'prompt-context.mjs'),
    );
    const script = [
      { tool_calls: [{ id: 'call_a', name: 'bash', arguments: { command: 'rm -rf victim' } }] },
      { tool_calls: [{ id: 'call_b', name: 'bash', arguments: { command: 'echo original' } }] },
      { text: 'Turn done.' },
    ];
    writeFileSync(join(root, 'script.jsonl'), `${script.map((l) => JSON.stringify(l)).join('\n')}\n`);
    term.start(['--auto', '--replay', join(root, 'script.jsonl')], { cwd: ws, env: { CODEWHALE_HOME: home, HOME: root }, cols: 220 });
    await term.waitFor(/idle · Work/);
    await new Promise((r) => setTimeout(r, 200));

    // A prompt that carries a password is blocked by the UserPromptSubmit hook, with its reason.
    term.type('password: hunter2');
    term.key('Enter');
    await term.waitFor(/the prompt seems to contain a password/);

    // Clear the composer (the blocked text came back to it), then a real prompt: context is added.
    term.key('C-u');
    term.type('tidy the workspace');
    term.key('Enter');
    await term.waitFor(/✗ #1 bash/);
    await term.waitFor(/✓ #2 bash/);
    await term.waitFor(/Turn done\./);
    await term.waitFor(/○ idle/);
    let screen = term.screen();
    expect(screen).toMatch(/\[hook context\] Project rule: run the tests before committing\./);
    expect(screen).toMatch(/rewritten/);
    expect(readFileSync(join(ws, 'victim'), 'utf8')).toBe('keep me');

    term.type('/why 1');
    term.key('Enter');
    await term.waitFor(/claude-code answer: exit 2; stderr reason: "Blocked: rm \[argument\] is not allowed/);
    screen = term.screen();
    expect(screen).toMatch(/#1 bash: deny \(exit_2\)/);
    expect(screen).toMatch(/claude-code hooks were given:\s*\{"transcript_path":null,"cwd":"[^"]+","permission_mode":"bypassPermissions","hook_event_name":"PreToolUse"/);
    term.type('/why 2');
    term.key('Enter');
    await term.waitFor(/claude-code answer: exit 0; JSON permissionDecision: allow; updatedInput with command/);

    term.type('/quit');
    term.key('Enter');
    expect(await term.exitCode()).toBe(0);

    // The PostToolUse logger saw both calls, in the peer's terms, under `--auto` (Full Access: bypassPermissions).
    const logFile = join(ws, '.claude', 'tool-log.jsonl');
    expect(existsSync(logFile)).toBe(true);
    const logged = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged.map((l) => [l.event, l.tool_name, l.tool_use_id, l.success, l.permission_mode])).toEqual([
      ['PostToolUse', 'Bash', 'call_a', false, 'bypassPermissions'],
      ['PostToolUse', 'Bash', 'call_b', true, 'bypassPermissions'],
    ]);
    expect(logged[1]!.tool_input).toEqual({ command: 'echo rewritten' });
  }, 120_000);
});
