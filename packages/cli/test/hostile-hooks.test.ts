/**
 * Hostile set: hooks that behave badly, run through the built binary (`hooks test`, the same
 * loader, matcher, runner and fold a session uses). None may crash, hang or outlive its run,
 * leak a secret, or get control characters into the output.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from './run-cli.js';

const GATE = ['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}', '--json'];

function hooks(sb: Sandbox, entries: readonly string[]): void {
  sb.config(`[hooks]\n${entries.map((e) => `[[hooks.hooks]]\nevent = "tool_call_before"\n${e}\n`).join('\n')}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const pids = (path: string): number[] => readFileSync(path, 'utf8').split(/\s+/).filter(Boolean).map(Number);

describe.concurrent('hostile hooks', { timeout: 120_000 }, () => {
  it('a 1 GiB stdout flood is no verdict (a strict gate denies), never parsed, and the binary stays up', async () => {
    const sb = sandbox();
    const flood = sb.script('flood.sh', `head -c 1073741824 /dev/zero | tr '\\0' '{'`);
    hooks(sb, [`name = "flood"\ncommand = "${flood}"\ncontinue_on_error = false\ntimeout_secs = 60`]);
    const r = await sb.run(GATE, { timeoutMs: 110_000 });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.result).toMatchObject({ decision: 'deny', deny_kind: 'no_verdict' });
    expect(j.outcomes[0]).toMatchObject({ outcome: 'no_verdict', detail: 'no verdict: output exceeded 64 KiB' });
  });

  it('children left behind (`cmd &`) and a hook that ignores SIGTERM do not outlive the run', async () => {
    const sb = sandbox();
    const left = join(sb.dir, 'left.pid');
    const stubborn = join(sb.dir, 'stubborn.pid');
    const a = sb.script('left.sh', `sleep 311 & echo $! >> "${left}"\n(sleep 311 &) ; pgrep -n -f "sleep 311" >> "${left}"\necho '{"decision":"allow"}'`);
    const b = sb.script('stubborn.sh', `trap '' TERM\necho $$ >> "${stubborn}"\nsleep 300 & echo $! >> "${stubborn}"\nwhile :; do sleep 1; done`);
    hooks(sb, [`name = "left"\ncommand = "${a}"`, `name = "stubborn"\ncommand = "${b}"\ntimeout_secs = 1`]);
    const r = await sb.run(GATE);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.outcomes.map((o: { outcome: string }) => o.outcome)).toEqual(['allow', 'no_verdict']);
    expect(j.outcomes[1].detail).toMatch(/timed out after 1s/);
    for (const pid of [...pids(left), ...pids(stubborn)]) expect(alive(pid), `pid ${pid}`).toBe(false);
  });

  it('a hook that closes its stdout and keeps running is timed out and ended', async () => {
    const sb = sandbox();
    const marker = join(sb.dir, 'closer.pid');
    const c = sb.script('closer.sh', `echo $$ > "${marker}"\nexec >&- 2>&-\nsleep 300`);
    hooks(sb, [`name = "closer"\ncommand = "${c}"\ntimeout_secs = 1\ncontinue_on_error = false`]);
    const r = await sb.run(GATE);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).result).toMatchObject({ decision: 'deny', deny_kind: 'no_verdict' });
    expect(alive(pids(marker)[0]!)).toBe(false);
  });

  it('200 gates on one event all run and fold', async () => {
    const sb = sandbox();
    hooks(
      sb,
      Array.from({ length: 200 }, (_, i) => `name = "g${i}"\ncommand = "${i === 137 ? `echo '{\\"decision\\":\\"ask\\"}'` : 'true'}"`),
    );
    const r = await sb.run(GATE, { timeoutMs: 110_000 });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.outcomes).toHaveLength(200);
    expect(j.result.decision).toBe('ask');
  });

  it('control characters, escape sequences and secrets in a reason never reach the output', async () => {
    const sb = sandbox();
    const reason = 'no \\u001b[2J\\u001b]0;pwned\\u0007 way GITHUB_TOKEN=ghp_0123456789abcdefABCDEF0123456789abcd Cookie: sid=s3cr3t; \\u202eevil';
    const d = sb.script('deny.sh', `printf '%s' '{"decision":"deny","reason":"${reason}"}'`);
    hooks(sb, [`name = "d"\ncommand = "${d}"`]);
    for (const args of [GATE, GATE.slice(0, -1)]) {
      const r = await sb.run(args);
      expect(r.code, r.stderr).toBe(0);
      const all = r.stdout + r.stderr;
      expect(all).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/u);
      expect(all).not.toContain('ghp_0123456789');
      expect(all).not.toContain('s3cr3t');
      expect(all).not.toContain('pwned\u0007');
    }
  });
});
