import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

/** What `server.json` says about the server that runs on a home. */
export interface ServerInfo {
  readonly pid: number;
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly version: string;
  readonly started_at: string;
}

/** Another server holds the lock: who it is, as far as its `server.json` says. */
export class ServerLockedError extends Error {
  readonly holder: ServerInfo | null;
  constructor(dir: string, holder: ServerInfo | null) {
    super(
      holder
        ? `another codewhale serve already runs on this home: pid ${holder.pid}, ${holder.url} (lock ${dir}); stop it first (kill -TERM ${holder.pid}) or use another CODEWHALE_HOME`
        : `another codewhale serve already runs on this home (it is still starting; lock ${dir}); stop it first or use another CODEWHALE_HOME`,
    );
    this.name = 'ServerLockedError';
    this.holder = holder;
  }
}

/** The file that says where the running server listens (mode 0600, removed on a clean exit). */
export const SERVER_INFO_FILE = 'server.json';

export function readServerInfo(dir: string): ServerInfo | null {
  try {
    const v = JSON.parse(readFileSync(join(dir, SERVER_INFO_FILE), 'utf8')) as ServerInfo;
    return typeof v.pid === 'number' && typeof v.url === 'string' ? v : null;
  } catch {
    return null;
  }
}

/**
 * The name of the lock: a Linux abstract Unix socket (no file; the kernel releases it when the
 * holder dies, `kill -9` included, so a stale lock cannot exist) named after the canonical
 * runtime directory.
 */
export function lockSocketName(dir: string): string {
  const digest = createHash('sha256').update(realpathSync(dir)).digest('hex').slice(0, 32);
  return `\0codewhale-runtime-${digest}`;
}

/**
 * Hold the one-server-per-home lock for `dir` (the runtime directory), or throw
 * {@link ServerLockedError} naming the holder. Nothing is written before the lock is held, so a
 * refused second server changes nothing.
 */
export class ServerLock {
  readonly dir: string;
  readonly #server: Server;
  #infoWritten = false;

  private constructor(dir: string, server: Server) {
    this.dir = dir;
    this.#server = server;
  }

  static async acquire(dir: string): Promise<ServerLock> {
    if (process.platform !== 'linux') {
      // Abstract sockets are Linux-only; elsewhere one server per home is the user's to keep.
      return new ServerLock(dir, createServer());
    }
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'EADDRINUSE' ? new ServerLockedError(dir, readServerInfo(dir)) : e));
      server.listen({ path: lockSocketName(dir) }, () => resolve());
    });
    // The lock must not keep the process alive on its own.
    server.unref();
    return new ServerLock(dir, server);
  }

  /** Write `server.json` (0600, atomically: a reader never sees half of it). */
  writeInfo(info: ServerInfo): void {
    const file = join(this.dir, SERVER_INFO_FILE);
    const tmp = `${file}.${process.pid}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(info, null, 2)}\n`);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    this.#infoWritten = true;
  }

  /** Remove `server.json` (when this server wrote it) and release the lock. Idempotent. */
  async release(): Promise<void> {
    if (this.#infoWritten) {
      this.#infoWritten = false;
      try {
        unlinkSync(join(this.dir, SERVER_INFO_FILE));
      } catch {
        // already gone
      }
    }
    if (this.#server.listening) await new Promise<void>((r) => this.#server.close(() => r()));
  }
}
