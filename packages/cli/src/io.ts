import { colorEnabled } from './color.js';

/** Where a command writes. Injected so commands run in-process in tests and as a real binary alike. */
export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Whether stdout is a terminal (for colour and progress). */
  readonly isTTY: boolean;
  /** Whether to colour stdout and stderr (terminal, `NO_COLOR`, `FORCE_COLOR`); absent: no colour. */
  readonly colors?: { readonly stdout: boolean; readonly stderr: boolean };
}

/**
 * The real process's streams and environment. `env` is a frozen copy of `process.env` taken
 * now: Codewhale never changes its own environment, so the copy says the same, and every
 * hook and shell command builds its environment from it. Reading `process.env` itself goes
 * through Node's native accessors key by key (~0.1–0.2 ms for 40 variables, per tool call and
 * per observer event); a plain object takes a few microseconds, and a frozen one is filtered
 * once (for hooks and for shell commands) rather than for every event.
 */
export function processIo(): Io {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: Object.freeze({ ...process.env }),
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
    colors: { stdout: colorEnabled(process.env, Boolean(process.stdout.isTTY)), stderr: colorEnabled(process.env, Boolean(process.stderr.isTTY)) },
  };
}
