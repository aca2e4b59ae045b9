/**
 * Drive a real terminal: tmux on a private server socket runs the BUILT `codewhale` binary,
 * keys are typed one at a time, and the screen is read back. `CI` is unset in the child,
 * because Ink renders only the last frame when it is set.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
  private readonly conf: string;
  readonly exitFile: string;
  /** Every byte the program wrote to the terminal (when started with `record`). */
  readonly rawFile: string;
  constructor(
    readonly name: string,
    dir: string,
  ) {
    this.socket = join(dir, 'tmux.sock');
    this.exitFile = join(dir, 'exit-code');
    this.rawFile = join(dir, 'raw-output');
    this.conf = join(dir, 'tmux.conf');
    // A long scrollback, so "screen plus scrollback" holds a whole long session.
    writeFileSync(this.conf, 'set -g history-limit 100000\n');
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, '-f', this.conf, ...args], { encoding: 'utf8' });
  }

  /** The command line that runs `tmux args…` against this terminal's server (for a program inside it). */
  command(...args: string[]): string[] {
    return ['tmux', '-S', this.socket, '-f', this.conf, ...args];
  }

  /**
   * Start `codewhale args…` (or `node script args…`) in `cwd` with exactly `env` (plus PATH and
   * TERM), `cols`×`rows`.
   */
  start(args: readonly string[], opts: { cwd: string; env: Record<string, string>; cols?: number; rows?: number; record?: boolean; script?: string }): void {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: opts.env.HOME ?? process.env.HOME ?? '/tmp', TERM: 'xterm-256color', LANG: 'C.UTF-8', ...opts.env };
    const assigns = Object.entries(env)
      .map(([k, v]) => `${k}=${q(v)}`)
      .join(' ');
    // Recording: the program starts only once `pipe-pane` is attached (it waits for a marker file).
    const ready = join(`${this.rawFile}.ready`);
    const wait = opts.record ? `while [ ! -e ${q(ready)} ]; do sleep 0.05; done; ` : '';
    const cmd = `${wait}cd ${q(opts.cwd)} && env -i ${assigns} ${q(process.execPath)} ${q(opts.script ?? BIN)} ${args.map(q).join(' ')}; echo $? > ${q(this.exitFile)}; sleep 60`;
    this.tmux('new-session', '-d', '-s', this.name, '-x', String(opts.cols ?? 100), '-y', String(opts.rows ?? 30), cmd);
    if (opts.record) {
      writeFileSync(this.rawFile, '');
      this.tmux('pipe-pane', '-o', '-t', this.name, `cat >> ${q(this.rawFile)}`);
      writeFileSync(ready, '');
    }
  }

  /** The raw bytes written to the terminal so far (latin1, so escape sequences read as written). */
  raw(): string {
    return readFileSync(this.rawFile, 'latin1');
  }

  /** Resize the terminal (the program gets SIGWINCH). */
  resize(cols: number, rows: number): void {
    this.tmux('resize-window', '-t', this.name, '-x', String(cols), '-y', String(rows));
  }

  /** The whole scrollback plus the visible screen; rows the terminal wrapped itself are joined back. */
  everything(): string {
    return this.tmux('capture-pane', '-p', '-J', '-S', '-', '-E', '-', '-t', this.name);
  }

  /** The visible screen only. */
  visible(): string {
    return this.tmux('capture-pane', '-p', '-t', this.name);
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
