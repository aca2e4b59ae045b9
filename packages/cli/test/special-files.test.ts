/**
 * Files that are not regular files — a FIFO, a directory, a socket, a device — where Codewhale
 * expects its config, project hooks, pinned scripts, replay scripts or recordings: the built
 * binary must refuse them at once with a message naming the file, skip a bad project file
 * with a warning (never blaming the user's config), and never leave a half-done write.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from './run-cli.js';

const CONFIG = `# my config — keep this comment
[hooks]
enabled = true

[[hooks.hooks]]
name = "g"
event = "tool_call_before"
command = "true"
`;

const HOOKS = join('.codewhale', 'hooks.toml');

function withProjectFile(kind: 'fifo' | 'dir'): Sandbox {
  const sb = sandbox();
  sb.config(CONFIG);
  mkdirSync(join(sb.ws, '.codewhale'), { recursive: true });
  const p = join(sb.ws, HOOKS);
  if (kind === 'fifo') execFileSync('mkfifo', [p]);
  else mkdirSync(p);
  return sb;
}

const FIFO = 'is a FIFO (named pipe), not a regular file';
const DIR = 'is a directory, not a regular file';
// A hang would be killed at 15 s and fail on the exit code.
const T = { timeoutMs: 15_000 };

describe.concurrent('a project hooks.toml that is not a regular file', { timeout: 60_000 }, () => {
  for (const kind of ['fifo', 'dir'] as const) {
    const what = kind === 'fifo' ? FIFO : DIR;

    it(`${kind}: hooks list and hooks test skip project hooks with a warning and do not hang`, async () => {
      const sb = withProjectFile(kind);
      const list = await sb.run(['hooks', 'list'], T);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toContain(`${join(sb.ws, HOOKS)} ${what}; project hooks were skipped`);
      expect(list.stdout + list.stderr).not.toMatch(/EISDIR|config\.toml.*cannot/);
      const test = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}'], T);
      expect(test.code, test.stderr).toBe(0);
      expect(test.stdout).toContain('result: allow');
    });

    it(`${kind}: trust writes the entry completely, warns, and exits 0`, async () => {
      const sb = withProjectFile(kind);
      const r = await sb.run(['trust'], T);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('internal error');
      expect(r.stderr).toContain(`warning: ${join(sb.ws, HOOKS)} ${what}; project hooks were skipped`);
      const text = readFileSync(join(sb.home, 'config.toml'), 'utf8');
      expect(text.startsWith(CONFIG)).toBe(true);
      expect(text).toContain(`[projects."${sb.ws}"]\ntrust_level = "trusted"`);
      // and the workspace is usable afterwards
      expect((await sb.run(['hooks', 'list'], T)).code).toBe(0);
    });
  }

  it('hooks review and approve say there is nothing loadable instead of hanging', async () => {
    const sb = withProjectFile('fifo');
    const review = await sb.run(['hooks', 'review'], T);
    expect(review.code).not.toBeNull();
    expect(review.stdout + review.stderr).not.toContain('internal error');
    const approve = await sb.run(['hooks', 'approve', 'a'.repeat(64)], T);
    expect(approve.code).not.toBeNull();
    expect(approve.code).not.toBe(0);
    expect(approve.stderr).not.toContain('internal error');
  });

  it('a pinned script that is a FIFO has no digest and does not block review', async () => {
    const sb = sandbox();
    sb.config(CONFIG);
    sb.projectHooks('[[hooks]]\nname = "p"\nevent = "turn_end"\ncommand = "./.codewhale/gate.sh"\n');
    execFileSync('mkfifo', [join(sb.ws, '.codewhale', 'gate.sh')]);
    const r = await sb.run(['hooks', 'review'], T);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\.codewhale\/gate\.sh .*(missing|not a regular file|absent)/);
  });
});

describe.concurrent("the user's config that is not a regular file", { timeout: 60_000 }, () => {
  for (const kind of ['fifo', 'dir', 'device'] as const) {
    it(`${kind}: every command stops with exit 3 naming the file, and nothing is written`, async () => {
      const sb = sandbox();
      const path = kind === 'device' ? '/dev/zero' : join(sb.home, 'config.toml');
      if (kind === 'fifo') execFileSync('mkfifo', [path]);
      if (kind === 'dir') mkdirSync(path);
      const what = kind === 'fifo' ? FIFO : kind === 'dir' ? DIR : 'is a character device, not a regular file';
      const env = { CODEWHALE_CONFIG_PATH: path };
      const replay = join(sb.dir, 'turns.jsonl');
      writeFileSync(replay, '{"text":"hi"}\n');
      for (const args of [
        ['hooks', 'list'],
        ['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}'],
        ['trust'],
        ['untrust'],
        ['hooks', 'revoke'],
        ['exec', '--hooks', '--replay', replay, 'hi'],
      ]) {
        const r = await sb.run(args, { ...T, env });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(3);
        expect(r.stderr, args.join(' ')).toContain(`${path} ${what}`);
        expect(r.stderr).not.toContain('internal error');
        expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
      }
      if (kind === 'dir') rmSync(path, { recursive: true });
    });
  }
});

describe.concurrent('files named on the command line', { timeout: 60_000 }, () => {
  it('hooks validate, hooks test --replay, hooks test --input @file and exec --replay refuse a FIFO or a directory at once', async () => {
    const sb = sandbox();
    sb.config(CONFIG);
    const fifo = join(sb.dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    for (const [args, path, what] of [
      [['hooks', 'validate', fifo], fifo, FIFO],
      [['hooks', 'validate', sb.dir], sb.dir, DIR],
      [['hooks', 'test', '--replay', fifo], fifo, FIFO],
      [['exec', '--replay', fifo, 'hi'], fifo, FIFO],
      [['exec', '--replay', sb.dir, 'hi'], sb.dir, DIR],
      [['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', `@${fifo}`], fifo, FIFO],
      [['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', `@${sb.dir}`], sb.dir, DIR],
    ] as const) {
      const r = await sb.run(args, T);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(3);
      expect(r.stderr).toContain(`${path} ${what}`);
    }
  });

  it('hooks validate of a missing file still says so', async () => {
    const sb = sandbox();
    writeFileSync(join(sb.dir, 'x'), '');
    const r = await sb.run(['hooks', 'validate', join(sb.dir, 'nope.toml')], T);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('nope.toml');
  });
});
