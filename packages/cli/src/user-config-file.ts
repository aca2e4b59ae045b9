import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { path, text: '', exists: false };
    throw CliError.config(`cannot read ${path}: ${code ?? (e as Error).message}`);
  }
  try {
    return { path, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), exists: true };
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
