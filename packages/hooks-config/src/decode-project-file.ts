import { LIMITS } from '@codewhale/hooks-payloads';
import { fail, ok, type FileIssue, type Result } from './result.js';

/** The read error for a project hooks file over {@link LIMITS.projectHooksFileMaxBytes}. */
export const PROJECT_FILE_TOO_LARGE = 'project hooks file exceeds the 1 MiB limit';
/** The read error for a project hooks file that is not valid UTF-8. */
export const PROJECT_FILE_NOT_UTF8 = 'project hooks file is not valid UTF-8';

/**
 * Decode the exact bytes of a project `hooks.toml` (the same buffer that is hashed for
 * approval, so there is no gap between what was approved and what is parsed). Over 1 MiB, or
 * invalid UTF-8, is a read error. A leading BOM is dropped from the text (it stays in the digest).
 */
export function decodeProjectFile(bytes: Uint8Array, file: string): Result<string, FileIssue> {
  if (bytes.length > LIMITS.projectHooksFileMaxBytes) {
    return fail({ code: 'file_too_large', file, line: null, column: null, message: PROJECT_FILE_TOO_LARGE, summary: `${file}: ${PROJECT_FILE_TOO_LARGE}` });
  }
  try {
    return ok(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return fail({ code: 'invalid_utf8', file, line: null, column: null, message: PROJECT_FILE_NOT_UTF8, summary: `${file}: ${PROJECT_FILE_NOT_UTF8}` });
  }
}
