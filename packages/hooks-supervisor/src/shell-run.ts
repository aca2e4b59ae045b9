import { processHostForRun } from './process-host.js';
import { UNIX_SHELL } from './run-hook.js';

/** One shell-tool command for the process host (the engine's shell tool builds it). */
export interface ShellRunSpec {
  /** The script, run as `/bin/sh -c <script>`. */
  readonly script: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutSecs: number;
  /** `true`: stdout only (the script redirects stderr into it); stderr goes to /dev/null. */
  readonly combined: boolean;
  readonly signal: AbortSignal;
  /** Capture per stream: the first `headBytes` and the last `tailBytes`, a marker between. */
  readonly headBytes: number;
  readonly tailBytes: number;
  /** SIGTERM → SIGKILL grace after a timeout, a cancel or the exit. */
  readonly killGraceMs: number;
  /** How long the pipes may stay open after the exit before they are closed. */
  readonly drainMs: number;
  readonly onSpawn?: (pid: number) => void;
}

export type ShellRunResult =
  | {
      readonly kind: 'ran';
      readonly exitCode: number | null;
      readonly status: 'completed' | 'failed' | 'timed_out' | 'killed';
      readonly stdout: string;
      readonly stderr: string;
      readonly stdoutTruncated: boolean;
      readonly stderrTruncated: boolean;
    }
  | { readonly kind: 'spawn_error'; readonly code: string }
  | { readonly kind: 'host_lost' };

/**
 * Run a shell-tool command through the shared process host: same capture, timeout, cancel,
 * group kill and reap as the in-process path, without the agent paying for the spawn.
 */
export async function runShellInHost(spec: ShellRunSpec): Promise<ShellRunResult> {
  const host = processHostForRun();
  const { id, done } = host.run(
    {
      mode: 'shell',
      file: UNIX_SHELL,
      args: ['-c', spec.script],
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['ignore', 'pipe', spec.combined ? 'ignore' : 'pipe'],
      timeoutMs: spec.timeoutSecs * 1000,
      graceMs: spec.killGraceMs,
      drainMs: spec.drainMs,
      headBytes: spec.headBytes,
      tailBytes: spec.tailBytes,
    },
    spec.onSpawn,
  );
  const onAbort = () => host.stop(id);
  spec.signal.addEventListener('abort', onAbort, { once: true });
  if (spec.signal.aborted) onAbort();
  try {
    const r = await done;
    if (r.lost) return { kind: 'host_lost' };
    if (r.spawnError !== undefined) return { kind: 'spawn_error', code: r.spawnError };
    return {
      kind: 'ran',
      exitCode: r.exitCode as number | null,
      status: r.status as 'completed' | 'failed' | 'timed_out' | 'killed',
      stdout: r.stdout as string,
      stderr: r.stderr as string,
      stdoutTruncated: r.stdoutTruncated === true,
      stderrTruncated: r.stderrTruncated === true,
    };
  } finally {
    spec.signal.removeEventListener('abort', onAbort);
  }
}
