import { dirname, join } from 'node:path';
import { serve } from '@hono/node-server';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Context } from 'hono';
import { closeSharedPools, createSharedPools, openSession, type ModelProvider, type SharedPools } from '@codewhale/engine';
import { resolvePaths } from '@codewhale/hooks-supervisor';
import { ApprovalBroker } from './approval-broker.js';
import { isLoopbackHost } from './auth/check-token.js';
import { PEER_CHECK_SUPPORTED, peerVerdict, type PeerVerdict } from './auth/peer-process.js';
import { browserPolicy, normalizeOrigin, type BrowserPolicy } from './http/browser-guard.js';
import { resolveToken, type TokenSource } from './auth/resolve-token.js';
import { LoginCodes } from './auth/login-codes.js';
import { loadWebAssets } from './web/web-assets.js';
import { createApp } from './create-app.js';
import { EventHub } from './events/event-hub.js';
import type { SseOptions } from './events/sse-stream.js';
import { hooksView } from './hooks-view.js';
import { SERVER_INFO_FILE, ServerLock, ServerLockedError } from './lifecycle/server-lock.js';
import { secretValues } from './redact.js';
import { corruptDatabaseError, isCorruption, RuntimeStore, StoreError, type SyncLevel } from './store/runtime-store.js';
import { loadSqlite, SqliteUnavailableError } from './store/sqlite.js';
import { SessionTurnRunner, type OpenThreadSession } from './turn-runner.js';
import { VERSION } from './version.js';

/**
 * Why `startServer` refused: `usage`, a bad invocation (`codewhale serve` exits 2); `startup`,
 * a server that could not start (exit 1); `database`, a damaged database file (exit 3: the
 * message names the file and what to do); `unavailable`, better-sqlite3 is not installed or
 * cannot load (exit 69).
 */
export class ServeError extends Error {
  readonly code: 'usage' | 'startup' | 'database' | 'unavailable';
  constructor(code: ServeError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ServeError';
    this.code = code;
  }
  static isInstance(e: unknown): e is ServeError {
    return e instanceof ServeError;
  }
}

export interface ServeOptions {
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default 7878; 0 picks a free port. */
  readonly port?: number;
  /** The canonical default workspace of new threads. */
  readonly workspace: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** `--auth-token`. */
  readonly authToken?: string | null;
  /** `--insecure-no-auth`: refused unless the bind is loopback. */
  readonly insecureNoAuth?: boolean;
  /** `--config PATH`. */
  readonly configPath?: string | null;
  /** Default `$CODEWHALE_HOME/runtime/runtime.db`. */
  readonly databasePath?: string;
  /**
   * Default `NORMAL`: in WAL mode every committed change survives a process crash (`kill -9`);
   * a power loss or OS crash may lose the last commits. `FULL` fsyncs every commit.
   */
  readonly synchronous?: SyncLevel;
  /** Events older than this are deleted (default 30 days); see {@link DEFAULT_RETENTION}. */
  readonly retention?: { readonly maxAgeMs: number; readonly keepPerThread: number };
  /** A model provider for every thread instead of resolving the route (tests, embedders). */
  readonly provider?: () => ModelProvider;
  /** How a thread's session is opened (default: the engine's `openSession`, `runtime` profile). */
  readonly openThreadSession?: OpenThreadSession;
  readonly approvalTimeoutMs?: number;
  readonly maxConcurrentTurns?: number;
  readonly sse?: SseOptions;
  /** `--cors ORIGIN`: the only origins a browser page may call the API from (default none). */
  readonly corsOrigins?: readonly string[];
  /** `--allow-host NAME`: more names the `Host` header may carry (a reverse proxy's). */
  readonly allowedHosts?: readonly string[];
  /**
   * Where structured logs go, one JSON object per line (pino): a line per request (method, path
   * without its query, status, duration), start-up and stop. Default none. Never a token, a
   * header, a query string or a body.
   */
  readonly log?: { readonly destination: DestinationStream; readonly level?: 'debug' | 'info' | 'warn' | 'error' } | null;
  /** The web client's build (a directory with index.html), served at `/`; default none. */
  readonly webRoot?: string | null;
}

export interface RunningServer {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly tokenSource: TokenSource | 'none';
  /** The token file when the token lives in one (its path, never its contents). */
  readonly tokenFile: string | null;
  readonly databasePath: string;
  /** `server.json`: where this server listens (mode 0600, removed on a clean exit). */
  readonly infoFile: string;
  /** What the restart recovery found. */
  readonly recovered: { readonly interruptedTurns: number; readonly expiredApprovals: number };
  readonly store: RuntimeStore;
  readonly hub: EventHub;
  /** False where processes the server starts cannot be told apart from clients (no `/proc`). */
  readonly peerCheck: boolean;
  /** Whether the web client is served at `/`. */
  readonly web: boolean;
  /**
   * A one-time login URL for the web client (`serve --open`): its code, in the URL's fragment
   * (never sent in a request line or a Referer), buys the session cookie once within 10 minutes.
   */
  loginUrl(): string;
  /** Graceful stop: refuse new work, interrupt running turns, record them, close the database. Idempotent. */
  close(): Promise<void>;
}

/** Events are kept 30 days, and at most 10,000 per thread (items, turns and threads are kept). */
export const DEFAULT_RETENTION = { maxAgeMs: 30 * 24 * 3_600_000, keepPerThread: 10_000 } as const;
const RETENTION_EVERY_MS = 3_600_000;

/** How long running turns get to end and be recorded on a graceful stop. */
const TURN_GRACE_MS = 5_000;
/** How long streams get to deliver their last events on a graceful stop. */
const STREAM_DRAIN_MS = 2_000;
/** How long finished responses get to reach their clients before connections are cut. */
const CONNECTION_DRAIN_MS = 1_000;

/** The variables that may carry the server's token: never passed on to the sessions' hooks and commands. */
const TOKEN_VARS = new Set(['CODEWHALE_RUNTIME_TOKEN', 'DEEPSEEK_RUNTIME_TOKEN']);

/**
 * The peer of each connection, looked up once per connection (a socket's owner does not change
 * while it is open). Without a socket there is nobody to vouch for: unknown.
 */
function connectionPeerCheck(): (c: Context) => PeerVerdict {
  const seen = new WeakMap<Socket, PeerVerdict>();
  return (c) => {
    const socket = (c.env as { incoming?: { socket?: Socket } } | undefined)?.incoming?.socket;
    if (!socket || socket.remoteAddress === undefined || socket.localAddress === undefined) return { kind: 'unknown', reason: 'no connection' };
    let v = seen.get(socket);
    if (!v) {
      v = peerVerdict({ remoteAddress: socket.remoteAddress, remotePort: socket.remotePort!, localAddress: socket.localAddress, localPort: socket.localPort! });
      // A verdict that could not be reached is not remembered: the next request looks again.
      if (v.kind !== 'unknown') seen.set(socket, v);
    }
    return v;
  };
}

function urlOf(host: string, port: number): string {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${h}:${port}`;
}

/** Start the Runtime API: open and recover the store, then listen. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 7878;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ServeError('usage', `--port must be 0..65535, got ${port}`);
  if (options.insecureNoAuth && !isLoopbackHost(host)) {
    throw new ServeError('usage', `--insecure-no-auth is refused on a non-loopback bind (${host}); bind 127.0.0.1 or use a token`);
  }
  for (const o of options.corsOrigins ?? []) {
    if (normalizeOrigin(o) === null)
      throw new ServeError('usage', `--cors needs an origin like https://app.example.com (scheme, host and optional port, nothing else), got ${JSON.stringify(o.slice(0, 100))}`);
  }
  // Before anything is written (lock, token, database): without SQLite there is no server.
  try {
    loadSqlite();
  } catch (e) {
    if (SqliteUnavailableError.isInstance(e)) throw new ServeError('unavailable', e.message, { cause: e });
    throw e;
  }
  const paths = resolvePaths(env, options.configPath ?? null);
  const databasePath = options.databasePath ?? join(paths.home, 'runtime', 'runtime.db');
  // One server per home, decided before anything is read or written: a second server must not
  // run recovery on the first one's live database (or generate a token, or touch server.json).
  let lock: ServerLock;
  try {
    lock = await ServerLock.acquire(dirname(databasePath));
  } catch (e) {
    throw new ServeError('startup', e instanceof ServerLockedError ? e.message : `cannot take the server lock: ${(e as Error).message}`, { cause: e });
  }
  let store: RuntimeStore | null = null;
  let resolved: ReturnType<typeof resolveToken> | null;
  let recovered: ReturnType<RuntimeStore['recover']>;
  const retention = options.retention ?? DEFAULT_RETENTION;
  try {
    resolved = options.insecureNoAuth ? null : resolveToken({ flag: options.authToken ?? null, env, home: paths.home });
    store = RuntimeStore.open(databasePath, { synchronous: options.synchronous ?? 'NORMAL' });
    // Recovery and retention read every table: a damaged page shows here, before anyone connects.
    recovered = store.recover();
    store.applyRetention(retention);
  } catch (e) {
    store?.close();
    await lock.release();
    const err = isCorruption(e) ? corruptDatabaseError(databasePath, e) : e;
    throw new ServeError(StoreError.isInstance(err) && err.code === 'corrupt' ? 'database' : 'startup', (err as Error).message, { cause: e });
  }
  const retentionTimer = setInterval(() => {
    if (store.isOpen) store.applyRetention(retention);
  }, RETENTION_EVERY_MS);
  retentionTimer.unref();
  const hub = new EventHub();
  store.onCommit((events) => hub.publish(events));
  const broker = new ApprovalBroker(store, { timeoutMs: options.approvalTimeoutMs ?? 300_000 });
  // Created with the first session, shared by every thread's session.
  let pools: SharedPools | null = null;
  const sessionEnv = Object.freeze(Object.fromEntries(Object.entries(env).filter(([k]) => !TOKEN_VARS.has(k.toUpperCase()))));
  const open: OpenThreadSession =
    options.openThreadSession ??
    (async (o) => {
      const host = await openSession({
        workspace: o.workspace,
        home: paths.home,
        env: sessionEnv,
        profile: 'runtime',
        interaction: o.interaction,
        pools: (pools ??= createSharedPools()),
        flags: { mode: o.mode, posture: o.posture, ...(o.model ? { model: o.model } : {}), ...(options.configPath ? { configPath: options.configPath } : {}) },
        ...(o.history ? { history: o.history as never } : {}),
        ...(options.provider ? { provider: options.provider() } : {}),
      });
      await host.start();
      return host;
    });
  const secrets = [...secretValues(env), ...(resolved ? [resolved.token] : [])];
  const logger: Logger | null = options.log
    ? pino(
        {
          level: options.log.level ?? 'info',
          base: { pid: process.pid },
          timestamp: pino.stdTimeFunctions.isoTime,
          // Nothing logged carries these; should a later line add them, they are censored.
          redact: { paths: ['token', 'authorization', 'cookie', 'headers', 'req.headers', '*.token', '*.authorization', '*.cookie'], censor: '[redacted]' },
        },
        options.log.destination,
      )
    : null;
  let web: ReturnType<typeof loadWebAssets> | null = null;
  if (options.webRoot) {
    try {
      web = loadWebAssets(options.webRoot);
    } catch (e) {
      store.close();
      await lock.release();
      throw new ServeError('startup', `cannot load the web client: ${(e as Error).message}`, { cause: e });
    }
  }
  const loginCodes = new LoginCodes();
  const runner = new SessionTurnRunner({ store, broker, open, secrets });
  let stopping = false;
  // The bound port is known only after listening; the policy is replaced then.
  let policy: BrowserPolicy = browserPolicy(host, port, { corsOrigins: options.corsOrigins ?? [], extraHosts: options.allowedHosts ?? [] });
  const peerCheck = PEER_CHECK_SUPPORTED ? connectionPeerCheck() : null;
  const app = createApp({
    get browser() {
      return policy;
    },
    peerCheck,
    store,
    hub,
    broker,
    runner,
    token: resolved?.token ?? null,
    defaultWorkspace: options.workspace,
    version: VERSION,
    hooksList: (workspace, live) => hooksView(paths, workspace, live),
    ...(options.maxConcurrentTurns !== undefined ? { maxConcurrentTurns: options.maxConcurrentTurns } : {}),
    ...(options.sse ? { sse: options.sse } : {}),
    isShuttingDown: () => stopping,
    secrets,
    logger,
    web,
    loginCodes,
  });

  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(s as Server)) as Server;
      s.once('error', reject);
    });
  } catch (e) {
    clearInterval(retentionTimer);
    store.close();
    await lock.release();
    const code = (e as NodeJS.ErrnoException).code;
    throw new ServeError(
      'startup',
      code === 'EADDRINUSE' ? `${host}:${port} is already in use; pick another --port (0 picks a free one)` : `cannot listen on ${host}:${port}: ${code ?? (e as Error).message}`,
      { cause: e },
    );
  }
  const bound = (server.address() as AddressInfo).port;
  policy = browserPolicy(host, bound, { corsOrigins: options.corsOrigins ?? [], extraHosts: options.allowedHosts ?? [] });
  const url = urlOf(host, bound);
  logger?.info({ url, database: databasePath, recovered_turns: recovered.interruptedTurns, expired_approvals: recovered.expiredApprovals, peer_check: peerCheck !== null }, 'listening');
  lock.writeInfo({ pid: process.pid, url, host, port: bound, database: databasePath, version: VERSION, started_at: new Date().toISOString() });

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // New work is refused from here on (503) and /health says `stopping`; the listener stays
      // open until the running turns are recorded, so clients can see why.
      stopping = true;
      logger?.info({ running_turns: runner.activeCount }, 'stopping');
      clearInterval(retentionTimer);
      await runner.close(TURN_GRACE_MS);
      broker.close();
      // Every stream delivers what was committed (the interrupted turns included), then ends.
      await hub.end(STREAM_DRAIN_MS);
      const stopped = new Promise<void>((r) => server.close(() => r()));
      // Ended streams finish their responses, then their connections go idle and are closed;
      // anything still open after a short wait is cut.
      const idle = setInterval(() => server.closeIdleConnections(), 10);
      server.closeIdleConnections();
      let cut: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([stopped, new Promise<void>((r) => (cut = setTimeout(r, CONNECTION_DRAIN_MS)))]);
      clearInterval(idle);
      clearTimeout(cut);
      server.closeAllConnections();
      await stopped;
      if (pools) await closeSharedPools(pools).catch(() => {});
      store.close();
      await lock.release();
    })();
    return closing;
  };

  return {
    url,
    infoFile: join(lock.dir, SERVER_INFO_FILE),
    host,
    port: bound,
    tokenSource: resolved?.source ?? 'none',
    tokenFile: resolved?.file ?? null,
    databasePath,
    recovered,
    store,
    hub,
    peerCheck: peerCheck !== null,
    web: web !== null,
    loginUrl: () => (resolved ? `${url}/#login=${loginCodes.issue()}` : `${url}/`),
    close,
  };
}
