/** The outcome of judging user input: a value, or every issue found. */
export type Result<T, I> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly I[] };

/** Why a whole file could not be used. Never carries the file's content. */
export type FileIssueCode = 'toml_syntax' | 'file_too_large' | 'invalid_utf8' | 'not_regular_file' | 'unreadable';

/**
 * A whole-file failure: a TOML syntax error (with line and column), or a project file that
 * is over 1 MiB or not UTF-8. `message` is one line and never quotes the file's content.
 */
export interface FileIssue {
  readonly code: FileIssueCode;
  /** The file, as the caller named it. */
  readonly file: string;
  /** 1-based, when known. */
  readonly line: number | null;
  /** 1-based, when known. */
  readonly column: number | null;
  /** One line, e.g. `invalid value`. */
  readonly message: string;
  /** `{file}:{line}:{column}: TOML syntax error: {message}` (or `{file}: {message}`), for the CLI. */
  readonly summary: string;
}

export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });
export const fail = <I>(...issues: I[]): { readonly ok: false; readonly issues: readonly I[] } => ({ ok: false, issues });
