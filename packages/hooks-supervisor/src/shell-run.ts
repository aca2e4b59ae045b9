import { processHostForRun, type HostReply, type HostRequest, type ProcessHost } from './process-host.js';
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

/** The host's request for a shell-tool command. */
function shellRequest(spec: ShellRunSpec): HostRequest & { readonly mode: 'shell' } {
  return {
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
  };
}

/** The result of a shell run that the host answered (not skipped). */
function shellResult(r: HostReply): ShellRunResult {
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
}

/**
 * Run a shell-tool command through the shared process host: same capture, timeout, cancel,
 * group kill and reap as the in-process path, without the agent paying for the spawn.
 */
export async function runShellInHost(spec: ShellRunSpec): Promise<ShellRunResult> {
  const host = processHostForRun();
  const { id, done } = host.run(shellRequest(spec), spec.onSpawn);
  const onAbort = () => host.stop(id);
  spec.signal.addEventListener('abort', onAbort, { once: true });
  if (spec.signal.aborted) onAbort();
  try {
    return shellResult(await done);
  } finally {
    spec.signal.removeEventListener('abort', onAbort);
  }
}

/**
 * A shell-tool command offered to the `tool_call_before` gates of its own call, so that it
 * can start the moment they allow it, without a round trip through this process (see
 * `HookRuntime.toolCallBefore`'s `then`). The gates' chain carries it to the process host,
 * which starts it when the chain ends only if every gate exited 0, wrote nothing to stdout
 * and drained: gates that allow the call as it is, with nothing to rewrite, add or ask.
 * Whatever they said, the caller still folds their outcomes and decides; it then either takes
 * the run's {@link result} (the fold allowed the call as it is) or {@link abandon}s it.
 *
 * The rule the host applies is a strict part of the fold's "allow, unchanged": any set of
 * gate outcomes it starts the run for folds to an allow with no rewrite and no context (a
 * property test in shell-run.test.ts holds the two together).
 */
export class ShellContinuation {
  readonly spec: ShellRunSpec;
  #sent: { readonly host: ProcessHost; readonly id: number; readonly done: Promise<HostReply>; readonly last: Promise<HostReply> } | null = null;
  #abandoned = false;

  constructor(spec: ShellRunSpec) {
    this.spec = spec;
  }

  /** The host request for the chain to carry (see {@link attach}). */
  request(): HostRequest & { readonly mode: 'shell' } {
    return shellRequest(this.spec);
  }

  /**
   * Called by the chain that sent {@link request} with it: `then` is the run's id and reply,
   * `last` the reply of the chain's last gate. The run is stopped when the signal aborts, or
   * at once when the call was abandoned before this.
   */
  attach(host: ProcessHost, then: { readonly id: number; readonly done: Promise<HostReply> }, last: Promise<HostReply>): void {
    if (this.#sent !== null) throw new Error('a shell continuation is sent once');
    this.#sent = { host, id: then.id, done: then.done, last };
    const onAbort = () => host.stop(then.id);
    const { signal } = this.spec;
    if (this.#abandoned || signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    void then.done.then(() => signal.removeEventListener('abort', onAbort));
  }

  /** Whether a chain sent it to the host. */
  get sent(): boolean {
    return this.#sent !== null;
  }

  /**
   * The run's result, once the gates have ended. `null` when it did not start (no chain sent
   * it, the host skipped it, or the host was lost before the gates' last result): the caller
   * runs the command itself. A host lost after that result may have started it: that is
   * `host_lost`, as for any run, and the command is not run again.
   */
  async result(): Promise<ShellRunResult | null> {
    const sent = this.#sent;
    if (sent === null || this.#abandoned) return null;
    const r = await sent.done;
    if (r.skipped) return null;
    if (r.lost && (await sent.last).lost) return null;
    return shellResult(r);
  }

  /** The call does not run as offered (the gates did not allow it as it is): it must not start. */
  abandon(): void {
    if (this.#abandoned) return;
    this.#abandoned = true;
    const sent = this.#sent;
    if (sent !== null) sent.host.stop(sent.id);
  }
}
