/**
 * Drive a real terminal: tmux on a private server socket runs the BUILT `codewhale` binary,
 * keys are typed one at a time, and the screen is read back. `CI` is unset in the child,
 * because Ink renders only the last frame when it is set.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'cli', 'dist', 'bin.cjs');

export function requireTmux(): void {
  if (spawnSync('tmux', ['-V']).status !== 0) throw new Error('tmux is required for the end-to-end TUI tests: apt-get install -y tmux (.ci/run installs it)');
  if (!existsSync(BIN)) throw new Error(`build first: ${BIN} is missing (pnpm turbo run build --filter=@codewhale/cli...)`);
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export class Terminal {
  private readonly socket: string;
  readonly exitFile: string;
  constructor(
    readonly name: string,
    dir: string,
  ) {
    this.socket = join(dir, 'tmux.sock');
    this.exitFile = join(dir, 'exit-code');
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }

  /** Start `codewhale args…` in `cwd` with exactly `env` (plus PATH and TERM), `cols`×`rows`. */
  start(args: readonly string[], opts: { cwd: string; env: Record<string, string>; cols?: number; rows?: number }): void {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: opts.env.HOME ?? process.env.HOME ?? '/tmp', TERM: 'xterm-256color', LANG: 'C.UTF-8', ...opts.env };
    const assigns = Object.entries(env).map(([k, v]) => `${k}=${q(v)}`).join(' ');
    const cmd = `cd ${q(opts.cwd)} && env -i ${assigns} ${q(process.execPath)} ${q(BIN)} ${args.map(q).join(' ')}; echo $? > ${q(this.exitFile)}; sleep 60`;
    this.tmux('new-session', '-d', '-s', this.name, '-x', String(opts.cols ?? 100), '-y', String(opts.rows ?? 30), cmd);
  }

  /** Type text literally, one character at a time (Ink sees each as its own key). */
  type(text: string): void {
    for (const ch of text) this.tmux('send-keys', '-t', this.name, '-l', ch);
  }

  /** Send named keys (`Enter`, `Escape`, `Tab`, `BTab`, `C-c`, `C-d`). */
  key(...names: string[]): void {
    for (const n of names) this.tmux('send-keys', '-t', this.name, n);
  }

  /** Paste text as a terminal does: inside bracketed-paste markers, in one write. */
  paste(text: string): void {
    this.tmux('set-buffer', '-b', 'p', text);
    this.tmux('paste-buffer', '-p', '-b', 'p', '-t', this.name);
  }

  /** The visible screen plus scrollback. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-S', '-500', '-t', this.name);
  }

  async waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
    const until = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < until) {
      last = this.screen();
      if (pattern.test(last)) return last;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${pattern} on the screen:\n${last}`);
  }

  async exitCode(timeoutMs = 20_000): Promise<number> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (existsSync(this.exitFile)) {
        const t = readFileSync(this.exitFile, 'utf8').trim();
        if (t) return Number(t);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the binary did not exit; screen:\n${this.screen()}`);
  }

  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}
