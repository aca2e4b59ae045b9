import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { formatTimestamp, LIMITS } from '@codewhale/hooks-payloads';

/**
 * An append-only JSON Lines file (`$CODEWHALE_HOME/audit.log`): one record per line, fsynced
 * per record, rotated to `<file>.1` (one generation kept) once it reaches 16 MiB. Writing is
 * best-effort: a failure is reported to `onError` and never breaks the caller.
 */
export class JsonlLog {
  readonly path: string;
  readonly #rotateBytes: number;
  readonly #onError: (error: unknown) => void;

  constructor(path: string, options: { rotateBytes?: number; onError?: (error: unknown) => void } = {}) {
    this.path = path;
    this.#rotateBytes = options.rotateBytes ?? LIMITS.auditLogRotateBytes;
    this.#onError = options.onError ?? (() => {});
  }

  append(record: Record<string, unknown>): boolean {
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      let size = 0;
      try {
        size = statSync(this.path).size;
      } catch {
        size = 0;
      }
      if (size >= this.#rotateBytes) renameSync(this.path, `${this.path}.1`);
      const fd = openSync(this.path, 'a', 0o600);
      try {
        writeSync(fd, JSON.stringify(record) + '\n');
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (e) {
      this.#onError(e);
      return false;
    }
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
