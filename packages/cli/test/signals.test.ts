/**
 * Signals end `codewhale` with 128 + n (SIGHUP 129, SIGINT 130, SIGTERM 143), end the hook
 * process groups it started, and run a registered graceful-exit handler first — real
 * signals sent to the built binary.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, sandbox, type Sandbox } from './run-cli.js';

const INDEX = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'index.js');

function setup(): { sb: Sandbox; pidFile: string; args: string[] } {
  const sb = sandbox();
  const pidFile = join(sb.dir, 'hook.pid');
  const hook = sb.script('slow.sh', `echo $$ > "${pidFile}"\nsleep 60`);
  sb.config(`[hooks]\n[[hooks.hooks]]\nname = "slow"\nevent = "tool_call_before"\ncommand = "${hook}"\ntimeout_secs = 120\n`);
  return { sb, pidFile, args: ['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}'] };
}

function start(sb: Sandbox, argv: string[]): { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> } {
  const child = spawn(process.execPath, argv, {
    cwd: sb.ws,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: sb.dir, CODEWHALE_HOME: sb.home, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stderr });
    }),
  );
  return { child, done };
}

async function waitFor(path: string): Promise<number> {
  for (let i = 0; i < 400; i++) {
    if (existsSync(path)) {
      const pid = Number(readFileSync(path, 'utf8').trim());
      if (pid > 0) return pid;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${path} never appeared`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // a zombie still answers; read its state
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

async function eventually(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe.concurrent('signals', { timeout: 60_000 }, () => {
  for (const [signal, code] of [
    ['SIGHUP', 129],
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} exits ${code} and ends the running hook's process group`, async () => {
      expect(128 + constants.signals[signal]).toBe(code);
      const { sb, pidFile, args } = setup();
      const run = start(sb, [BIN, ...args]);
      const hookPid = await waitFor(pidFile);
      run.child.kill(signal);
      const r = await run.done;
      expect(r.code, r.stderr).toBe(code);
      expect(r.stderr).not.toContain('internal error');
      expect(await eventually(() => !alive(hookPid))).toBe(true);
    });
  }

  it('a hang-up runs the registered graceful-exit handler before exiting 129', async () => {
    if (!existsSync(INDEX)) throw new Error(`build the CLI first: ${INDEX} is missing`);
    const { sb, pidFile, args } = setup();
    const out = join(sb.dir, 'ended');
    const script = `
      const { onSignalExit } = await import(${JSON.stringify(INDEX)});
      const { writeFileSync } = await import('node:fs');
      onSignalExit(async (signal) => {
        await new Promise((r) => setTimeout(r, 200));
        writeFileSync(${JSON.stringify(out)}, 'session ended on ' + signal);
      });
      await import(${JSON.stringify(BIN)});
    `;
    // With -e, argv[1] is the first extra argument; the binary drops two, so pad one.
    const run = start(sb, ['--input-type=module', '-e', script, 'pad', ...args]);
    const hookPid = await waitFor(pidFile);
    run.child.kill('SIGHUP');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(129);
    expect(readFileSync(out, 'utf8')).toBe('session ended on SIGHUP');
    expect(await eventually(() => !alive(hookPid))).toBe(true);
  });

  it('a second signal exits at once when a graceful handler hangs', async () => {
    const { sb, pidFile, args } = setup();
    const script = `
      const { onSignalExit } = await import(${JSON.stringify(INDEX)});
      onSignalExit(() => new Promise(() => {}));
      await import(${JSON.stringify(BIN)});
    `;
    const run = start(sb, ['--input-type=module', '-e', script, 'pad', ...args]);
    await waitFor(pidFile);
    run.child.kill('SIGHUP');
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    run.child.kill('SIGTERM');
    const r = await run.done;
    expect(r.code).toBe(129); // the first signal decides the code
    expect(Date.now() - t0).toBeLessThan(4_000); // well before the 5 s grace
  });
});
