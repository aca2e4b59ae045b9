/**
 * The `codewhale` exit codes, one table for every command (documented in `--help` and the
 * README).
 */
export const EXIT = {
  /** Success: the run completed, the check passed. */
  ok: 0,
  /** The run failed, or a check found a problem (a rejected hook, a digest that does not match, a failed expectation). */
  failure: 1,
  /** Usage error: unknown command or option, a missing or invalid argument. */
  usage: 2,
  /** Configuration error: the config file (or a file you named) cannot be read or parsed. */
  config: 3,
  /** `serve`: the SQLite module (better-sqlite3, an optional dependency) is not installed or cannot load (EX_UNAVAILABLE). */
  unavailable: 69,
  /** `exec`: a network or timeout failure that persisted after retries (EX_TEMPFAIL). */
  tempfail: 75,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `Exit codes:
  0   success
  1   the run failed, or a check found a problem (rejected hook, digest mismatch, failed --expect)
  2   usage error (unknown command or option, bad argument)
  3   configuration error (a config or hooks file cannot be read or parsed)
  69  serve: the SQLite module better-sqlite3 is not installed or cannot load
  75  exec: network or timeout failure after retries
  129, 130, 143  ended by SIGHUP, SIGINT, SIGTERM (128 + the signal's number)`;
