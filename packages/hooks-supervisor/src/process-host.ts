import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs';
import { createServer, Socket, type Server } from 'node:net';
import { constants as osConstants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeSpawner, nativeSpawnerPath } from './process-host-native.js';
import { HOST_COLLECT_AFTER_BYTES, HOST_GROWTH_LIMIT_BYTES, HOST_PROTOCOL, PROCESS_HOST_SOURCE } from './process-host-source.js';
import { rawKill, signalProcessGroup, trackProcessGroup, untrackProcessGroup } from './process-group.js';
import { processState } from './process-state.js';
import { hostLaunch, type HostLaunch } from './sched-slice.js';

/** How spawns are done: through the shared process host, or in this process (today's path). */
export type SpawnMode = 'host' | 'in-process';

// The mode, the warm-up count and the host itself are one per process, shared by every copy
// of this package the process has loaded (see process-state.ts).
const state = processState();

/**
 * The spawn mode in force. `setSpawnMode` wins; otherwise the environment variable
 * `CODEWHALE_PROCESS_HOST=off` (or `0`, `false`, `in-process`) selects the in-process path,
 * for platforms or sandboxes where a helper process cannot run. Windows always spawns in
 * process. The default elsewhere is the host.
 */
export function spawnMode(): SpawnMode {
  if (process.platform === 'win32') return 'in-process';
  if (state.forcedMode) return state.forcedMode;
  const v = (process.env.CODEWHALE_PROCESS_HOST ?? '').trim().toLowerCase();
  return v === 'off' || v === '0' || v === 'false' || v === 'in-process' ? 'in-process' : 'host';
}

/** Select the spawn mode for this process (`null`: back to the environment's choice). */
export function setSpawnMode(mode: SpawnMode | null): void {
  state.forcedMode = mode;
}

/**
 * How a host spawns: `posix_spawn` through codewhale-spawn (Linux, where it was built; see
 * process-host-native.ts), Node's process and pipe handles directly, or `child_process.spawn`.
 */
export type HostSpawner = 'native' | 'handles' | 'child_process';

/**
 * `CODEWHALE_HOST_SPAWN` chooses how every host started from then on spawns: `handles` keeps it
 * from loading codewhale-spawn, `child_process` makes it use `child_process.spawn` (the public
 * API) instead of the handles it wraps; see process-host-source.ts. Without it (or with any
 * other value) a host uses codewhale-spawn where it is there and loads, otherwise the handles
 * where it can (Node 20), otherwise `child_process`.
 */
export function hostSpawnSetting(): Exclude<HostSpawner, 'native'> | null {
  const v = (process.env.CODEWHALE_HOST_SPAWN ?? '').trim().toLowerCase();
  if (v === 'child_process' || v === 'child-process') return 'child_process';
  return v === 'handles' ? 'handles' : null;
}

/** A request to the host (see process-host-source.ts for the fields). */
export type HostRequest = { readonly mode: 'hook' | 'shell' } & Record<string, unknown>;

/**
 * The host's result record, `lost` when the host died before the run had its result, or
 * `skipped` for a run of a chain that an earlier run's failure ended before it started.
 */
export type HostReply = Record<string, unknown> & { readonly lost?: true; readonly skipped?: true; readonly spawnError?: string };

/** In-process spawns after which the host is started in the background (see useProcessHost). */
export const HOST_WARM_AFTER_SPAWNS = 1;

/**
 * Whether this spawn should go through the host: the mode is `host` and the host is up. While
 * it is not, the spawn is done in process. A process that has spawned once is likely to spawn
 * again, so from then on the host is started in the background; no run ever waits for a Node
 * start-up, and a one-shot command with a single hook never starts a host at all.
 */
export function useProcessHost(): boolean {
  if (spawnMode() !== 'host') return false;
  const host = sharedProcessHost();
  if (host.ready) return true;
  if ((host.wasUp || ++state.inProcessSpawns > HOST_WARM_AFTER_SPAWNS) && !host.unavailable) void host.start();
  return false;
}

/**
 * Start the shared host in the background, now, when spawning goes through it: a surface
 * calls this when it opens a session, so that the host is up by the session's first spawns
 * instead of after them. Nothing waits for it and it holds no reference on the event loop
 * (a process that ends before the host is ready ends; the host then exits with it). Until it
 * is ready, spawns are done in process, as without it. Returns whether a host is running or
 * starting (false in the in-process mode, or when the host is unavailable here).
 */
export function warmProcessHost(): boolean {
  return spawnMode() === 'host' && sharedProcessHost().warm();
}

/** A chain sent to the host: each run's id (for `after` and {@link ProcessHost.withdraw}) and result. */
export interface HostChain {
  readonly ids: readonly number[];
  readonly replies: readonly Promise<HostReply>[];
  /** The chain's `then` run, when one was given: its id (for {@link ProcessHost.stop}) and its reply. */
  readonly then: { readonly id: number; readonly done: Promise<HostReply> } | null;
}

/** How many fixed environment parts one host keeps (the oldest is dropped for a new one). */
export const HOST_ENV_BASES = 8;

/**
 * `vars` on top of the frozen `base`, without copying `base`: an object whose prototype is
 * `base` and whose own properties are `vars`. Spawning reads every enumerable key, inherited
 * ones included (child_process does, and the process host's own spawner does the same), so the
 * process gets `base` with `vars` winning; anything that serializes an environment takes it
 * through {@link plainEnv}. Each variable is defined, not assigned: assigning a name that the
 * frozen base holds would silently do nothing.
 */
export function composedEnv(base: Readonly<Record<string, string>>, vars: Readonly<Record<string, string>>): Record<string, string> {
  const env = Object.create(base) as Record<string, string>;
  for (const k of Object.keys(vars)) Object.defineProperty(env, k, { value: vars[k], enumerable: true, writable: true, configurable: true });
  return env;
}

/** `env` as a plain object of its own: every enumerable variable, inherited ones included (see {@link composedEnv}). */
export function plainEnv(env: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  if (Object.getPrototypeOf(env) === Object.prototype) return env;
  const out: Record<string, string> = {};
  for (const k in env) Object.defineProperty(out, k, { value: env[k], enumerable: true, writable: true, configurable: true });
  return out;
}

/** Environments known to be a fixed, frozen base with some variables on top (see {@link noteEnvComposition}). */
const compositions = new WeakMap<object, { readonly base: Readonly<Record<string, string>>; readonly vars: Readonly<Record<string, string>> }>();

/**
 * Note that `env` is exactly `base` with `vars` on top (`vars` win), where `base` is a frozen
 * object this process keeps for many requests (a session's filtered parent environment). A
 * host is then sent `base` once and each chain only `vars`, instead of the whole environment
 * every time: with a 7 KB environment that was ~0.28 ms of CPU per event. `env` itself stays
 * the whole environment, for every other use.
 */
export function noteEnvComposition(env: Readonly<Record<string, string>>, base: Readonly<Record<string, string>>, vars: Readonly<Record<string, string>>): void {
  if (Object.isFrozen(base)) compositions.set(env, { base, vars });
}

interface Pending {
  readonly resolve: (reply: HostReply) => void;
  readonly onSpawn?: (pid: number) => void;
  pid: number | null;
}

/** One host process and what this side knows of it. */
interface HostChild {
  readonly link: HostLink;
  /** Started asking for a short scheduler slice (see sched-slice.ts), or by a host that did. */
  readonly sliced: boolean;
  /** Started by another host of this process (see {@link ProcessHost}), not by this process. */
  readonly byHost: boolean;
  /** Started by this process with codewhale-spawn (see spawnHostNatively), not by a fork. */
  readonly natively: boolean;
  /** What it wrote after its last complete line. */
  buffered: string;
  /** It has said `ready`. */
  ready: boolean;
  /** How it spawns, from its ready message. */
  spawner: HostSpawner | null;
  /** It has said it grew past its limit (see process-host-source.ts). */
  grown: boolean;
  /** A replacement was started for it (once per host). */
  replacing: boolean;
  /** Those waiting for its answer to a status query, in the order asked. */
  readonly queries: ((status: HostStatus | null) => void)[];
  /** Its answers still to come to requests to start another host, by request id. */
  readonly launches: Map<number, (reply: HostReply) => void>;
}

/** This process's end of one host: its pipes, or the socket of a host another host started. */
interface HostLink {
  /** The host's pid, once known. */
  readonly pid: number | undefined;
  write(text: string): void;
  /** Close this end: the host kills what it started and exits. */
  end(): void;
  /** Whether {@link end} was called: a host that goes after that did not fail. */
  readonly ending: boolean;
  /** No longer ours: stop reading, and kill the host if it is still there. */
  kill(): void;
  /** Hold (`busy`) or release the event loop through it. */
  setRefs(busy: boolean): void;
  /** Whether the pid a host gave in its `ready` is the one this link was started for (a link that is not is closed). */
  verify(pid: unknown): boolean;
}

/**
 * A host started from this process with codewhale-spawn (`posix_spawn`, see
 * process-host-native.ts) instead of `child_process.spawn`, whose fork blocks this process for
 * as long as copying its page tables takes (7.7–17 ms for an agent-sized process; see
 * docs/design-notes.md, "The host spawns with posix_spawn"). What {@link ProcessHost} uses of a
 * `ChildProcess`: `pid`, `stdin` and `stdout` (sockets on this process's ends of two socket
 * pairs, as `child_process` makes them), `exitCode`, `signalCode`, `kill`, `ref`, `unref` and
 * `'error'` (never emitted: a start that fails returns null). The same start as
 * `child_process.spawn(file, args, { stdio: ['pipe', 'pipe', 'ignore'], env: {}, detached: true })`.
 * Once its stdout has closed (the host is exiting), it is reaped with `waitpid`, asked again
 * after 1, 4, 16, … ms and then every 4 s until it has gone, on timers that never hold the
 * event loop. Null when the module is not loaded here, for a file given without a path, or when
 * the spawn fails (then `child_process` tries, and reports its error as before).
 */
export function spawnHostNatively(file: string, args: readonly string[]): ChildProcess | null {
  const native = nativeSpawner();
  if (native === null || !file.startsWith('/') || [file, ...args].some((a) => a.includes('\0'))) return null;
  const r = native.spawn(file, [file, ...args].join('\0'), '', '', -1, 1 | 4);
  const [pid, outFd, , inFd] = r as [number, number, number, number];
  if (!(pid > 0)) return null;
  const stdout = new Socket({ fd: outFd, readable: true, writable: false });
  const stdin = new Socket({ fd: inFd, readable: false, writable: true });
  let status = -1;
  const child = Object.assign(new EventEmitter(), {
    pid,
    stdin,
    stdout,
    stderr: null,
    exitCode: null as number | null,
    signalCode: null as string | null,
    kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
      if (status !== -1) return false;
      return rawKill(pid, osConstants.signals[signal]) === 0;
    },
    ref() {},
    unref() {},
  });
  const reap = (delayMs: number): void => {
    const timer = setTimeout(() => {
      status = native.reap(pid);
      if (status === -1) return reap(Math.min(delayMs * 4, 4_000));
      // -2: no longer this process's child (its status is unknown); it has gone all the same.
      if (status >= 0 && (status & 0x7f) === 0) child.exitCode = (status >> 8) & 0xff;
      else child.signalCode = (status >= 0 && signalName(status & 0x7f)) || 'SIGKILL';
    }, delayMs);
    timer.unref();
  };
  stdout.once('close', () => reap(1));
  return child as unknown as ChildProcess;
}

/** A signal's name by its number (the first of two names: SIGABRT, not SIGIOT), or null. */
function signalName(n: number): string | null {
  for (const [name, value] of Object.entries(osConstants.signals)) if (value === n) return name;
  return null;
}

/** The pipes of a host this process spawned itself. */
function pipeLink(child: ChildProcess): HostLink {
  let ending = false;
  return {
    get pid() {
      return child.pid;
    },
    get ending() {
      return ending;
    },
    write: (text) => void child.stdin!.write(text),
    end: () => {
      ending = true;
      child.stdin?.end();
    },
    kill: () => {
      child.stdout?.destroy();
      child.stdin?.destroy();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    setRefs: (busy) => {
      const handles = [child, child.stdin, child.stdout] as unknown as { ref?: () => void; unref?: () => void }[];
      for (const h of handles) (busy ? h?.ref : h?.unref)?.call(h);
    },
    verify: () => true,
  };
}

/** How long a host started by another host may take to connect and say it is ready before it counts as failed. */
export const HOST_CONNECT_TIMEOUT_MS = 10_000;

/**
 * This process's end of a host that another host of this process started (see
 * {@link ProcessHost}): a Unix socket this process listens on, in a directory of its own that
 * only this user can enter (`mkdtemp` makes it 0700), named on the new host's command line.
 * The directory is made and the listener opened off the caller's path (the directory
 * asynchronously), then `launch(path)` asks a host to start the new one. The first connection
 * is taken, the listener closed and the directory removed; any later one is refused. Nothing
 * is written to the host, and nothing it writes is read, before the starting host has said
 * the new one's pid; then its `ready` must carry that pid, or the link is closed with nothing
 * written to it (what was to be written can then go to another host: {@link takeQueued}).
 * `onClose` is called once: when the socket closes, or when the host never connected (a
 * failed start, an `end()` before that). A host not verified within
 * {@link HOST_CONNECT_TIMEOUT_MS} is cut off.
 */
class SiblingLink implements HostLink {
  onData: (text: string) => void = () => {};
  onClose: () => void = () => {};
  #pid: number | undefined = undefined;
  #dir: string | null = null;
  #server: Server | null = null;
  #socket: Socket | null = null;
  #verified = false;
  #queued: string[] = [];
  #ending = false;
  #done = false;
  #busy = false;
  readonly #timer: ReturnType<typeof setTimeout>;

  constructor(launch: (path: string) => void, timeoutMs: number) {
    this.#timer = setTimeout(() => this.kill(), timeoutMs);
    this.#timer.unref();
    mkdtemp(join(tmpdir(), 'cw-hostlink-'), (err, dir) => {
      if (err) return this.kill();
      this.#dir = dir;
      if (this.#done) return this.#unlisten();
      const path = join(dir, 'h');
      // A socket path longer than the system's limit (~104 bytes) cannot be listened on.
      if (Buffer.byteLength(path) > 100) return this.kill();
      const server = createServer({ pauseOnConnect: true }, (socket) => this.#accept(socket));
      this.#server = server;
      server.on('error', () => this.kill());
      server.listen(path);
      this.setRefs(this.#busy);
      launch(path);
    });
  }

  get pid(): number | undefined {
    return this.#pid;
  }

  /** The starting host said the new host's pid: its `ready` may now be read. */
  started(pid: number): void {
    if (this.#done || this.#pid !== undefined) return;
    this.#pid = pid;
    this.#socket?.resume();
  }

  verify(pid: unknown): boolean {
    if (this.#done) return false;
    if (pid !== this.#pid) {
      this.kill();
      return false;
    }
    this.#verified = true;
    clearTimeout(this.#timer);
    for (const text of this.#queued.splice(0)) this.#socket!.write(text);
    if (this.#ending) this.#socket!.end();
    return true;
  }

  get ending(): boolean {
    return this.#ending;
  }

  /** What was written before the host showed itself, and so never reached it (emptied). */
  takeQueued(): string[] {
    return this.#queued.splice(0);
  }

  write(text: string): void {
    if (this.#done || this.#ending) return;
    if (this.#verified) this.#socket!.write(text);
    else this.#queued.push(text);
  }

  end(): void {
    if (this.#done || this.#ending) return;
    this.#ending = true;
    if (this.#verified) this.#socket!.end();
    // Not connected or not yet verified: there is nothing for it to end.
    else this.kill();
  }

  /** Also what a failure does: the host failed to start or to show itself (see the class comment). */
  kill(): void {
    if (this.#done) return;
    this.#done = true;
    clearTimeout(this.#timer);
    this.#unlisten();
    const socket = this.#socket;
    // A verified socket still open means the host still runs (it holds the other end; no
    // child inherits it): only then is its pid surely still its own. An unverified peer is
    // only cut off (a host that loses its socket shuts down by itself).
    if (socket !== null && !socket.destroyed && this.#verified && this.#pid !== undefined) {
      try {
        process.kill(this.#pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (socket !== null) socket.destroy();
    else queueMicrotask(() => this.onClose());
  }

  setRefs(busy: boolean): void {
    this.#busy = busy;
    for (const h of [this.#server, this.#socket]) if (h) (busy ? h.ref() : h.unref());
  }

  #accept(socket: Socket): void {
    if (this.#done || this.#socket !== null) {
      socket.destroy();
      return;
    }
    this.#socket = socket;
    this.#unlisten();
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      if (!this.#done) this.onData(text);
    });
    socket.on('error', () => {});
    socket.once('close', () => {
      this.kill();
      this.onClose();
    });
    this.setRefs(this.#busy);
    if (this.#pid !== undefined) socket.resume();
  }

  #unlisten(): void {
    this.#server?.close();
    this.#server = null;
    if (this.#dir !== null) rm(this.#dir, { recursive: true, force: true }, () => {});
    this.#dir = null;
  }
}

/**
 * What a host says of its memory (see process-host-source.ts): its anonymous resident memory
 * now and what its first full collection left (bytes; `null` where unknown, as off Linux or
 * before a collection), how many full collections it has done, and whether it has said it has
 * grown.
 */
export interface HostStatus {
  readonly anon: number | null;
  readonly baseline: number | null;
  readonly collections: number;
  readonly grown: boolean;
}

/** Where the replacement of a grown host stands (see {@link ProcessHost.replacement}). */
export type HostReplacement = 'none' | 'starting' | 'ready';

/**
 * The agent's side of the process host: one long-lived child started lazily and shared by
 * every session of this process. Requests go down its stdin, results come back on its stdout.
 * The process groups the host reports are tracked here too, so if the host dies (even by
 * SIGKILL) those groups are killed from here, every run in flight resolves as `lost`, and the
 * next request starts a new host. The host holds no reference on the event loop while idle.
 *
 * A host that says it has grown (see process-host-source.ts) is replaced: a fresh host is
 * started in the background, and once it is ready and nothing is in flight in the grown one,
 * new requests go to the fresh host and the grown one is told to exit (it runs nothing, so it
 * kills nothing). Until that moment the grown host serves as before, so no run waits for the
 * fresh one and none is spawned in this process. A replacement that dies before it took over
 * is not tried again for the same host.
 *
 * **Who starts a host.** A spawn from this process forks all of its memory and blocks its
 * event loop meanwhile: 6–10 ms for an agent-sized process on a quiet machine, 11–17 ms under
 * load. So when a host of this object or of its `starter` is ready, the new host is started by
 * that one instead (the `h` request of process-host-source.ts), and connects back to this
 * process over a Unix socket (see SiblingLink); this process only listens and accepts. That
 * covers a grown host's replacement (started by the grown host), the second host for
 * overlapping runs (by the first; the two shared hosts are each other's starters) and a host
 * restarted after a death while the other one is up. Only the first host of a process, or one
 * started while no other is up, is spawned from here. A host started by a host gets its
 * parent's scheduler slice by inheritance. If such a host fails before it is ready, this
 * object spawns its hosts itself from then on; it does not count towards {@link unavailable}.
 */
export class ProcessHost {
  readonly #retireAfterIdleMs: number | null;
  readonly #growthLimitBytes: number;
  readonly #collectAfterBytes: number;
  #retireTimer: ReturnType<typeof setTimeout> | null = null;
  #current: HostChild | null = null;
  /** The replacement being started for a grown host (see the class comment). */
  #spare: HostChild | null = null;
  /** The wait before a replacement is started, and whether a run was sent during it. */
  #renewWait: ReturnType<typeof setTimeout> | null = null;
  #sentDuringWait = false;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  #readyWaiters: (() => void)[] = [];
  #failedStarts = 0;
  /** How a host is started (a seam for tests; see {@link hostLaunch}). */
  readonly #launch: (sliceAllowed: boolean) => HostLaunch;
  /** Whether the next host may be started through Perl for a short slice (see sched-slice.ts). */
  #sliceAllowed = true;
  #wasUp = false;
  /** The environment bases the running host holds, oldest first, with their ids. */
  #bases = new Map<object, number>();
  #basesOf: HostChild | null = null;
  #nextBaseId = 1;
  /** How many hosts were started, replacements included (diagnostics and tests). */
  started = 0;
  /** How many of them another host started (diagnostics and tests; see the class comment). */
  startedByHost = 0;
  /** Another host of this process that may start this one's hosts (see the class comment). */
  readonly #starter: (() => ProcessHost | null) | null;
  /** Whether the next host may be started by another host; not after one started so failed. */
  #byHostAllowed = true;
  readonly #connectTimeoutMs: number;
  /** How many grown hosts were replaced by a fresh one (diagnostics and tests). */
  replaced = 0;
  /** How many environment bases were sent to a host (diagnostics and tests). */
  basesSent = 0;

  /**
   * `retireAfterIdleMs`: once nothing has run for this long, the host is told to exit (it
   * kills nothing, since nothing runs), and the next run starts a new one. Without it the
   * host lives as long as this process. `growthLimitBytes` and `collectAfterBytes`: the host's
   * memory limits ({@link HOST_GROWTH_LIMIT_BYTES} and {@link HOST_COLLECT_AFTER_BYTES} by
   * default; see process-host-source.ts; tests use others, a negative number meaning "at the
   * first check"). `launch` (for tests) says how a host is started; by default
   * {@link hostLaunch}, told whether a short slice may still be asked for (false for a host
   * started by a host). `starter`: another host of this process that may start this one's
   * hosts while it is ready (see the class comment). `connectTimeoutMs`: how long such a host
   * may take to connect and say it is ready ({@link HOST_CONNECT_TIMEOUT_MS} by default).
   */
  constructor(
    options: {
      retireAfterIdleMs?: number;
      growthLimitBytes?: number;
      collectAfterBytes?: number;
      launch?: (sliceAllowed: boolean) => HostLaunch;
      starter?: () => ProcessHost | null;
      connectTimeoutMs?: number;
    } = {},
  ) {
    this.#retireAfterIdleMs = options.retireAfterIdleMs ?? null;
    this.#starter = options.starter ?? null;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? HOST_CONNECT_TIMEOUT_MS;
    this.#growthLimitBytes = safeInteger('growthLimitBytes', options.growthLimitBytes ?? HOST_GROWTH_LIMIT_BYTES);
    this.#collectAfterBytes = safeInteger('collectAfterBytes', options.collectAfterBytes ?? HOST_COLLECT_AFTER_BYTES);
    this.#launch = options.launch ?? ((sliceAllowed) => hostLaunch(process.execPath, PROCESS_HOST_SOURCE, sliceAllowed));
  }

  get #link(): HostLink | null {
    return this.#current?.link ?? null;
  }

  /** Whether the running host was started asking for a short scheduler slice (see sched-slice.ts). */
  get sliced(): boolean {
    return this.#current?.sliced ?? false;
  }

  /**
   * How the running host spawns, once it is ready: `'handles'` (Node's process and pipe
   * handles directly; Node 20) or `'child_process'` (`child_process.spawn`); null before.
   */
  get spawner(): HostSpawner | null {
    return this.#current?.ready ? this.#current.spawner : null;
  }

  /** Runs sent to the host whose result has not come back yet. */
  get inFlight(): number {
    return this.#pending.size;
  }

  /**
   * True after three hosts in a row died before they were ready (a sandbox that forbids the
   * helper): spawning then stays in process for the life of this process.
   */
  get unavailable(): boolean {
    return this.#failedStarts >= 3;
  }

  /** True once any host of this process has been ready (a replacement starts at once). */
  get wasUp(): boolean {
    return this.#wasUp;
  }

  /** True once the running host has said it is ready for requests. */
  get ready(): boolean {
    return this.#current?.ready ?? false;
  }

  /** Whether a replacement for a grown host is starting, or ready and waiting to take over. */
  get replacement(): HostReplacement {
    return this.#spare === null ? 'none' : this.#spare.ready ? 'ready' : 'starting';
  }

  /** Start the host if none is running; resolves when it is ready (or it died starting). */
  start(): Promise<void> {
    const host = this.#ensure();
    if (this.ready) return Promise.resolve();
    const ready = new Promise<void>((resolve) => this.#readyWaiters.push(resolve));
    // Someone waits for it: hold the event loop until it is up (a background warm-up does not).
    this.#idleRefs(host);
    return ready;
  }

  /**
   * Start the host if none is running, without waiting for it: unlike {@link start}, nothing
   * holds the event loop until it is ready (see {@link warmProcessHost}). Returns whether a
   * host is running or starting (false when the host is unavailable here).
   */
  warm(): boolean {
    if (this.unavailable) return false;
    this.#ensure();
    return true;
  }

  #settleReady(): void {
    for (const w of this.#readyWaiters.splice(0)) w();
    if (this.#current) this.#idleRefs(this.#current);
  }

  /** The host's pid, when one is running. */
  get pid(): number | undefined {
    return this.#link?.pid;
  }

  /** Whether the running host was started by another host of this process (see the class comment). */
  get byHost(): boolean {
    return this.#current?.byHost ?? false;
  }

  /**
   * Whether the running host was started by this process with codewhale-spawn (`posix_spawn`,
   * Linux, where it was built and loads here), without a fork of this process; false for one
   * started through `child_process.spawn` or by another host.
   */
  get startedNatively(): boolean {
    return this.#current?.natively ?? false;
  }

  #ensure(): HostChild {
    if (this.#current) return this.#current;
    // The host died while its replacement was starting: the replacement is the new host.
    if (this.#spare) {
      this.#current = this.#spare;
      this.#spare = null;
      this.#idleRefs(this.#current);
      return this.#current;
    }
    this.#current = this.#spawn();
    this.#idleRefs(this.#current);
    return this.#current;
  }

  /**
   * A ready host that can start one for this object without this process spawning: the
   * running one (for its replacement), or else the starter's. None on Windows, or after a
   * host started that way failed.
   */
  #launcher(): ProcessHost | null {
    if (!this.#byHostAllowed || process.platform === 'win32') return null;
    if (this.ready) return this;
    const starter = this.#starter?.() ?? null;
    return starter !== null && starter !== this && starter.ready ? starter : null;
  }

  /**
   * Ask the running host to start another host: `file` with `args`, in a session of its own,
   * with an empty environment and no standard streams, not counted as one of its runs (see
   * process-host-source.ts). Resolves to its reply (`pid` or `spawnError`), `{ lost: true }`
   * if it went first; null when no host is ready. Holds nothing on the event loop.
   */
  #launchHost(file: string, args: readonly string[]): Promise<HostReply> | null {
    const host = this.#current;
    if (host === null || !host.ready) return null;
    const id = this.#nextId++;
    return new Promise<HostReply>((resolve) => {
      host.launches.set(id, resolve);
      host.link.write(JSON.stringify({ t: 'h', id, file, args }) + '\n');
    });
  }

  /** A host started by `launcher`'s, connected to this process by a socket (see SiblingLink). */
  #spawnByHost(launcher: ProcessHost): HostChild {
    // Node itself, not through Perl: a child inherits its parent's slice (see sched-slice.ts).
    const launch = this.#launch(false);
    const link: SiblingLink = new SiblingLink((path) => {
      const reply = launcher.#launchHost(launch.file, [...launch.args, ...this.#hostArgs(), `connect=${path}`]);
      if (reply === null) return link.kill();
      void reply.then((r) => {
        const pid = r['pid'];
        if (typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 0) link.started(pid);
        else link.kill();
      });
    }, this.#connectTimeoutMs);
    this.started++;
    this.startedByHost++;
    const host: HostChild = { link, sliced: launcher.sliced, byHost: true, natively: false, buffered: '', ready: false, spawner: null, grown: false, replacing: false, queries: [], launches: new Map() };
    link.onData = (text) => this.#onData(host, text);
    link.onClose = () => this.#gone(host);
    return host;
  }

  /** What follows the program on a host's command line: its memory limits, then its spawner option (see process-host-source.ts). */
  #hostArgs(): string[] {
    const args = ['--', String(this.#growthLimitBytes), String(this.#collectAfterBytes)];
    const setting = hostSpawnSetting();
    if (setting === 'child_process') args.push('spawn=child_process');
    const native = setting === null ? nativeSpawnerPath() : null;
    if (native !== null) args.push(`native=${native}`);
    return args;
  }

  #spawn(): HostChild {
    // Started by a host that is ready, when there is one: a spawn from this process forks all
    // of its memory and blocks its event loop for that (6–17 ms for an agent-sized process).
    const launcher = this.#launcher();
    if (launcher !== null) return this.#spawnByHost(launcher);
    // A tiny environment: nothing from the agent's (NODE_OPTIONS could load a loader or a
    // debugger into the host, PERL5OPT code into its launcher); each request carries, or names
    // a part already sent of, the environment of its process. Started through Perl with a short
    // scheduler slice where that can be had (sched-slice.ts), unless a host of this object
    // started that way died before it was ready: then directly from now on. The memory limits
    // go after the program and a `--` (without it Node would read a negative one as an option),
    // then the spawner option when one is set (the host's environment stays empty).
    const launch = this.#launch(this.#sliceAllowed);
    const args = [...launch.args, ...this.#hostArgs()];
    // Without forking this process where codewhale-spawn is loaded (see spawnHostNatively).
    const natively = hostSpawnSetting() === null ? spawnHostNatively(launch.file, args) : null;
    const child =
      natively ??
      spawn(launch.file, args, {
        stdio: ['pipe', 'pipe', 'ignore'],
        env: {},
        // Its own process group: a terminal's Ctrl-C is the agent's to handle, not the host's.
        detached: true,
        windowsHide: true,
      });
    this.started++;
    const host: HostChild = { link: pipeLink(child), sliced: launch.sliced, byHost: false, natively: natively !== null, buffered: '', ready: false, spawner: null, grown: false, replacing: false, queries: [], launches: new Map() };
    // The host is gone once its stdout closes (every reply it wrote has been read by then).
    child.on('error', () => this.#gone(host));
    child.stdin!.on('error', () => {});
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (text: string) => this.#onData(host, text));
    child.stdout!.once('close', () => this.#gone(host));
    return host;
  }

  /** Hold the event loop only while something runs, so an idle host never keeps the agent alive. */
  #idleRefs(host: HostChild): void {
    const busy = this.#pending.size > 0 || this.#readyWaiters.length > 0 || (this.#current?.queries.length ?? 0) > 0;
    host.link.setRefs(busy);
    if (this.#retireAfterIdleMs === null) return;
    if (this.#retireTimer) clearTimeout(this.#retireTimer);
    this.#retireTimer = null;
    if (!busy && this.ready) {
      this.#retireTimer = setTimeout(() => this.#retire(host), this.#retireAfterIdleMs);
      this.#retireTimer.unref?.();
    }
  }

  /**
   * Let an idle host go: it is detached at once, so a run that comes while it exits starts a
   * new host instead of writing to a closing one. Nothing is in flight, so nothing is lost.
   */
  #retire(host: HostChild): void {
    this.#retireTimer = null;
    if (this.#current !== host || this.#pending.size > 0 || this.#readyWaiters.length > 0) return;
    this.#current = null;
    this.#dropSpare();
    host.link.end();
  }

  /** Let the replacement go, if one is starting or waiting (it runs nothing yet), or not start it. */
  #dropSpare(): void {
    this.#cancelRenewWait();
    const spare = this.#spare;
    this.#spare = null;
    spare?.link.end();
  }

  #onData(host: HostChild, text: string): void {
    host.buffered += text;
    let nl: number;
    while ((nl = host.buffered.indexOf('\n')) >= 0) {
      const line = host.buffered.slice(0, nl);
      host.buffered = host.buffered.slice(nl + 1);
      let msg: HostReply & { t?: string; id?: number; pid?: number };
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        continue;
      }
      if (msg.t === 'ready') {
        // A host another host started must be the one it said it started (see SiblingLink).
        if (!host.link.verify(msg['pid'])) return;
        host.spawner = msg['spawner'] === 'native' || msg['spawner'] === 'handles' ? msg['spawner'] : 'child_process';
        host.ready = true;
        if (host === this.#current) {
          this.#wasUp = true;
          this.#failedStarts = 0;
          this.#settleReady();
        }
        continue;
      }
      if (msg.t === 'grown') {
        host.grown = true;
        continue;
      }
      if (msg.t === 'q') {
        host.queries.shift()?.(hostStatus(msg));
        if (host === this.#current) this.#idleRefs(host);
        continue;
      }
      const launched = msg.t === 'd' && typeof msg.id === 'number' ? host.launches.get(msg.id) : undefined;
      if (launched) {
        host.launches.delete(msg.id!);
        launched(msg);
        continue;
      }
      const p = typeof msg.id === 'number' ? this.#pending.get(msg.id) : undefined;
      if (!p) continue;
      if (msg.t === 's' && typeof msg.pid === 'number') {
        p.pid = msg.pid;
        trackProcessGroup(msg.pid);
        p.onSpawn?.(msg.pid);
      } else if (msg.t === 'd') {
        this.#pending.delete(msg.id!);
        if (p.pid !== null) untrackProcessGroup(p.pid);
        if (this.#current) this.#idleRefs(this.#current);
        p.resolve(msg);
      }
    }
    this.#renew();
  }

  /**
   * Replace a grown host (see the class comment): start its replacement, or, once that is
   * ready and the grown host has nothing in flight, switch to it.
   */
  #renew(): void {
    const current = this.#current;
    if (current === null || !current.grown || !current.ready) return;
    if (this.#spare === null) {
      if (current.replacing) return;
      current.replacing = true;
      this.#startSpareWhenIdle(current, 0);
      return;
    }
    // (The grown host is ready, so nobody waits for a start here.)
    if (!this.#spare.ready || this.#pending.size > 0) return;
    this.#current = this.#spare;
    this.#spare = null;
    this.replaced++;
    this.#idleRefs(this.#current);
    current.link.end();
  }

  /**
   * Start the replacement for `grown` once no run has been in flight for
   * {@link HOST_RENEW_IDLE_MS} (this process is then likely waiting for a model or a user, and
   * the spawn's stall goes unnoticed), or after {@link HOST_RENEW_MAX_TRIES} such waits anyway.
   */
  #startSpareWhenIdle(grown: HostChild, tries: number): void {
    const timer = setTimeout(() => {
      this.#renewWait = null;
      if (this.#current !== grown || this.#spare !== null) return;
      if ((this.#pending.size > 0 || this.#sentDuringWait) && tries + 1 < HOST_RENEW_MAX_TRIES) {
        this.#startSpareWhenIdle(grown, tries + 1);
        return;
      }
      this.#spare = this.#spawn();
      // Nobody waits for it: it never holds the event loop.
      this.#spare.link.setRefs(false);
    }, HOST_RENEW_IDLE_MS);
    timer.unref?.();
    this.#renewWait = timer;
    this.#sentDuringWait = false;
  }

  /** Not start a replacement after all (the host went, or is let go). */
  #cancelRenewWait(): void {
    if (this.#renewWait !== null) clearTimeout(this.#renewWait);
    this.#renewWait = null;
  }

  /** A host's stdout closed or it could not be spawned: which of ours it was decides what follows. */
  #gone(host: HostChild): void {
    if (host === this.#current && !host.ready && host.link instanceof SiblingLink && !host.link.ending) this.#respawn(host, host.link);
    else if (host === this.#current) this.#lost(host);
    else if (host === this.#spare) {
      this.#spare = null;
      if (!host.ready && !host.link.ending) this.#failedBeforeReady(host, false);
      endChild(host);
    } else {
      // A host that was replaced or retired: it had nothing in flight, only perhaps a query
      // or a request to start another host.
      settleAsides(host);
    }
  }

  /**
   * The current host, started by another host, failed before it was ready: nothing was ever
   * written to it (see SiblingLink), so spawn one from here and give it what was meant for
   * this one. No run is lost to a failed start.
   */
  #respawn(host: HostChild, link: SiblingLink): void {
    this.#failedBeforeReady(host, true);
    const queued = link.takeQueued();
    endChild(host);
    const next = this.#spawn();
    this.#current = next;
    if (this.#basesOf === host) this.#basesOf = next;
    for (const text of queued) next.link.write(text);
    this.#idleRefs(next);
  }

  /**
   * A host died (or never showed itself) before it was ready: start the next one another way.
   * One started by a host: the next is spawned from here. One started through Perl: the next
   * directly. Only the current host's failures count towards {@link unavailable}.
   */
  #failedBeforeReady(host: HostChild, current: boolean): void {
    if (host.byHost) {
      this.#byHostAllowed = false;
      return;
    }
    if (current) this.#failedStarts++;
    if (host.sliced) this.#sliceAllowed = false;
  }

  /** The host is gone: end what it started, settle every run in flight, start afresh next time. */
  #lost(host: HostChild): void {
    this.#current = null;
    this.#cancelRenewWait();
    // One closed on purpose (close()) while it started did not fail.
    if (!host.ready && !host.link.ending) this.#failedBeforeReady(host, true);
    this.#settleReady();
    endChild(host);
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) {
      if (p.pid !== null) {
        signalProcessGroup(p.pid, 'SIGKILL');
        untrackProcessGroup(p.pid);
      }
      p.resolve({ lost: true });
    }
  }

  /** Run one process through the host; `onSpawn` gets its pid (= its group and session id). */
  run(request: HostRequest, onSpawn?: (pid: number) => void): { id: number; done: Promise<HostReply> } {
    const host = this.#ensure();
    this.#sentDuringWait = true;
    const id = this.#nextId++;
    const done = new Promise<HostReply>((resolve) => {
      this.#pending.set(id, { resolve, onSpawn, pid: null });
    });
    this.#idleRefs(host);
    // Not `{ ...request, t, id }`: properties added after a spread are slow on Node 20 (see
    // run-hook.ts). Set again after the copy, so a request never carries its own.
    const message: Record<string, unknown> = { t: 'r', id, ...request };
    message['t'] = 'r';
    message['id'] = id;
    host.link.write(JSON.stringify(message) + '\n');
    return { id, done };
  }

  /**
   * Run hooks one after the other in the host, as one request: each starts as soon as the one
   * before it has its result, with no round trip through this process in between. A run with
   * `stopIfFailed` that does not exit 0 ends the chain: each later run resolves `skipped`
   * without having started. `env` is the environment of every run that has none of its own.
   * `after`: the id of the last run of a chain sent to this host before, still in flight; this
   * chain then starts when that one has ended (at once if it already has), and can be
   * {@link withdraw}n until it starts. Returns each run's id and result, in order; `onSpawn[i]`
   * gets run i's pid.
   *
   * `then`: a shell run (with its own `env`) that the host starts the moment the chain ends,
   * only if every run of it exited 0, wrote nothing to stdout and drained (see
   * process-host-source.ts); otherwise, or once {@link stop}ped before that, it resolves
   * `skipped` without having started. The chain's last result always comes before the run
   * starts, so a host lost before that result never started it.
   */
  chain(
    env: Readonly<Record<string, string>>,
    requests: readonly (HostRequest & { readonly stopIfFailed: boolean })[],
    onSpawn: readonly (((pid: number) => void) | undefined)[] = [],
    options: { readonly after?: number; readonly then?: { readonly request: HostRequest & { readonly mode: 'shell' }; readonly onSpawn?: (pid: number) => void } } = {},
  ): HostChain {
    const host = this.#ensure();
    this.#sentDuringWait = true;
    const runs: Record<string, unknown>[] = [];
    const ids: number[] = [];
    const replies = requests.map((request, i) => {
      const id = this.#nextId++;
      ids.push(id);
      const run: Record<string, unknown> = { id, ...request };
      run['id'] = id;
      runs.push(run);
      return new Promise<HostReply>((resolve) => {
        this.#pending.set(id, { resolve, onSpawn: onSpawn[i], pid: null });
      });
    });
    this.#idleRefs(host);
    const composition = compositions.get(env);
    const message: Record<string, unknown> = composition ? { t: 'c', base: this.#baseId(host, composition.base), vars: composition.vars, runs } : { t: 'c', env: plainEnv(env), runs };
    if (options.after !== undefined) message['after'] = options.after;
    let then: HostChain['then'] = null;
    if (options.then !== undefined) {
      const id = this.#nextId++;
      const request: Record<string, unknown> = { id, ...options.then.request };
      request['id'] = id;
      message['then'] = request;
      const thenSpawn = options.then.onSpawn;
      then = { id, done: new Promise<HostReply>((resolve) => this.#pending.set(id, { resolve, onSpawn: thenSpawn, pid: null })) };
    }
    host.link.write(JSON.stringify(message) + '\n');
    return { ids, replies, then };
  }

  /** The id of `base` in `host`, sent to it first if it does not hold it (writes precede the chain). */
  #baseId(host: HostChild, base: Readonly<Record<string, string>>): number {
    if (this.#basesOf !== host) {
      this.#bases = new Map();
      this.#basesOf = host;
    }
    const known = this.#bases.get(base);
    if (known !== undefined) {
      this.#bases.delete(base);
      this.#bases.set(base, known);
      return known;
    }
    if (this.#bases.size >= HOST_ENV_BASES) {
      const [oldest, oldId] = this.#bases.entries().next().value as [object, number];
      this.#bases.delete(oldest);
      host.link.write(JSON.stringify({ t: 'e', id: oldId, env: null }) + '\n');
    }
    const id = this.#nextBaseId++;
    this.#bases.set(base, id);
    this.basesSent++;
    host.link.write(JSON.stringify({ t: 'e', id, env: base }) + '\n');
    return id;
  }

  /**
   * Withdraw a chain sent with `after` (`firstId`: its first run's id) that has not started:
   * each of its runs then resolves `skipped`. A chain that has started runs on, and its
   * results come as usual; the host decides which, so the answer is in the replies.
   */
  withdraw(firstId: number): void {
    if (this.#pending.has(firstId)) this.#link?.write(JSON.stringify({ t: 'x', id: firstId }) + '\n');
  }

  /** Whether run `id` was sent to the running host and has no result yet. */
  isPending(id: number): boolean {
    return this.#pending.has(id);
  }

  /** Ask the host to stop a shell run (SIGTERM to its group, SIGKILL after the grace). */
  stop(id: number): void {
    if (this.#pending.has(id)) this.#link?.write(JSON.stringify({ t: 'k', id }) + '\n');
  }

  /**
   * What the running host says of its memory (see {@link HostStatus}); `null` when no host is
   * running or it went away before it answered. Starts no host.
   */
  status(): Promise<HostStatus | null> {
    const host = this.#current;
    if (host === null || !host.ready) return Promise.resolve(null);
    return new Promise((resolve) => {
      host.queries.push(resolve);
      // Someone waits for the answer: hold the event loop until it comes.
      host.link.setRefs(true);
      host.link.write('{"t":"q"}\n');
    });
  }

  /** Close the host's stdin: it kills what it started and exits (tests; shutdown). A replacement being started goes too. */
  close(): void {
    this.#link?.end();
    this.#dropSpare();
  }
}

function safeInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be an integer, not ${value}`);
  return value;
}

/** A status reply's fields, each checked (anything else reads as unknown). */
function hostStatus(msg: Record<string, unknown>): HostStatus {
  const bytes = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
  return { anon: bytes(msg['anon']), baseline: bytes(msg['baseline']), collections: bytes(msg['collections']) ?? 0, grown: msg['grown'] === true };
}


/** Answer what waits on `host` besides its runs: status queries (null) and requests to start a host (lost). */
function settleAsides(host: HostChild): void {
  for (const q of host.queries.splice(0)) q(null);
  const launches = [...host.launches.values()];
  host.launches.clear();
  for (const l of launches) l({ lost: true });
}

/** A host that is no longer ours to talk to, whatever state it is in. */
function endChild(host: HostChild): void {
  settleAsides(host);
  host.link.kill();
}

// The hosts of the copies in this process that speak this copy's protocol (one entry).
function hostsOfThisProtocol(): { primary: ProcessHost; overflow: ProcessHost | null } {
  let entry = state.hosts.get(HOST_PROTOCOL);
  if (!entry) {
    // Each of the two hosts is started by the other when that one is up (see ProcessHost).
    const pair: { primary: ProcessHost; overflow: ProcessHost | null } = { primary: new ProcessHost({ starter: () => pair.overflow }), overflow: null };
    entry = pair;
    state.hosts.set(HOST_PROTOCOL, entry);
  }
  return entry as { primary: ProcessHost; overflow: ProcessHost | null };
}

/**
 * The process host every session of this process shares, created on first use and started
 * lazily. It is one per process even when the process has loaded several copies of this
 * package (the CLI's bundle and the TUI's `node_modules`, say), as long as they speak the same
 * host protocol (`HOST_PROTOCOL`; not the program's text, which the binary's minified bundle
 * spells differently); a copy with another protocol gets hosts of its own.
 */
export function sharedProcessHost(): ProcessHost {
  return hostsOfThisProtocol().primary;
}

/** How long no run may have been in flight before a grown host's replacement is started. */
export const HOST_RENEW_IDLE_MS = 100;

/** How many such waits a replacement gives a host that is never idle, before it starts anyway. */
export const HOST_RENEW_MAX_TRIES = 50;

/** How long the overflow host may sit idle before it exits (a later overlap starts it again). */
export const OVERFLOW_HOST_IDLE_MS = 30_000;

/**
 * The second host, for runs that overlap (see {@link processHostForRun}). Shared per process
 * like the first; it exits after {@link OVERFLOW_HOST_IDLE_MS} without work.
 */
export function overflowProcessHost(): ProcessHost {
  const hosts = hostsOfThisProtocol();
  hosts.overflow ??= new ProcessHost({ retireAfterIdleMs: OVERFLOW_HOST_IDLE_MS, starter: () => hosts.primary });
  return hosts.overflow;
}

/**
 * The host a run goes to. A host is one thread, and each spawn holds it for the whole
 * fork-and-exec (~1.6 ms here), so two runs sent to one host start one after the other: a run
 * that arrives while the first host has work goes to a second one, which spawns on the other
 * core. That second host is started (in the background) the first time runs overlap; until
 * it is ready, and whenever the first host is idle, runs go to the first. Two observer
 * workers then sustain more spawns per second than two bare spawns in flight from one
 * process, and a gate never queues behind an observer's spawn.
 */
export function processHostForRun(): ProcessHost {
  const primary = sharedProcessHost();
  if (primary.inFlight === 0 || !primary.ready) return primary;
  const overflow = overflowProcessHost();
  if (!overflow.ready) {
    if (!overflow.unavailable) void overflow.start();
    return primary;
  }
  return overflow.inFlight < primary.inFlight ? overflow : primary;
}
