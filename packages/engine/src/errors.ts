/**
 * Error categories every layer agrees on: a surface maps an engine failure with one table
 * (exit codes in the CLI, HTTP statuses in the Runtime API), whatever raised it.
 */
export type ErrorCategory =
  | 'network'
  | 'authentication'
  | 'authorization'
  | 'rate_limit'
  | 'timeout'
  | 'budget'
  /** The user's configuration, a flag, a route or a replay script is wrong: the message says how to fix it. */
  | 'config'
  | 'invalid_input'
  | 'parse'
  | 'tool'
  | 'state'
  | 'cancelled'
  | 'internal';

/** One configuration problem: where it is and what to do about it. */
export interface ErrorIssue {
  readonly file: string | null;
  readonly line: number | null;
  readonly message: string;
  readonly fix?: string | null;
}

/**
 * The base of every engine failure (provider, route, replay script, tool, session): one
 * discriminant, `category`. Messages never contain a key or a secret value.
 */
export class EngineError extends Error {
  readonly category: ErrorCategory;
  /** Configuration problems behind a `config` error (file, line, fix), possibly several. */
  readonly issues: readonly ErrorIssue[];
  /** What to do next, when there is one obvious step. */
  readonly fix: string | null;
  constructor(category: ErrorCategory, message: string, options?: { cause?: unknown; issues?: readonly ErrorIssue[]; fix?: string | null }) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'EngineError';
    this.category = category;
    this.issues = options?.issues ?? [];
    this.fix = options?.fix ?? null;
  }
  static isInstance(e: unknown): e is EngineError {
    return e instanceof EngineError;
  }
}

/** The category of any thrown value. */
export function errorCategory(e: unknown): ErrorCategory {
  if (EngineError.isInstance(e)) return e.category;
  if (e instanceof Error && e.name === 'AbortError') return 'cancelled';
  return 'internal';
}

/** A one-line, bounded message for any thrown value. */
export function errorMessage(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 2_000 ? `${line.slice(0, 2_000)}…` : line || 'unknown error';
}

/**
 * How a failure is labelled for a person. The category is what exit codes, API statuses and
 * retries go by; the label says who failed. A model server that answered with an error status
 * of its own is a provider error, whatever its category: a 500 is `provider error (HTTP 500)`,
 * never "network" (the category stays `network`: retried, and `exec` still exits 75). A failure
 * with no status (the connection, DNS, a dropped stream) keeps its category's name.
 */
export function errorLabel(category: ErrorCategory, status: number | null | undefined = null): string {
  if (typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 999) {
    if (status >= 500 || category === 'network') return `provider error (HTTP ${status})`;
    return `${category.replace(/_/g, ' ')} (HTTP ${status})`;
  }
  return category === 'network' ? 'network error' : category.replace(/_/g, ' ');
}
