/**
 * End to end through a real terminal: tmux runs the built `codewhale` binary with a replay
 * script and a real hook script on all 15 events; the test types, approves, queues a message,
 * switches mode, reads the screen, asks the control socket, and quits — then checks that every
 * event fired with the environment and stdin the contract specifies.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTmux, Terminal } from './tmux.js';

const EVENTS = [
  'session_start',
  'session_end',
  'message_submit',
  'tool_call_before',
  'shell_env',
  'tool_call_after',
  'on_error',
  'turn_end',
  'mode_change',
  'subagent_spawn',
  'subagent_complete',
  'session_busy',
  'session_idle',
  'session_error',
  'waiting_for_user',
] as const;

interface Fired {
  readonly event: string;
  readonly seq: number;
  readonly env: Record<string, string>;
  readonly stdin: string;
}

function sandbox() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-tui-')));
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  const log = join(root, 'log');
  for (const d of [home, ws, log]) mkdirSync(d, { recursive: true });
  const recorder = join(root, 'record.sh');
  writeFileSync(
    recorder,
    `#!/bin/sh
# Record one hook firing: the event, the DEEPSEEK_/CODEWHALE_ environment and stdin.
n=$(date +%s%N)
env | grep -E '^(DEEPSEEK_|CODEWHALE_SESSION_ID|CODEWHALE_TOOL_CALL_ID)' | sort > "$CW_LOG/$n.$1.env"
cat > "$CW_LOG/$n.$1.stdin"
`,
  );
  chmodSync(recorder, 0o755);
  return { root, home, ws, log, recorder };
}

function readFired(log: string): Fired[] {
  const out: Fired[] = [];
  for (const f of readdirSync(log)
    .filter((x) => x.endsWith('.env'))
    .sort()) {
    const [seq, event] = f.split('.');
    const env = Object.fromEntries(
      readFileSync(join(log, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    const stdinPath = join(log, f.replace(/\.env$/, '.stdin'));
    out.push({ event: event!, seq: Number(seq), env, stdin: existsSync(stdinPath) ? readFileSync(stdinPath, 'utf8') : '' });
  }
  return out;
}

function status(path: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const s = connect(path);
    let buf = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      buf += d;
      if (buf.includes('\n')) {
        s.end();
        resolve(JSON.parse(buf.split('\n')[0]!) as Record<string, unknown>);
      }
    });
    s.on('error', reject);
    s.write('{"verb":"status"}\n');
  });
}

describe('codewhale (the TUI) in a real terminal', () => {
  const sb = sandbox();
  const term = new Terminal('e2e', sb.root);
  beforeAll(() => requireTmux());
  afterAll(() => {
    term.kill();
    rmSync(sb.root, { recursive: true, force: true });
  });

  it('fires all 15 events from a real hook script while a person types, approves, queues, switches mode and quits', async () => {
    const hooks = EVENTS.map((e) => `[[hooks.hooks]]\nname = "rec-${e}"\nevent = "${e}"\ncommand = "${sb.recorder} ${e}"\n`).join('\n');
    const slow = `[[hooks.hooks]]\nname = "slow-lint"\nevent = "message_submit"\ncommand = "sleep 1"\n`;
    writeFileSync(join(sb.home, 'config.toml'), `# my config\n[projects."${sb.ws}"]\ntrust_level = "trusted"\n\n${hooks}\n${slow}`);
    const script = [
      // turn 1, step 1: a shell call (Ask posture: approval → waiting_for_user)
      { text: 'Checking.', tool_calls: [{ id: 'call_a', name: 'bash', arguments: { command: 'echo hello-from-bash' } }] },
      // step 2: a sub-agent; its one model turn is the next line
      { tool_calls: [{ id: 'call_b', name: 'agent', arguments: { prompt: 'count the files' } }] },
      { text: 'child says 3 files' },
      // step 3: a failing shell command (on_error for a tool failure)
      { tool_calls: [{ id: 'call_c', name: 'bash', arguments: { command: 'echo nope; exit 3' } }] },
      // step 4: the answer, slowly, so a message can be queued meanwhile
      { delay_ms: 2500, text: 'First turn done.' },
      // turn 2 (the queued message): a terminal failure (session_error)
      { error: { category: 'authentication', message: 'replayed auth failure' } },
    ];
    writeFileSync(join(sb.root, 'script.jsonl'), `${script.map((l) => JSON.stringify(l)).join('\n')}\n`);

    term.start(['--replay', join(sb.root, 'script.jsonl')], { cwd: sb.ws, env: { CODEWHALE_HOME: sb.home, HOME: sb.root, CW_LOG: sb.log } });
    await term.waitFor(/idle · Work · Ask/);
    await new Promise((r) => setTimeout(r, 200));
    term.type('list the files');
    term.key('Enter');
    // hook activity, live: the slow message_submit hook is named in the status row while it runs
    await term.waitFor(/⏳ message_submit hook slow-lint \(2\/2\)/);
    await term.waitFor(/Approve this tool call\?/);
    let screen = term.screen();
    expect(screen).toMatch(/bash: echo hello-from-bash/);
    // the control socket reads the same state the hooks fire from
    const sessionId = readdirSync(join(sb.home, 'run'))[0]!.replace(/\.sock$/, '');
    expect(await status(join(sb.home, 'run', `${sessionId}.sock`))).toMatchObject({ session_id: sessionId, state: 'waiting', reason: 'approval', workspace: sb.ws, mode: 'work' });
    term.type('a'); // allow bash for the session (the failing call later runs without a prompt)
    await term.waitFor(/✓ #1 bash/);
    await term.waitFor(/agent: \{"prompt":"count the files"\}/);
    expect(term.screen()).toMatch(/A always \(permissions rule\)/);
    term.type('A'); // the sub-agent call asks too: "always" writes a typed permissions.toml rule
    await term.waitFor(/always allowed: .*permissions\.toml: allow agent/);
    await term.waitFor(/✗ #3 bash/);
    expect(readFileSync(join(sb.home, 'permissions.toml'), 'utf8')).toBe(`[[rules]]\ntool = "agent"\nworkspace = "${sb.ws}"\naction = "allow"\n`);
    term.type('and then this');
    term.key('Enter');
    await term.waitFor(/queued 1: and then this|queued \(1\)/);
    await term.waitFor(/error \(authentication\)|turn failed/, 30_000);
    await term.waitFor(/○ idle/);
    term.key('Tab');
    await term.waitFor(/idle · Operate/);
    screen = term.screen();
    expect(screen).toMatch(/❯ list the files/);
    expect(screen).toMatch(/hello-from-bash/);
    expect(screen).toMatch(/agent .* started: count the files/);
    term.type('/quit');
    term.key('Enter');
    expect(await term.exitCode()).toBe(0);
    expect(existsSync(join(sb.home, 'run', `${sessionId}.sock`))).toBe(false);

    const fired = readFired(sb.log);
    const seen = new Set(fired.map((f) => f.event));
    expect([...EVENTS].filter((e) => !seen.has(e))).toEqual([]);
    const one = (e: string) => fired.filter((f) => f.event === e);

    // one session id everywhere (shell_env gets none of the base set)
    for (const f of fired.filter((x) => x.event !== 'shell_env')) {
      expect(f.env.DEEPSEEK_SESSION_ID, f.event).toBe(sessionId);
      expect(f.env.DEEPSEEK_WORKSPACE, f.event).toBe(sb.ws);
    }
    expect(one('shell_env')[0]!.env.DEEPSEEK_SESSION_ID).toBeUndefined();
    expect(one('shell_env')[0]!.env.DEEPSEEK_TOOL_NAME).toBe('exec_shell');
    // order: session_start first, session_end last
    expect(fired[0]!.event).toBe('session_start');
    expect(fired.at(-1)!.event).toBe('session_end');
    // message_submit: the fresh and the queued message, with its stdin document
    expect(one('message_submit').map((f) => f.env.DEEPSEEK_MESSAGE)).toEqual(['list the files', 'and then this']);
    expect(JSON.parse(one('message_submit')[0]!.stdin)).toMatchObject({ event: 'message_submit', session_id: sessionId, text: 'list the files', mode: 'ACT' });
    // tool events
    const before = one('tool_call_before').map((f) => [f.env.DEEPSEEK_TOOL_NAME, f.env.DEEPSEEK_MODE]);
    expect(before).toContainEqual(['bash', 'Agent']);
    const after = one('tool_call_after').find((f) => f.env.DEEPSEEK_TOOL_CALL_ID === 'call_a')!;
    expect(after.env.DEEPSEEK_TOOL_SUCCESS).toBe('true');
    expect(JSON.parse(after.env.DEEPSEEK_TOOL_EXECUTION_RECEIPT!)).toMatchObject({ command: 'echo hello-from-bash', exit_code: 0 });
    expect(JSON.parse(after.stdin)).toMatchObject({ event: 'tool_call_after', tool_name: 'bash', tool_call_id: 'call_a', execution_receipt: { command: 'echo hello-from-bash', exit_code: 0 } });
    expect(
      one('on_error')
        .map((f) => f.env.DEEPSEEK_ERROR)
        .join('\n'),
    ).toMatch(/bash/);
    // turn_end: after totals, the queued message counted
    const turnEnds = one('turn_end').map((f) => JSON.parse(f.stdin) as Record<string, unknown>);
    expect(turnEnds[0]).toMatchObject({ event: 'turn_end', session_id: sessionId, status: 'completed', queued_message_count: 1 });
    expect(turnEnds[1]).toMatchObject({ status: 'failed' });
    // It fired before the queued message was dispatched: it counted that message. (When its
    // process starts is another matter: observers run on two workers, so the queued
    // message's own hook may start first; the guide says so.)
    expect(one('message_submit')).toHaveLength(2);
    // sub-agents
    expect(JSON.parse(one('subagent_spawn')[0]!.stdin)).toMatchObject({ event: 'subagent_spawn', prompt_preview: 'count the files' });
    expect(JSON.parse(one('subagent_complete')[0]!.stdin)).toMatchObject({ event: 'subagent_complete', result_preview: 'child says 3 files', status: 'completed' });
    // mode change (UI spelling)
    expect(one('mode_change')[0]!.env).toMatchObject({ DEEPSEEK_PREVIOUS_MODE: 'ACT', DEEPSEEK_MODE: 'OPERATE' });
    // the four session-state events, with their exact documents
    expect(JSON.parse(one('session_busy')[0]!.stdin)).toEqual({ from: 'idle', to: 'in_progress' });
    expect(JSON.parse(one('waiting_for_user')[0]!.stdin)).toEqual({ from: 'in_progress', to: 'waiting', reason: 'approval' });
    // One idle, at the very end: the queued message kept the session busy after the first turn (D31).
    expect(one('session_idle').map((f) => JSON.parse(f.stdin))).toEqual([{ from: 'in_progress', to: 'idle', last_turn_status: 'failed' }]);
    expect(JSON.parse(one('session_error')[0]!.stdin)).toMatchObject({ status: 'failed' });
    // the user's config kept its comment (nothing rewrote it)
    expect(readFileSync(join(sb.home, 'config.toml'), 'utf8')).toMatch(/^# my config/);
  }, 120_000);
});

describe('codewhale (the TUI): launch trust prompt, paste, hot reload, Ctrl-C twice', () => {
  const sb = sandbox();
  const term = new Terminal('e2e2', sb.root);
  beforeAll(() => requireTmux());
  afterAll(() => {
    term.kill();
    rmSync(sb.root, { recursive: true, force: true });
  });

  it('asks before trusting, keeps the config comments, sends a big paste as one message, reloads edited hooks, and ends on Ctrl-C twice', async () => {
    const hook = (e: string) => `[[hooks.hooks]]\nname = "rec-${e}"\nevent = "${e}"\ncommand = "${sb.recorder} ${e}"\n`;
    const configPath = join(sb.home, 'config.toml');
    writeFileSync(configPath, `# keep this comment\n${hook('message_submit')}\n${hook('session_end')}`);
    mkdirSync(join(sb.ws, '.codewhale'), { recursive: true });
    writeFileSync(join(sb.ws, '.codewhale', 'hooks.toml'), '[[hooks]]\nevent = "session_start"\ncommand = "echo project"\n');
    writeFileSync(join(sb.root, 'script.jsonl'), '{"text":"got the paste"}\n{"text":"second"}\n{"delay_ms":20000,"text":"never shown"}\n');

    term.start(['--replay', join(sb.root, 'script.jsonl')], { cwd: sb.ws, env: { CODEWHALE_HOME: sb.home, HOME: sb.root, CW_LOG: sb.log } });
    let screen = await term.waitFor(/Do you trust the files in this folder\?/);
    expect(screen).toMatch(/hooks\.toml: pending approval/);
    term.key('Enter'); // not an answer: the prompt needs an explicit key
    await new Promise((r) => setTimeout(r, 300));
    expect(term.screen()).toMatch(/Do you trust/);
    term.type('1');
    screen = await term.waitFor(/idle · Work · Ask/);
    expect(screen).toMatch(/pending approval: review them with \/hooks review/);
    const config = readFileSync(configPath, 'utf8');
    expect(config).toMatch(/^# keep this comment/);
    expect(config).toContain(`[projects."${sb.ws}"]\ntrust_level = "trusted"`);

    // a 300-line paste is one message, not 300 submissions
    const lines = Array.from({ length: 300 }, (_, i) => `pasted line ${i + 1}`);
    await new Promise((r) => setTimeout(r, 200));
    term.paste(lines.join('\n'));
    await term.waitFor(/pasted line 300/);
    term.key('Enter');
    await term.waitFor(/got the paste/);
    let fired = readFired(sb.log);
    expect(fired.filter((f) => f.event === 'message_submit')).toHaveLength(1);
    // (the recorder's env dump is line-based, so read the whole message from the stdin document)
    expect(JSON.parse(fired.find((f) => f.event === 'message_submit')!.stdin).text).toBe(lines.join('\n'));

    // hot reload: a new hook in config.toml applies without a restart, same session id
    writeFileSync(configPath, `${readFileSync(configPath, 'utf8')}\n${hook('turn_end')}`);
    await term.waitFor(/configuration reloaded: 3 hooks/);
    term.type('again');
    term.key('Enter');
    await term.waitFor(/second/);
    await term.waitFor(/○ idle/);

    // /hooks runs the cli's own list inside the UI
    term.type('/hooks list');
    term.key('Enter');
    await term.waitFor(/rec-turn_end/);

    // approve the project hooks from inside the UI: that takes effect from the next session, as it
    // says (the reload its write causes loads none of them); then change the file, and the UI says so
    const projectFile = join(sb.ws, '.codewhale', 'hooks.toml');
    const digest = createHash('sha256').update(readFileSync(projectFile)).digest('hex');
    term.type(`/hooks approve ${digest.slice(0, 16)}`);
    term.key('Enter');
    await term.waitFor(/approved project hooks[\s\S]*takes\s+effect\s+from\s+the\s+next\s+session/);
    await term.waitFor(/configuration reloaded: 3 hooks\s+project\s+hooks\s+approved\s+during\s+this\s+session\s+load\s+when\s+the\s+next\s+session\s+starts/);
    expect(term.screen()).not.toMatch(/reloaded: 4 hooks/);
    writeFileSync(projectFile, `${readFileSync(projectFile, 'utf8')}# edited\n`);
    await term.waitFor(/project hooks are not part of this session: .*changed since approval/);

    // Esc cancels the running turn
    term.type('take your time');
    term.key('Enter');
    // (wait until message_submit has passed and the turn runs: the host ignores a cancel before that)
    await term.waitFor(/❯ take your time/);
    await term.waitFor(/working \(Esc to cancel\)/);
    term.key('Escape');
    await term.waitFor(/turn interrupted/);
    await term.waitFor(/○ idle/);
    expect(term.screen()).not.toMatch(/never shown/);

    term.key('C-c');
    await new Promise((r) => setTimeout(r, 200));
    term.key('C-c');
    expect(await term.exitCode()).toBe(0);
    fired = readFired(sb.log);
    const ids = new Set(fired.map((f) => f.env.DEEPSEEK_SESSION_ID));
    expect(ids.size).toBe(1);
    expect(fired.map((f) => f.event)).toEqual(['message_submit', 'message_submit', 'turn_end', 'message_submit', 'turn_end', 'session_end']);
    expect(JSON.parse(fired[4]!.stdin)).toMatchObject({ status: 'interrupted' });
  }, 120_000);
});

describe('codewhale without a terminal', () => {
  it('says it needs one, with exit code 2 and no stack trace', async () => {
    requireTmux();
    const { spawnSync } = await import('node:child_process');
    const { BIN } = await import('./tmux.js');
    const r = spawnSync(process.execPath, [BIN], { input: '', encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: tmpdir() } });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('error: the interactive UI needs a terminal (stdin is not a terminal)\nhint: use `codewhale exec "<prompt>"` in scripts and pipes\n');
  });
});
