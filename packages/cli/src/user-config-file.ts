import { chmodSync, existsSync, mkdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { USER_CONFIG_MAX_BYTES, readRegularFile } from '@codewhale/hooks-supervisor';
import { CliError } from './cli-error.js';
import { EXIT } from './exit-codes.js';

/** The user's config.toml as text, for an edit (`exists: false` when there is none yet). */
export interface ConfigFileText {
  readonly path: string;
  readonly text: string;
  readonly exists: boolean;
}

/**
 * Read the user's config.toml for an edit. The bytes must be valid UTF-8 (a byte-order mark
 * is kept), because the edited text is written back and every other byte must survive (D10).
 */
export function readConfigForEdit(path: string): ConfigFileText {
  return { path, ...decodeConfigForEdit(path, readConfigBytes(path)) };
}

/** The config's bytes, `null` when it does not exist; a configuration error naming it when it is not a regular file. */
function readConfigBytes(path: string): Uint8Array | null {
  const read = readRegularFile(path, USER_CONFIG_MAX_BYTES);
  if (read.ok) return read.bytes;
  if (read.problem === 'missing') return null;
  throw CliError.config(`${read.message}; it was not changed`, read.problem === 'not_regular' ? 'config.toml must be a regular file' : undefined);
}

/**
 * Decode config bytes for an edit (`null`: no file yet). The bytes must be valid UTF-8 (a
 * byte-order mark is kept), because the edited text is written back and every other byte
 * must survive (D10).
 */
export function decodeConfigForEdit(path: string, bytes: Uint8Array | null): { text: string; exists: boolean } {
  if (bytes === null) return { text: '', exists: false };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), exists: true };
  } catch {
    throw CliError.config(`${path} is not valid UTF-8; it was not changed`, 'fix the file\u2019s encoding, then try again');
  }
}

/**
 * Write the edited config.toml: to a temporary file beside the real file (a symlinked config
 * is followed, not replaced), with the original permissions, then renamed over it, so a crash
 * never leaves half a file. Creates `$CODEWHALE_HOME` (0700) and the file (0600) when missing.
 */
export function writeConfigFile(path: string, text: string): void {
  let target = path;
  let mode = 0o600;
  try {
    if (existsSync(path)) {
      target = realpathSync(path);
      mode = statSync(target).mode & 0o7777;
    } else {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    }
    const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
    try {
      writeFileSync(tmp, text, { mode });
      chmodSync(tmp, mode);
      renameSync(tmp, target);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
  } catch (e) {
    throw new CliError(`cannot write ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; it was not changed`, { exitCode: EXIT.failure });
  }
}
