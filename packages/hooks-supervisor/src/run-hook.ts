import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { isStrict, LIMITS, type HookIdentity, type HookOutcome, type SpawnErrorKind } from '@codewhale/hooks-payloads';
import { BoundedCapture } from './bounded-capture.js';
import { signalProcessGroup, trackProcessGroup, untrackProcessGroup } from './process-group.js';
import { plainEnv, processHostForRun, useProcessHost, type HostReply, type HostRequest, type ProcessHost } from './process-host.js';
import { markSessionActive, scheduleSessionSweep } from './session-sweep.js';
import { spawnErrorKind, spawnFailureMessage } from './spawn-error-kind.js';
import type { ShellContinuation } from './shell-run.js';
import { openStdinFile, stdinFiles } from './stdin-file.js';

/** Everything needed to run one hook process. */
export interface RunSpec {
  readonly hook: HookIdentity;
  /** The hook's command, run as `sh -c <command>` (Unix) or `cmd /C <command>` (Windows). */
  readonly command: string;
  readonly cwd: string;
  /** The complete environment of the hook process. */
  readonly env: Readonly<Record<string, string>>;
  /** The stdin document; one `\n` is appended. `null` means EOF at once. */
  readonly stdin: string | null;
  /** The effective timeout in seconds (the error text names it). */
  readonly timeoutSecs: number;
  /** Overrides the timeout in milliseconds (fine-grained tests); the error still names `timeoutSecs`. */
  readonly timeoutMs?: number;
  /** Foreground capture cap per stream (64 KiB; `shell_env` reads 256 KiB of stdout). */
  readonly stdoutMaxBytes?: number;
  readonly stderrMaxBytes?: number;
  /** Background: stdout and stderr go to /dev/null and nothing is captured. */
  readonly background?: boolean;
  /**
   * `false`: stdout and stderr go to /dev/null (observers, whose output is discarded anyway:
   * two fewer pipes per run). Default `true` for a foreground run.
   */
  readonly captureOutput?: boolean;
  /** Checked just before spawn; a string is the reason not to start (e.g. approval revoked). */
  readonly authorize?: () => string | null;
  /** SIGTERM → SIGKILL grace and reap window, in milliseconds (defaults from LIMITS). */
  readonly killGraceMs?: number;
  readonly reapWindowMs?: number;
  /** Called with the hook's pid (= its process group id) right after spawn. */
  readonly onSpawn?: (pid: number) => void;
  /** Test seam: pretend the reaper never confirms the exit after a timeout. */
  readonly simulateUnreapable?: boolean;
  /** Test seam: the Unix shell (default `/bin/sh`, by absolute path: no `PATH` search per spawn). */
  readonly shell?: string;
}

/** The outcome error of a run whose process host died while it ran (no verdict: strict gates deny). */
export const HOST_LOST = 'hook process host exited unexpectedly; the hook was killed';

const MAX_TIMER_MS = LIMITS.maxTimeoutSecs * 1000;

/** The error of a run whose output pipes stayed open after the hook exited. */
export const OUTPUT_LEFT_OPEN = 'hook output stayed open after the hook exited';

/** The Unix shell hooks and shell commands run in, by absolute path. */
export const UNIX_SHELL = '/bin/sh';

function shellInvocation(command: string, shell: string = UNIX_SHELL): { file: string; args: string[]; verbatim: boolean } {
  if (process.platform === 'win32') {
    return { file: process.env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c', `"${command}"`], verbatim: true };
  }
  return { file: shell, args: ['-c', command], verbatim: false };
}

// The outcome records and host requests below are written out field by field, never as
// `{ ...base, more }`: on Node 20 (V8 11.3) each property a literal adds after a spread costs
// ~1–2 µs (19 µs for ten), and these are built for every hook run.

function strictOf(spec: RunSpec): boolean {
  return isStrict({ continueOnError: spec.hook.continueOnError, background: spec.background === true });
}

function elapsedMs(started: number): number {
  return Math.max(0, Math.round(performance.now() - started));
}

function failed(spec: RunSpec, started: number, error: string, spawnError: SpawnErrorKind | null): HookOutcome {
  return {
    hook: spec.hook,
    background: false,
    strict: strictOf(spec),
    durationMs: elapsedMs(started),
    success: false,
    exitCode: null,
    signal: null,
    timedOut: false,
    spawnError,
    error,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
  };
}

/**
 * Run one hook as a real process and settle on exactly one outcome record, whatever happens.
 *
 * Guarantees: the hook is the leader of its own process group; stdin gets the payload and
 * one `\n` without blocking the caller (a hook that never reads still times out; EPIPE is not
 * an error), or EOF at once, so it never inherits the terminal; stdout and stderr are captured
 * separately up to their caps and the rest is drained and discarded; on timeout the whole
 * group gets SIGTERM, then SIGKILL after a grace, and the exit is awaited for a bounded reap
 * window; when the hook exits normally its group is killed too (D15), so a `cmd &` it left
 * behind does not outlive it. Children that escape with `setsid` are outside any guarantee.
 */
export async function runHook(spec: RunSpec): Promise<HookOutcome> {
  const started = performance.now();
  const refusal = spec.authorize?.() ?? null;
  if (refusal) return failed(spec, started, refusal, null);

  if (useProcessHost()) return runHookInHost(spec, started);
  return runHookHere(spec, started);
}

/** The in-process path: this process spawns, captures, times out, kills and reaps. */
async function runHookHere(spec: RunSpec, started: number): Promise<HookOutcome> {
  const background = spec.background === true;
  const capture = !background && spec.captureOutput !== false;
  const { file, args, verbatim } = shellInvocation(spec.command, spec.shell);
  // node:child_process rather than execa: execa adds ~2 ms to every spawn (measured: 4.8–5.2 ms
  // against 2.9 ms for a bare spawn), which sits on the tool-call path, and its own timeout and
  // cleanup do not cover process groups anyway (D30). See docs/design-notes.md.
  // stdin: the document in an unnamed file in memory when it can be (stdin-file.ts), else a
  // pipe; no document is /dev/null, EOF at once.
  const stdinFd = spec.stdin === null ? null : openStdinFile(fs, stdinFiles, spec.stdin);
  let sub: ChildProcess;
  try {
    sub = spawn(file, args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: process.platform !== 'win32',
      stdio: [spec.stdin === null ? 'ignore' : (stdinFd ?? 'pipe'), capture ? 'pipe' : 'ignore', capture ? 'pipe' : 'ignore'],
      windowsHide: true,
      windowsVerbatimArguments: verbatim,
    });
  } catch (e) {
    const kind = spawnErrorKind((e as NodeJS.ErrnoException).code);
    return failed(spec, started, spawnFailureMessage(kind), kind);
  } finally {
    // The child has its own copy; the file goes when the last of them closes it.
    if (stdinFd !== null) fs.closeSync(stdinFd);
  }

  if (sub.pid === undefined) {
    const err = await new Promise<NodeJS.ErrnoException>((resolve) => sub.once('error', (e) => resolve(e as NodeJS.ErrnoException)));
    const kind = spawnErrorKind(err.code);
    return failed(spec, started, spawnFailureMessage(kind), kind);
  }
  const pid = sub.pid;
  trackProcessGroup(pid);
  markSessionActive(pid);
  spec.onSpawn?.(pid);
  sub.on('error', () => {});

  // A stdin pipe (the document was too large for a file, or files cannot be used here):
  // written asynchronously; a hook that exits or closes stdin early is not an error.
  const stdin = sub.stdin;
  if (stdin) {
    stdin.on('error', () => {});
    stdin.end(spec.stdin + '\n');
  }

  const out = new BoundedCapture(spec.stdoutMaxBytes ?? LIMITS.captureMaxBytes);
  const err = new BoundedCapture(spec.stderrMaxBytes ?? LIMITS.captureMaxBytes);
  const streams: NodeJS.ReadableStream[] = [];
  const streamDone: Promise<void>[] = [];
  for (const [stream, capture] of [
    [sub.stdout, out],
    [sub.stderr, err],
  ] as const) {
    if (!stream) continue;
    streams.push(stream);
    stream.on('data', (chunk: Uint8Array) => capture.push(chunk));
    streamDone.push(
      new Promise<void>((resolve) => {
        stream.once('close', resolve);
        stream.once('end', resolve);
        stream.once('error', () => resolve());
      }),
    );
  }

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    sub.once('exit', (code, signal) => resolve({ code, signal }));
  });

  const timeoutMs = Math.min(MAX_TIMER_MS, Math.max(0, spec.timeoutMs ?? spec.timeoutSecs * 1000));
  const grace = spec.killGraceMs ?? LIMITS.killGraceMs;
  const reapWindow = spec.reapWindowMs ?? LIMITS.reapWindowMs;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });

  const first = await Promise.race([exited, timedOut]);
  clearTimeout(timer);

  if (first === 'timeout') {
    signalProcessGroup(pid, 'SIGTERM');
    const killTimer = setTimeout(() => signalProcessGroup(pid, 'SIGKILL'), grace);
    const window = delay(grace + reapWindow);
    const reaped = spec.simulateUnreapable ? await window.promise.then(() => false) : await Promise.race([exited.then(() => true), window.promise.then(() => false)]);
    window.cancel();
    clearTimeout(killTimer);
    // Release containment: the group gets a final SIGKILL whatever happened above.
    signalProcessGroup(pid, 'SIGKILL');
    await drain(streamDone, streams, LIMITS.pipeShutdownMs);
    untrackProcessGroup(pid);
    if (reaped) scheduleSessionSweep(pid);
    return timedOutOutcome(spec, started, reaped);
  }

  // A normal exit: whatever the hook left in its group goes with it (D15).
  signalProcessGroup(pid, 'SIGTERM');
  const killTimer = setTimeout(() => signalProcessGroup(pid, 'SIGKILL'), grace);
  const complete = await drain(streamDone, streams, LIMITS.pipeDrainMs);
  clearTimeout(killTimer);
  signalProcessGroup(pid, 'SIGKILL');
  untrackProcessGroup(pid);
  scheduleSessionSweep(pid);
  const { code, signal } = first;
  return exitedOutcome(spec, started, { exitCode: code, signal: code === null ? signal : null, complete, stdout: out.text(), stderr: err.text(), stdoutTruncated: out.truncated, stderrTruncated: err.truncated });
}

function timedOutOutcome(spec: RunSpec, started: number, reaped: boolean): HookOutcome {
  return {
    hook: spec.hook,
    background: false,
    strict: strictOf(spec),
    durationMs: elapsedMs(started),
    success: false,
    exitCode: null,
    signal: null,
    timedOut: true,
    spawnError: null,
    error: reaped ? `Hook timed out after ${formatSecs(spec.timeoutSecs)}s` : 'hook could not be reaped after its timeout',
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
  };
}

interface Exited {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly complete: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
}

function exitedOutcome(spec: RunSpec, started: number, r: Exited): HookOutcome {
  return {
    hook: spec.hook,
    background: false,
    strict: strictOf(spec),
    durationMs: elapsedMs(started),
    success: r.exitCode === 0,
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: false,
    spawnError: null,
    // A child that escaped the group (setsid) can hold the pipes open: the output cannot be
    // trusted to be complete, so steering treats it as no verdict, with this detail.
    error: r.complete ? null : OUTPUT_LEFT_OPEN,
    stdout: r.stdout,
    stderr: r.stderr,
    // Output that could not be drained completely is as untrustworthy as output over the cap.
    stdoutTruncated: r.stdoutTruncated || !r.complete,
    stderrTruncated: r.stderrTruncated || !r.complete,
  };
}

/**
 * The same run, done by the shared process host (see process-host.ts): the host spawns,
 * captures, times out, kills and reaps with exactly the rules above and returns the facts;
 * this side only builds the outcome record. A host that dies mid-run yields {@link HOST_LOST}.
 */
async function runHookInHost(spec: RunSpec, started: number): Promise<HookOutcome> {
  const { done } = processHostForRun().run(hostRequest(spec, true), spec.onSpawn);
  return hostOutcome(spec, started, await done);
}

/** The host's request for one hook run (`withEnv: false` leaves the environment to the chain). */
function hostRequest(spec: RunSpec, withEnv: boolean): HostRequest {
  const capture = spec.background !== true && spec.captureOutput !== false;
  const { file, args } = shellInvocation(spec.command, spec.shell);
  const request: HostRequest = {
    mode: 'hook',
    file,
    args,
    cwd: spec.cwd,
    stdio: ['pipe', capture ? 'pipe' : 'ignore', capture ? 'pipe' : 'ignore'],
    input: spec.stdin,
    stdoutMax: spec.stdoutMaxBytes ?? LIMITS.captureMaxBytes,
    stderrMax: spec.stderrMaxBytes ?? LIMITS.captureMaxBytes,
    timeoutMs: Math.min(MAX_TIMER_MS, Math.max(0, spec.timeoutMs ?? spec.timeoutSecs * 1000)),
    graceMs: spec.killGraceMs ?? LIMITS.killGraceMs,
    reapMs: spec.reapWindowMs ?? LIMITS.reapWindowMs,
    drainMs: LIMITS.pipeDrainMs,
    shutdownMs: LIMITS.pipeShutdownMs,
    simulateUnreapable: spec.simulateUnreapable === true,
  };
  // Serialized: inherited variables become its own (see composedEnv).
  if (withEnv) request['env'] = plainEnv(spec.env);
  return request;
}

/** A chain's request for one run: `stopIfFailed` is a run after which a failure ends the chain. */
function chainRunRequest(spec: RunSpec, withEnv: boolean, stopIfFailed: boolean): HostRequest & { readonly stopIfFailed: boolean } {
  const request = hostRequest(spec, withEnv) as HostRequest & { stopIfFailed: boolean };
  request.stopIfFailed = stopIfFailed;
  return request;
}

/** The outcome record of a host's result (`skipped` is the chain's to handle, never passed here). */
function hostOutcome(spec: RunSpec, started: number, r: HostReply): HookOutcome {
  if (r.lost) return failed(spec, started, HOST_LOST, null);
  if (r.spawnError !== undefined) {
    const kind = spawnErrorKind(r.spawnError);
    return failed(spec, started, spawnFailureMessage(kind), kind);
  }
  if (r.timedOut === true) return timedOutOutcome(spec, started, r.reaped === true);
  return exitedOutcome(spec, started, r as unknown as Exited);
}

/**
 * When a chain ends after a strict hook failed: a function consulted for that outcome, or
 * `'always'` (every strict failure ends it, the rule of the observer events that stop).
 */
export type ChainStopRule = ((outcome: HookOutcome) => boolean) | 'always';

interface ChainRequest {
  readonly start: number;
  readonly sentAt: number;
  readonly host: ProcessHost;
  readonly ids: readonly number[];
  readonly replies: readonly Promise<HostReply>[];
  // When each reply settled here (run k started, as far as this process can tell, when run
  // k - 1 settled; run 0 of a staged request when the chain ahead of it ended).
  readonly settledAt: number[];
  // A staged request: the last reply of the chain it waits behind, and when that settled.
  readonly behind: Promise<HostReply> | null;
  behindSettledAt: number | null;
  // Withdrawn: the host may answer `skipped` for it, so nothing may be staged behind it.
  withdrawn: boolean;
  lost: boolean;
  broken: boolean;
}

/**
 * Foreground hooks of one event, run one after the other in config order, with the outcomes
 * handed out in order by {@link HookChain.next}.
 *
 * Through the process host, a run of consecutive hooks is one request: the host starts each
 * hook as soon as the one before it has its result, so a further hook costs a spawn and not
 * also two wake-ups of this process (measured in docs/design-notes.md, "Chains"). The rules
 * do not change:
 * - `stopAfter` decides, in this process, whether the chain ends after an outcome. It is
 *   consulted only for a strict hook that failed (`strict && !success`); no other outcome
 *   ever ends a chain. Without it, every hook runs; `'always'` ends the chain on every one.
 * - The host is only told the conservative part: it stops after a strict hook that did not
 *   exit 0 (every outcome `stopAfter` can end the chain on), and the later hooks of the
 *   request never start. When `stopAfter` then says go on, the rest is sent again.
 * - A spec with an `authorize` check is checked right before its own start: it begins a new
 *   request, so a revocation between two hooks of a chain still stops the second.
 * - If the host dies, the hook in flight gets {@link HOST_LOST}, as a single run does; the
 *   later hooks had not started, and go on (in a new host) when `stopAfter` allows.
 * - In process (the fallback, or while the host starts), each hook is a plain {@link runHook}.
 *
 * A chain can also be begun behind another ({@link stageBehind}): the observer dispatcher
 * sends a worker's next event that way, so the host starts it the moment the one before it
 * ends, without waiting for this process (docs/design-notes.md, "Staged observer events").
 *
 * Consume the chain until `next()` resolves `null`: hooks already handed to the host run
 * whether or not their outcomes are read.
 */
export class HookChain {
  readonly #specs: readonly RunSpec[];
  readonly #stopAfter: ChainStopRule | null;
  #next = 0;
  #stopped = false;
  #dropped = false;
  // The request in flight: the results of specs [start, start + replies.length).
  #request: ChainRequest | null = null;
  readonly #then: ShellContinuation | null;

  /**
   * `then`: a shell command for the host to start when the chain ends, if every hook of it
   * allowed cleanly (see {@link ShellContinuation}). It goes with the chain only when the whole
   * chain is one request to the host, sent at its first hook; otherwise it is never sent.
   */
  constructor(specs: readonly RunSpec[], options: { readonly stopAfter?: ChainStopRule; readonly then?: ShellContinuation } = {}) {
    for (const spec of specs) if (spec.background === true) throw new TypeError('a hook chain runs foreground hooks only');
    this.#specs = specs;
    this.#stopAfter = options.stopAfter ?? null;
    this.#then = options.then ?? null;
  }

  /**
   * The next hook's outcome, in config order; `null` once every hook ran or the chain stopped.
   * A hook that starts a new request is sent before this returns, as `runHook` does: a run
   * started after it (another event's) cannot overtake it.
   */
  async next(): Promise<HookOutcome | null> {
    if (this.#stopped || this.#next >= this.#specs.length) return null;
    const i = this.#next++;
    const sent = this.#covers(i) ? await this.#fromRequest(i) : null;
    if (sent === null && this.#dropped) {
      // Dropped: what the host had not started stays unstarted.
      this.#stopped = true;
      return null;
    }
    const outcome = sent ?? (await this.#begin(i));
    const rule = this.#stopAfter;
    if (rule !== null && outcome.strict && !outcome.success && (rule === 'always' || rule(outcome))) this.#stopped = true;
    return outcome;
  }

  /**
   * Send this chain now, to start in the host the moment `ahead` ends there, with no round
   * trip through this process in between. Only a chain that has not begun can be staged, and
   * only behind a chain whose whole rest is one request still running in the host, which can
   * send nothing after it (`stopAfter` none or `'always'`): the order of the two is then the
   * host's to keep. No hook of this chain may have an `authorize` check, which has to be asked
   * right before its start. Returns false, sending nothing, when any of that does not hold.
   *
   * Until it starts, a staged chain can be {@link withdraw}n; nothing can be staged behind a
   * withdrawn one (the host may have dropped it, and would start a chain behind it at once).
   * If the host dies before `ahead` ended, this chain never started, and `next()` starts it
   * afresh.
   */
  stageBehind(ahead: HookChain): boolean {
    if (this.#request !== null || this.#next !== 0 || this.#dropped || this.#specs.length === 0) return false;
    if (this.#specs.some((s) => s.authorize !== undefined)) return false;
    if (ahead.#stopAfter !== null && ahead.#stopAfter !== 'always') return false;
    const q = ahead.#request;
    if (q === null || q.broken || q.lost || q.withdrawn || q.start + q.replies.length !== ahead.#specs.length) return false;
    const last = q.ids[q.ids.length - 1]!;
    // Ended, or its host is gone: there is nothing to wait behind.
    if (!q.host.isPending(last)) return false;
    // A host that also runs other work (the other observer worker's, a gate): a host spawns
    // one process at a time, so this chain starts afresh later, on the host with less to do.
    // (A withdrawn `ahead` always meets this too, since the chain it waited behind is still
    // in flight; the flag above says it outright.)
    if (q.host.inFlight > q.ids.filter((id) => q.host.isPending(id)).length) return false;
    this.#send(0, q.host, performance.now(), { after: last, behind: q.replies[q.replies.length - 1]! });
    return true;
  }

  /**
   * Withdraw a staged chain from the host if it has not started: its hooks are then started
   * afresh by `next()` (another worker took it over), or, with `drop`, not at all. A chain
   * the host has started runs on either way, and `next()` hands out its outcomes.
   */
  withdraw(options: { readonly drop?: boolean } = {}): void {
    if (options.drop) this.#dropped = true;
    const q = this.#request;
    if (q !== null && q.behind !== null) {
      q.withdrawn = true;
      q.host.withdraw(q.ids[0]!);
    }
  }

  /** Whether run i was sent with the request in flight (and that request still holds). */
  #covers(i: number): boolean {
    const q = this.#request;
    return q !== null && !q.broken && i >= q.start && i < q.start + q.replies.length;
  }

  /** Run i's outcome from the request in flight, or null when it has to be started afresh. */
  async #fromRequest(i: number): Promise<HookOutcome | null> {
    const q = this.#request!;
    const k = i - q.start;
    const r = await q.replies[k]!;
    // Skipped: an earlier strict failure that stopAfter let pass, or withdrawn before it
    // started. Lost again: the host died during an earlier run, so this one never started.
    // Lost while the chain ahead had not ended (its last result lost too): never started.
    if (r.skipped || (r.lost && q.lost) || (r.lost && k === 0 && q.behind !== null && (await q.behind).lost)) {
      q.broken = true;
      return null;
    }
    if (r.lost) q.lost = true;
    const started = k === 0 ? (q.behindSettledAt ?? q.sentAt) : (q.settledAt[k - 1] ?? q.sentAt);
    return hostOutcome(this.#specs[i]!, started, r);
  }

  /** Start spec i, and with it (through the host) the specs after it up to the next check. */
  #begin(i: number): Promise<HookOutcome> {
    this.#request = null;
    const started = performance.now();
    const first = this.#specs[i]!;
    const refusal = first.authorize?.() ?? null;
    if (refusal) return Promise.resolve(failed(first, started, refusal, null));
    if (!useProcessHost()) return runHookHere(first, started);
    this.#send(i, processHostForRun(), started, null);
    // The first run of a request is never skipped, nor lost after another: it has an outcome.
    return this.#fromRequest(i) as Promise<HookOutcome>;
  }

  /** Send specs i.. up to the next one with a check (i itself may have one) as one request. */
  #send(i: number, host: ProcessHost, sentAt: number, stage: { readonly after: number; readonly behind: Promise<HostReply> } | null): void {
    let end = i + 1;
    while (end < this.#specs.length && this.#specs[end]!.authorize === undefined) end++;
    const specs = this.#specs.slice(i, end);
    const env = specs[0]!.env;
    const strictStops = this.#stopAfter !== null;
    const requests = specs.map((spec) => chainRunRequest(spec, spec.env !== env, strictStops && isStrict({ continueOnError: spec.hook.continueOnError, background: false })));
    // The whole chain in this one request, from its first hook: the host sees every gate.
    const then = this.#then !== null && i === 0 && end === this.#specs.length && stage === null && !this.#then.sent ? this.#then : null;
    const options = stage ? { after: stage.after } : then ? { then: { request: then.request(), ...(then.spec.onSpawn ? { onSpawn: then.spec.onSpawn } : {}) } } : {};
    const sent = host.chain(env, requests, specs.map((spec) => spec.onSpawn), options);
    if (then !== null && sent.then !== null) then.attach(host, sent.then, sent.replies[sent.replies.length - 1]!);
    const q: ChainRequest = { start: i, sentAt, host, ids: sent.ids, replies: sent.replies, settledAt: [], behind: stage?.behind ?? null, behindSettledAt: null, withdrawn: false, lost: false, broken: false };
    sent.replies.forEach((reply, k) => void reply.then(() => (q.settledAt[k] = performance.now())));
    void q.behind?.then(() => (q.behindSettledAt = performance.now()));
    this.#request = q;
  }
}

function formatSecs(secs: number): string {
  return Number.isInteger(secs) ? String(secs) : String(Number(secs.toFixed(3)));
}

/** A timer as a promise, cancellable so a settled race leaves nothing keeping the process alive. */
function delay(ms: number): { promise: Promise<void>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** Wait for the pipes to close, at most `ms`; then destroy them. True when they closed in time. */
async function drain(done: Promise<void>[], streams: NodeJS.ReadableStream[], ms: number): Promise<boolean> {
  let t: NodeJS.Timeout | undefined;
  const ok = await Promise.race([
    Promise.all(done).then(() => true),
    new Promise<boolean>((resolve) => {
      t = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(t);
  if (!ok) for (const s of streams) (s as unknown as { destroy(): void }).destroy();
  return ok;
}
