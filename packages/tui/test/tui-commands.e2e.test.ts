/**
 * Commands and approvals through a real terminal (tmux, the built binary, a replay script):
 * `/hooks events` runs the cli's command inside the UI, and "always" (`A`) applies at once in
 * the session as well as on disk.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTmux, Terminal } from './tmux.js';

describe('the TUI in a real terminal: /hooks events, and A applies at once', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-tui-cmd-')));
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  const term = new Terminal('commands', root);
  beforeAll(() => requireTmux());
  afterAll(() => {
    term.kill();
    rmSync(root, { recursive: true, force: true });
  });

  it('lists the events with /hooks events, and after A the same call runs without asking again', async () => {
    writeFileSync(join(home, 'config.toml'), `[projects."${ws}"]\ntrust_level = "trusted"\n`);
    const call = (id: string) => ({ tool_calls: [{ id, name: 'bash', arguments: { command: 'echo same-call' } }] });
    writeFileSync(join(root, 'script.jsonl'), `${[call('c1'), call('c2'), { text: 'both ran' }].map((l) => JSON.stringify(l)).join('\n')}\n`);
    term.start(['--replay', join(root, 'script.jsonl')], { cwd: ws, env: { CODEWHALE_HOME: home, HOME: root }, cols: 110, rows: 30 });
    await term.waitFor(/idle · Work · Ask/);
    await new Promise((r) => setTimeout(r, 200));

    term.type('/hooks events');
    term.key('Enter');
    const screen = await term.waitFor(/waiting_for_user/);
    expect(screen).toMatch(/❯ \/hooks events/);
    expect(screen).toMatch(/session_start/);
    expect(screen).not.toMatch(/unknown option/);

    term.type('run it twice');
    term.key('Enter');
    await term.waitFor(/Approve this tool call\?/);
    term.type('A');
    await term.waitFor(/always allowed: .*permissions\.toml: allow bash `echo same-call`/);
    // The second, identical call runs without a prompt: nothing else is typed.
    await term.waitFor(/both ran/, 15_000);
    const all = term.everything();
    expect(all).toMatch(/✓ #1 bash/);
    expect(all).toMatch(/✓ #2 bash/);
    expect(readFileSync(join(home, 'permissions.toml'), 'utf8')).toBe(`[[rules]]\ntool = "bash"\ncommand = "echo same-call"\nworkspace = "${ws}"\naction = "allow"\n`);
  }, 60_000);
});
