import { EngineError, type ErrorCategory } from '@codewhale/engine';
import { EXIT, type ExitCode } from './exit-codes.js';

/**
 * A failure the user can act on: printed as one `error: …` line (plus an optional `hint: …`),
 * never a stack trace, and mapped to an exit code from one table.
 */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | null;

  constructor(message: string, options: { exitCode?: ExitCode; hint?: string | null; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? EXIT.failure;
    this.hint = options.hint ?? null;
  }

  static usage(message: string, hint?: string): CliError {
    return new CliError(message, { exitCode: EXIT.usage, hint: hint ?? null });
  }

  static config(message: string, hint?: string): CliError {
    return new CliError(message, { exitCode: EXIT.config, hint: hint ?? null });
  }

  static isInstance(e: unknown): e is CliError {
    return e instanceof CliError;
  }
}

/** Engine error categories → exit codes: configuration problems exit 3, everything else 1. */
const ENGINE_EXIT: Partial<Record<ErrorCategory, ExitCode>> = {
  config: EXIT.config,
  invalid_input: EXIT.usage,
  network: EXIT.tempfail,
  timeout: EXIT.tempfail,
};

/** Any failure from opening or running a session, as a `CliError` (user errors never print a stack). */
export function fromEngineError(e: unknown): unknown {
  if (CliError.isInstance(e) || !EngineError.isInstance(e)) return e;
  return new CliError(e.message, { exitCode: ENGINE_EXIT[e.category] ?? EXIT.failure, hint: e.fix, cause: e });
}
