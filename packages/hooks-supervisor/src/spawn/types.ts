import type { Readable, Writable } from 'node:stream';

/**
 * What to start: `file` (an absolute path; no `PATH` search) with `args`, in `cwd`, with
 * exactly `env`, as the leader of a new session and process group (so one signal reaches its
 * whole tree), with each standard stream either a pipe to this process or `/dev/null` (it
 * never inherits the terminal).
 */
export interface LaunchSpec {
  readonly file: string;
  /** The arguments after the program's name. */
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /**
   * What the process reads on its stdin, a pipe that is closed after it (the process then
   * reads end of file); `null`: stdin is `/dev/null`. The launcher writes it without blocking:
   * a process that never reads its stdin is not waited for.
   */
  readonly input: Uint8Array | null;
  /** Whether stdout and stderr are pipes to this process; otherwise `/dev/null`. */
  readonly stdout: boolean;
  readonly stderr: boolean;
  /** Windows only: pass the arguments unquoted (`cmd /C`). */
  readonly verbatim?: boolean;
}

/** How a process ended: its exit code, or the signal that ended it. */
export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A started process: its pid (= its process group's id), its pipes, and its exit. */
export interface Launched {
  readonly pid: number;
  /** The stdin pipe while input is still being written to it (destroy it to drop the rest); null when there is none left to write. */
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /** Settles once the process has exited and was reaped. */
  readonly exit: Promise<ExitStatus>;
}

/** A started process, or the error code (`ENOENT`, `EACCES`, …) of a start that failed. */
export type LaunchResult = { readonly ok: true; readonly child: Launched } | { readonly ok: false; readonly code: string };
