#!/usr/bin/env node
// `pnpm demo`: an offline run of the real `codewhale` binary in which hooks steer a session.
// It copies the example workspace to a temporary directory, uses a temporary CODEWHALE_HOME,
// trusts the workspace and approves its project hooks (as a user would), then runs
// `codewhale exec --hooks` over the recorded model turns. With DEEPSEEK_API_KEY set, the same
// hooks run against the real model instead (pass --live).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'packages/cli/dist/bin.cjs');
const example = join(root, 'packages/cli/examples/demo');
const live = process.argv.includes('--live');
if (live && !process.env.DEEPSEEK_API_KEY) {
  console.error('error: --live runs the demo against the real model and needs DEEPSEEK_API_KEY; without --live it runs offline.');
  process.exit(2);
}
if (!existsSync(bin)) {
  console.error('error: the CLI is not built yet; run `pnpm build` first (or `pnpm demo`, which builds).');
  process.exit(1);
}

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'codewhale-demo-')));
const home = join(tmp, 'home');
const ws = join(tmp, 'workspace');
cpSync(join(example, 'workspace'), ws, { recursive: true });
const decisions = join(tmp, 'decisions.jsonl');
const env = {
  ...process.env,
  CODEWHALE_HOME: home,
  CODEWHALE_TOOL_AUDIT_LOG: decisions,
  // An ambient secret in the launching shell: the hooks may see it, the agent's commands must not.
  AWS_SECRET_ACCESS_KEY: 'ambient-secret-that-must-stay-hidden',
};
const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const step = (title) => console.log(`\n${bold(`── ${title} `.padEnd(72, '─'))}`);

function codewhale(args, { show = true } = {}) {
  if (show) console.log(`$ codewhale ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  // Shown commands write straight to this terminal, so stdout (the assistant) and stderr (tool
  // lines, hook decisions) interleave exactly as a user would see them.
  return spawnSync(process.execPath, [bin, ...args], { cwd: ws, env, encoding: 'utf8', stdio: show ? 'inherit' : 'pipe' });
}

console.log(bold('Codewhale demo: hooks steering a real session'));
console.log(`workspace: ${ws}\nCODEWHALE_HOME: ${home}`);

step('1. The project ships hooks; they do not load until you review and approve them');
codewhale(['hooks', 'list']);

step('2. Review the exact commands, the file digest and the scripts they run');
const review = codewhale(['hooks', 'review', '--json'], { show: false });
const digest = JSON.parse(review.stdout).digest;
codewhale(['hooks', 'review']);

step('3. Trust the workspace and approve those exact bytes');
codewhale(['trust']);
codewhale(['hooks', 'approve', digest.slice(0, 16)]);

step('4. Dry-run the gate before trusting it with a session');
codewhale(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"rm -rf build"}']);

step(live ? '5. Run the agent against the real model, with hooks' : '5. Run the agent (recorded model turns, offline), with hooks');
const args = ['exec', '--hooks', '--auto'];
if (!live) args.push('--replay', join(example, 'session.jsonl'));
args.push('Tidy the build output, then deploy to production.');
const run = codewhale(args);

step('6. A decision record for every tool call');
for (const line of readFileSync(decisions, 'utf8').trim().split('\n')) {
  const d = JSON.parse(line);
  const hooks = d.hooks.map((h) => `${h.label}=${h.outcome}`).join(', ');
  console.log(`${d.tool.padEnd(5)} ${d.decision.padEnd(5)} ${d.input.rewritten ? `rewritten to ${d.input.rewritten}` : d.input.original}`);
  console.log(`      hooks: ${hooks}${d.message ? `\n      message: ${d.message}` : ''}`);
}

step('7. The audit log keeps key names, never values');
console.log(readFileSync(join(home, 'audit.log'), 'utf8').trim());

step('8. The same session in the interactive UI (`codewhale`, in a real terminal via tmux)');
showTui();

console.log(`\nexit code: ${run.status}`);
process.exit(run.status ?? 1);

// Run the interactive UI in a private tmux server with the same recorded turns, let the turn
// finish, print the screen as a user saw it, then /quit (which fires session_end).
function showTui() {
  if (live || spawnSync('tmux', ['-V']).status !== 0) {
    console.log(live ? '(skipped with --live)' : '(skipped: tmux is not installed; `apt-get install tmux` to see this step)');
    return;
  }
  const sock = join(tmp, 'tmux.sock');
  const tmux = (...a) => spawnSync('tmux', ['-S', sock, '-f', '/dev/null', ...a], { encoding: 'utf8' });
  const q = (x) => `'${x.replace(/'/g, `'\\''`)}'`;
  const envs = Object.entries({ ...env, CI: '', TERM: 'xterm-256color' })
    .filter(([k]) => /^[A-Z_][A-Z0-9_]*$/i.test(k))
    .map(([k, v]) => `${k}=${q(String(v))}`)
    .join(' ');
  const cmd = `cd ${q(ws)} && env -u CI ${envs} ${q(process.execPath)} ${q(bin)} --auto --replay ${q(join(example, 'session.jsonl'))} ${q('Tidy the build output, then deploy to production.')}; sleep 30`;
  tmux('new-session', '-d', '-s', 'demo', '-x', '110', '-y', '40', cmd.replace(/ CI='' /, ' '));
  const until = Date.now() + 30_000;
  let screen = '';
  while (Date.now() < until) {
    screen = tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', 'demo').stdout ?? '';
    if (/turn completed|turn failed/.test(screen)) break;
    spawnSync('sleep', ['0.2']);
  }
  console.log(screen.replace(/\n+$/, ''));
  tmux('send-keys', '-t', 'demo', '-l', '/quit');
  tmux('send-keys', '-t', 'demo', 'Enter');
  spawnSync('sleep', ['1']);
  tmux('kill-server');
}
