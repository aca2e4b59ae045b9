import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importExternal } from '../import-external.js';
import { CliError } from '../cli-error.js';
import { commandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { Io } from '../io.js';
import type { CommonOptions } from '../common-options.js';
import { onSignalExit } from '../signal-exit.js';

export interface ServeOptions extends CommonOptions {
  readonly host?: string;
  readonly port?: number;
  readonly authToken?: string;
  readonly authTokenFile?: string;
  readonly insecureNoAuth?: boolean;
  readonly cors?: readonly string[];
  readonly allowHost?: readonly string[];
  /** `--open`: print a one-time login link for the web client. */
  readonly open?: boolean;
}

/**
 * The web client's build: `dist/web` beside the bundled command line (the package carries it,
 * copied there by the build), or the workspace's `packages/web/dist/web` when running from source.
 */
export function webClientRoot(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [join(here, 'web'), join(here, '..', '..', '..', 'web', 'dist', 'web')]) {
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return null;
}

/** The token of `--auth-token-file` (`-`: standard input): its first line, trimmed. */
function readTokenFile(path: string, cwd: string): string {
  let text: string;
  try {
    text = path === '-' ? readFileSync(0, 'utf8') : readFileSync(resolve(cwd, path), 'utf8');
  } catch (e) {
    throw CliError.usage(`--auth-token-file: cannot read ${path === '-' ? 'standard input' : path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const token = text.split(/\r?\n/)[0]!.trim();
  if (token.length < 16) throw CliError.usage(`--auth-token-file: the token must be at least 16 characters on the first line (${path === '-' ? 'standard input' : path})`);
  return token;
}

/** Resolves when the server should stop (default: the first SIGTERM, SIGINT or SIGHUP). */
export type StopSignal = Promise<string>;

/** How long the binary's signal handler waits for a graceful stop before it exits anyway. */
export const SERVE_STOP_GRACE_MS = 9_500;

/**
 * The stop signal of the binary: a graceful-exit handler on the process-wide signal handler,
 * so that handler waits for the server to close (and then exits 0) instead of exiting at once.
 */
function processStopSignal(closed: Promise<void>): { stop: StopSignal; release: () => void } {
  let release = () => {};
  const stop = new Promise<string>((resolve) => {
    release = onSignalExit(
      async (signal) => {
        resolve(signal);
        await closed;
        return EXIT.ok;
      },
      { graceMs: SERVE_STOP_GRACE_MS },
    );
  });
  return { stop, release };
}

/**
 * `codewhale serve`: the Runtime API. The first line of output is the URL it listens on; the
 * token is never printed (only where it comes from). Runs until SIGTERM/SIGINT, then stops
 * gracefully. Exit codes: 0 stopped cleanly, 1 could not start (port in use, another server on
 * this home), 2 usage error (bad port, `--insecure-no-auth` on a non-loopback bind), 3 the
 * database file is damaged (the message names it and says what to do), 69 the SQLite module
 * better-sqlite3 (an optional dependency) is not installed or cannot load.
 */
export async function runServe(opts: ServeOptions, io: Io, stopSignal?: StopSignal): Promise<number> {
  let markClosed = () => {};
  const closed = new Promise<void>((r) => (markClosed = r));
  const fromProcess = stopSignal ? null : processStopSignal(closed);
  try {
    return await serveUntil(opts, io, stopSignal ?? fromProcess!.stop);
  } finally {
    markClosed();
    fromProcess?.release();
  }
}

async function serveUntil(opts: ServeOptions, io: Io, stop: StopSignal): Promise<number> {
  const ctx = commandContext(opts, io);
  // Loaded only here, so `--version` and the other commands never pay for the server.
  const api = await importExternal<typeof import('@codewhale/runtime-api')>('@codewhale/runtime-api');
  if (opts.authToken !== undefined && opts.authTokenFile !== undefined) throw CliError.usage('use one of --auth-token and --auth-token-file');
  const tokenFromFile = opts.authTokenFile !== undefined ? readTokenFile(opts.authTokenFile, io.cwd) : null;
  if (opts.authToken !== undefined) {
    io.stderr('warning: --auth-token is visible to other processes (ps, /proc/PID/cmdline); use --auth-token-file PATH or --auth-token-file - (standard input)\n');
  }
  let server: Awaited<ReturnType<typeof api.startServer>>;
  try {
    server = await api.startServer({
      host: opts.host ?? '127.0.0.1',
      port: opts.port ?? 7878,
      workspace: ctx.workspace,
      env: io.env,
      authToken: tokenFromFile ?? opts.authToken ?? null,
      insecureNoAuth: Boolean(opts.insecureNoAuth),
      configPath: opts.config ? ctx.paths.configPath : null,
      corsOrigins: opts.cors ?? [],
      allowedHosts: opts.allowHost ?? [],
      webRoot: webClientRoot(),
      // Structured logs (a JSON line per request, start and stop) on standard error; stdout keeps the URL first.
      log: { destination: { write: (line: string) => io.stderr(line) } },
    });
  } catch (e) {
    if (api.ServeError.isInstance(e)) {
      if (e.code === 'usage') throw CliError.usage(e.message);
      if (e.code === 'unavailable') {
        throw new CliError(e.message, { exitCode: EXIT.unavailable, hint: api.SqliteUnavailableError.isInstance(e.cause) ? e.cause.fix : null });
      }
      // A damaged database file is a file that cannot be read: the configuration exit code.
      throw new CliError(e.message, { exitCode: e.code === 'database' ? EXIT.config : EXIT.failure });
    }
    throw e;
  }
  io.stdout(`${server.url}\n`);
  const auth =
    server.tokenSource === 'none'
      ? 'auth: none (--insecure-no-auth, loopback only)'
      : server.tokenSource === 'generated' || server.tokenSource === 'file'
        ? `auth: token in ${server.tokenFile} (mode 0600; ${server.tokenSource === 'generated' ? 'generated now' : 'reused'}); send it as Authorization: Bearer <token>`
        : `auth: token from ${server.tokenSource === 'flag' ? (tokenFromFile !== null ? `--auth-token-file ${opts.authTokenFile}` : '--auth-token') : `$${server.tokenSource}`}`;
  io.stdout(`${auth}\n`);
  if (!server.peerCheck) io.stderr(`warning: on ${process.platform} processes started by this server's threads cannot be told apart from clients: a tool that reads the token can use the API\n`);
  io.stdout(`workspace: ${ctx.workspace}\ndatabase: ${server.databasePath}\n`);
  if (!server.web) io.stdout('web: not available (this copy carries no web client build)\n');
  // The one-time link works once, within 10 minutes; the page trades its code for the session cookie.
  else if (opts.open) io.stdout(`web: ${server.loginUrl()} (one-time login link)\n`);
  else io.stdout(`web: ${server.url}/ (log in with the token, or start with --open for a one-time link)\n`);
  if (server.recovered.interruptedTurns + server.recovered.expiredApprovals > 0) {
    io.stdout(`recovered: ${server.recovered.interruptedTurns} interrupted turn(s), ${server.recovered.expiredApprovals} expired approval(s)\n`);
  }
  const sig = await stop;
  io.stderr(`${sig}: stopping (interrupting running turns)\n`);
  await server.close();
  return EXIT.ok;
}
