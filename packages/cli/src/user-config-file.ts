import { FileUpdateError, updateFileLocked, type FileUpdateResult } from '@codewhale/hooks-supervisor';
import { CliError } from './cli-error.js';
import { EXIT } from './exit-codes.js';

/**
 * Change the user's config.toml with no lost update: `edit` gets the file's text as it is
 * under an exclusive lock (`''` when there is none yet) and returns the new text; it is
 * written atomically (temporary file + rename) and the lock released. `edit` may throw a
 * {@link CliError}: nothing is written then. The bytes must be valid UTF-8 (a byte-order mark
 * is kept), because the edited text is written back and every other byte must survive (D10).
 * A config that is not a regular file is a configuration error (exit 3) naming it; a lock
 * held too long or a failed write is a failure (exit 1). In every failure the file is unchanged.
 */
export function editUserConfig(path: string, edit: (text: string) => string): FileUpdateResult {
  try {
    return updateFileLocked(path, (current) => edit(current.text));
  } catch (e) {
    if (!FileUpdateError.isInstance(e)) throw e;
    switch (e.code) {
      case 'not_regular':
        throw CliError.config(e.message, 'config.toml must be a regular file');
      case 'invalid_utf8':
        throw CliError.config(e.message, 'fix the file\u2019s encoding, then try again');
      case 'too_large':
      case 'unreadable':
        throw CliError.config(e.message);
      default:
        throw new CliError(e.message, { exitCode: EXIT.failure });
    }
  }
}
