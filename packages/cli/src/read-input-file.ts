import { readRegularFile } from '@codewhale/hooks-supervisor';
import { CliError } from './cli-error.js';

/** The cap on a file named on the command line (`--replay`, `@input.json`, `hooks validate FILE`). */
export const INPUT_FILE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The bytes of a file the user named, which must be a regular file within `maxBytes`: a FIFO,
 * socket, device or directory is refused at once (never waited on), with a configuration
 * error (exit 3) that names the file and what it is. `what` says which file it is
 * (`the recording`, `--input file`). `null` when it does not exist and `allowMissing` is set.
 */
export function readInputFile(path: string, what: string, options: { maxBytes?: number; allowMissing: true }): Uint8Array | null;
export function readInputFile(path: string, what: string, options?: { maxBytes?: number; allowMissing?: false }): Uint8Array;
export function readInputFile(path: string, what: string, options: { maxBytes?: number; allowMissing?: boolean } = {}): Uint8Array | null {
  const read = readRegularFile(path, options.maxBytes ?? INPUT_FILE_MAX_BYTES);
  if (read.ok) return read.bytes;
  if (read.problem === 'missing') {
    if (options.allowMissing) return null;
    throw CliError.config(`cannot read ${what} ${path}: ENOENT`, 'check the path');
  }
  throw CliError.config(`cannot read ${what}: ${read.message}`, read.problem === 'not_regular' ? 'name a regular file' : undefined);
}

/** {@link readInputFile} decoded as UTF-8 (invalid bytes replaced, a byte-order mark kept). */
export function readInputText(path: string, what: string, maxBytes?: number): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(readInputFile(path, what, maxBytes === undefined ? {} : { maxBytes }));
}
