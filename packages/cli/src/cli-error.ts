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
