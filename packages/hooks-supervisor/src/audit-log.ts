import { mkdir, open, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { formatTimestamp, LIMITS } from '@codewhale/hooks-payloads';

/**
 * An append-only JSON Lines file (`$CODEWHALE_HOME/audit.log`): one record per line, fsynced
 * per record, rotated to `<file>.1` (one generation kept) once it reaches 16 MiB. Writing is
 * best-effort: a failure is reported to `onError` and never breaks the caller.
 *
 * `write` does the work on libuv's thread pool, so the caller's event loop never waits on the
 * disk (an fsync is ~0.4 ms here and can take many milliseconds on a busy disk), and resolves
 * once the record is on disk; records are written in the order `write` was called. The
 * session's hooks await it: a tool call still waits for its decision record to be durable, but
 * the UI keeps drawing meanwhile.
 */
export class JsonlLog {
  readonly path: string;
  readonly #rotateBytes: number;
  readonly #onError: (error: unknown) => void;
  // The chain of queued writes: each starts when the one before it has finished.
  #tail: Promise<unknown> = Promise.resolve();

  constructor(path: string, options: { rotateBytes?: number; onError?: (error: unknown) => void } = {}) {
    this.path = path;
    this.#rotateBytes = options.rotateBytes ?? LIMITS.auditLogRotateBytes;
    this.#onError = options.onError ?? (() => {});
  }

  /** Append one record off the event loop; resolves (never rejects) once it is on disk, or `false`. */
  write(record: Record<string, unknown>): Promise<boolean> {
    // Serialized now, so a record changed by the caller after this call is logged as it was.
    const line = `${JSON.stringify(record)}\n`;
    const done = this.#tail.then(() => this.#writeLine(line));
    this.#tail = done;
    return done;
  }

  async #writeLine(line: string): Promise<boolean> {
    try {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      let size = 0;
      try {
        size = (await stat(this.path)).size;
      } catch {
        size = 0;
      }
      if (size >= this.#rotateBytes) await rename(this.path, `${this.path}.1`);
      const file = await open(this.path, 'a', 0o600);
      try {
        await file.write(line);
        await file.sync();
      } finally {
        await file.close();
      }
      return true;
    } catch (e) {
      this.#onError(e);
      return false;
    }
  }

  /** Resolves once every record passed to `write` so far has been written (or has failed). */
  flushed(): Promise<void> {
    return this.#tail.then(() => undefined);
  }
}

/**
 * The `shell_env` audit record: key names only, never values, keys in a stable (sorted) order.
 * `{"ts":…,"event":"shell_env_hook","details":{"hook":…,"tool":…,"keys":[…]}}`
 */
export function shellEnvAuditRecord(hookLabel: string, tool: string | null, keys: Iterable<string>, now: Date = new Date()): Record<string, unknown> {
  return {
    ts: formatTimestamp(now),
    event: 'shell_env_hook',
    details: { hook: hookLabel, tool, keys: [...keys].sort() },
  };
}
