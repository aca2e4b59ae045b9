/** Why a setting was not accepted. */
export type SettingsIssueCode =
  /** A value of the wrong TOML type (a string where a number belongs, …). */
  | 'invalid_type'
  /** The right type, but out of range or not one of the accepted values. */
  | 'invalid_value'
  /** A key this part does not know, in a table it owns, or a near miss of one of its root keys. */
  | 'unknown_key';

/**
 * One problem with `config.toml`'s settings. Shaped like `@codewhale/hooks-config`'s
 * `FileIssue` (file, line, column, message, summary) so a surface renders both the same way.
 * Never quotes a string value from the file (it may be a key); numbers and booleans are shown.
 */
export interface SettingsIssue {
  readonly code: SettingsIssueCode;
  readonly file: string;
  /** 1-based line of the key (or of its table's header), when known. */
  readonly line: number | null;
  readonly column: null;
  /** Dotted path of the setting: `retry.max_retries`, `providers.openai.model`. */
  readonly path: string;
  /** What is wrong, one line: ``unknown key `max_retires` in `[retry]`; did you mean `max_retries`?`` */
  readonly message: string;
  /** What to do, one line: ``rename it to `max_retries`, or remove it``. */
  readonly fix: string;
  /** `{file}:{line}: {message} — {fix}`, for the CLI. */
  readonly summary: string;
}
