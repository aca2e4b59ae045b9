/**
 * Defects of the transcript, each through a real terminal (tmux, the built binary, the fake
 * OpenAI server on 127.0.0.1, real hook processes): a failed gate leaves a line saying which
 * hook failed and how; a refused call is said in a person's words, never in the text written
 * for the model; a tool's time is its run, the approval wait apart; the token count moves in
 * the first turn; an HTTP 500 is a provider error; and `/hooks approve` takes effect from the
 * next session, as it says.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeTurn } from '@codewhale/engine/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireTmux, Terminal } from './tmux.js';

interface Rig {
  readonly fake: FakeOpenAIServer;
  readonly root: string;
  readonly home: string;
  readonly ws: string;
  readonly terms: Terminal[];
}
const rigs: Rig[] = [];

async function rig(turns: FakeTurn[], config = '', project?: string): Promise<Rig> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-tui-defects-')));
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  if (project) {
    mkdirSync(join(ws, '.codewhale'));
    writeFileSync(join(ws, '.codewhale', 'hooks.toml'), project);
  }
  const fake = await startFakeOpenAIServer({ turns });
  writeFileSync(
    join(home, 'config.toml'),
    `provider = "fake"\n\n[providers.fake]\nbase_url = "${fake.url}"\nmodel = "fake-model"\napi_key_env = "FAKE_API_KEY"\n\n${config}\n[projects."${ws}"]\ntrust_level = "trusted"\n`,
  );
  const r = { fake, root, home, ws, terms: [] };
  rigs.push(r);
  return r;
}

async function start(r: Rig, args: string[] = []): Promise<Terminal> {
  const dir = join(r.root, `t${r.terms.length}`);
  mkdirSync(dir);
  const term = new Terminal(`defects${rigs.length}-${r.terms.length}`, dir);
  r.terms.push(term);
  term.start(args, { cwd: r.ws, env: { CODEWHALE_HOME: r.home, HOME: r.root, FAKE_API_KEY: 'sk-fake-defects' }, cols: 130, rows: 40 });
  await term.waitFor(/idle · Work/);
  await new Promise((res) => setTimeout(res, 200));
  return term;
}

function send(term: Terminal, text: string): void {
  term.type(text);
  term.key('Enter');
}

const SETTLED = /^(?![\s\S]*working \(Esc to cancel\))[\s\S]*○ idle/;
const bash = (id: string, command: string, more: Partial<FakeTurn> = {}): FakeTurn => ({ tool_calls: [{ id, name: 'bash', arguments: { command } }], ...more }) as FakeTurn;

beforeAll(() => requireTmux());
afterEach(async () => {
  for (const r of rigs.splice(0)) {
    for (const t of r.terms) t.kill();
    await r.fake.close();
    rmSync(r.root, { recursive: true, force: true });
  }
});

describe('the TUI in a real terminal: what failed, who refused, how long it took', () => {
  it('a failed gate leaves a line naming the hook and how it failed; a refused call never shows the model text', async () => {
    const gates =
      '[hooks]\n[[hooks.hooks]]\nname = "crashy"\nevent = "tool_call_before"\ncommand = "echo boom >&2; exit 1"\n' +
      '[[hooks.hooks]]\nname = "missing"\nevent = "tool_call_before"\ncommand = "/nonexistent/gate.sh"\ncontinue_on_error = false\ncondition = { type = "tool_name", name = "read" }\n' +
      // A background gate is warned about (a toast, on screen at the end): in the UI's words too.
      '[[hooks.hooks]]\nname = "bg"\nevent = "tool_call_before"\ncommand = "true"\nbackground = true\n';
    const r = await rig(
      [
        {
          tool_calls: [
            { id: 'c1', name: 'bash', arguments: { command: 'echo ran-one' } },
            { id: 'c2', name: 'read', arguments: { path: 'a.txt' } },
          ],
        },
        { text: 'ALL-DONE' },
      ],
      gates,
    );
    const term = await start(r, ['--auto']);
    send(term, 'go');
    await term.waitFor(/ALL-DONE/, 30_000);
    await term.waitFor(SETTLED, 30_000);
    const all = term.everything();
    // Long lines are word-wrapped by the UI: compare with the breaks as spaces.
    const flat = all.replace(/\s+/g, ' ');
    expect(flat).toContain('hook crashy (tool_call_before) failed · exit 1 — no verdict; ignored (continue_on_error = true)');
    expect(flat).toContain('hook missing (tool_call_before) failed · exit 127: command not found — hook returned no verdict; the call is denied (continue_on_error = false)');
    expect(all).toMatch(/✓ #1 bash \(\d+ ms\) · \/why 1\n\s+ran-one/);
    expect(all).toContain('✗ #2 read denied by a tool_call_before hook · /why 2');
    expect(all).not.toMatch(/ToolCallBefore|Error:|Adjust approval mode/);
  }, 60_000);

  it("a tool's time is its run, the approval wait apart; tokens count in the first turn; a user's no is said as such", async () => {
    const r = await rig([bash('c1', 'echo first', { usage: { prompt_tokens: 1234, completion_tokens: 56 } }), bash('c2', 'echo second'), { text: 'BOTH-ASKED' }]);
    const term = await start(r);
    send(term, 'go');
    await term.waitFor(/Approve this tool call\?/, 20_000);
    // Still the first turn: the first request's tokens are counted already.
    await term.waitFor(/waiting.*1290 tok/, 10_000);
    await new Promise((res) => setTimeout(res, 1500));
    term.type('y');
    await term.waitFor(/✓ #1 bash/, 20_000);
    await term.waitFor(/Approve this tool call\?/, 20_000);
    term.type('n');
    await term.waitFor(/BOTH-ASKED/, 20_000);
    await term.waitFor(SETTLED, 20_000);
    send(term, '/why 2');
    await term.waitFor(/approval: the posture asked; you denied it/, 10_000);
    const all = term.everything();
    const m = all.match(/✓ #1 bash \((\d+) ms · waited (\d+\.\d) s for approval\)/);
    expect(m).not.toBeNull();
    expect(Number(m![2])).toBeGreaterThanOrEqual(1.4);
    expect(Number(m![1])).toBeLessThan(Number(m![2]) * 1000);
    expect(all).toMatch(/✗ #2 bash denied at the approval prompt/);
    expect(all).not.toMatch(/Do not retry/);
  }, 60_000);

  it('an HTTP 500 from the provider is labelled a provider error, once', async () => {
    const r = await rig([{ status: 500 }], '[retry]\nenabled = false\n');
    const term = await start(r);
    send(term, 'hi');
    await term.waitFor(/turn failed/, 20_000);
    const all = term.everything();
    expect(all).toMatch(/provider error \(HTTP 500\): fake: HTTP 500/);
    expect(all).not.toMatch(/network/);
    expect(all.match(/HTTP 500 Internal Server Error/g)).toHaveLength(1);
  }, 60_000);
});

describe('the TUI in a real terminal: start-up', () => {
  it('says the session is starting while a slow session_start hook runs, then draws the UI in its place', async () => {
    const r = await rig([], '[hooks]\n[[hooks.hooks]]\nname = "slow-start"\nevent = "session_start"\ncommand = "sleep 3"\n');
    const dir = join(r.root, 'slow');
    mkdirSync(dir);
    const term = new Terminal(`defects-slow-${rigs.length}`, dir);
    r.terms.push(term);
    term.start([], { cwd: r.ws, env: { CODEWHALE_HOME: r.home, HOME: r.root, FAKE_API_KEY: 'sk-fake-defects' }, cols: 100, rows: 30 });
    // Not a blank screen: the line is there while the hook runs...
    await term.waitFor(/starting the session \(session_start hooks run first\)…/, 10_000);
    expect(term.visible()).not.toMatch(/idle · Work/);
    // ...and gone once the UI is up.
    const up = await term.waitFor(/idle · Work/, 20_000);
    expect(up).not.toMatch(/starting the session/);
  }, 60_000);
});

describe('the TUI in a real terminal: /hooks approve takes effect from the next session', () => {
  it('approved in a session, the project hooks do not run in it; the next session runs them', async () => {
    const project = '[[hooks]]\nname = "proj-deny"\nevent = "tool_call_before"\ncommand = "exit 2"\n';
    const r = await rig([bash('c1', 'echo still-runs'), { text: 'FIRST-DONE' }, bash('c2', 'echo still-runs'), { text: 'SECOND-DONE' }], '', project);
    const digest = createHash('sha256')
      .update(readFileSync(join(r.ws, '.codewhale', 'hooks.toml')))
      .digest('hex');
    const first = await start(r, ['--auto']);
    send(first, `/hooks approve ${digest}`);
    await first.waitFor(/takes effect from the next session/, 15_000);
    // The hot reload of config.toml says the same, and loads nothing.
    await first.waitFor(/approved during this session load when the next session starts/, 15_000);
    send(first, 'run it');
    await first.waitFor(/FIRST-DONE/, 20_000);
    expect(first.everything()).toMatch(/✓ #1 bash \(\d+ ms\)\n\s+still-runs/);
    expect(first.everything()).not.toMatch(/proj-deny/);
    first.key('C-d');
    expect(await first.exitCode()).toBe(0);

    const second = await start(r, ['--auto']);
    send(second, 'run it again');
    await second.waitFor(/SECOND-DONE/, 20_000);
    const all = second.everything();
    expect(all).toContain('hook proj-deny (tool_call_before) denied');
    expect(all).toContain('✗ #1 bash denied by a tool_call_before hook · /why 1');
  }, 90_000);
});
