import type { ErrorCategory } from '@codewhale/engine';

/** The closed set of error codes a client can receive. */
export type ApiErrorCode =
  | 'invalid_json'
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unprocessable'
  | 'too_many_requests'
  | 'unavailable'
  | 'upstream'
  | 'server_config'
  | 'internal';

/** The one table from error code to HTTP status. */
export const STATUS_OF: Record<ApiErrorCode, number> = {
  invalid_json: 400,
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unprocessable: 422,
  too_many_requests: 429,
  internal: 500,
  upstream: 502,
  server_config: 500,
  unavailable: 503,
};

/**
 * The one table from an engine error category to the API's error code. The model route's
 * failures (network, credentials, its rate limit) are the upstream's, not the client's: 502.
 */
export const CODE_OF_CATEGORY: Record<ErrorCategory, ApiErrorCode> = {
  invalid_input: 'invalid_request',
  parse: 'invalid_request',
  state: 'conflict',
  cancelled: 'conflict',
  network: 'upstream',
  authentication: 'upstream',
  authorization: 'upstream',
  rate_limit: 'upstream',
  timeout: 'upstream',
  budget: 'upstream',
  tool: 'internal',
  // The operator's config.toml cannot be used: the client cannot fix it, but must be told.
  config: 'server_config',
  internal: 'internal',
};

/** One validation problem, as zod reports it. */
export interface ApiIssue {
  readonly path: string;
  readonly code: string;
  readonly message: string;
}

/** An error answered as `{error: {code, message, issues?}}` with the status from {@link STATUS_OF}. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly issues: readonly ApiIssue[];
  readonly headers: Readonly<Record<string, string>>;
  /** For a cursor ahead of the event log: the newest seq there is. */
  readonly headSeq: number | null;
  constructor(code: ApiErrorCode, message: string, options: { issues?: readonly ApiIssue[]; headers?: Record<string, string>; headSeq?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.issues = options.issues ?? [];
    this.headers = options.headers ?? {};
    this.headSeq = options.headSeq ?? null;
  }
  get status(): number {
    return STATUS_OF[this.code];
  }
  static isInstance(e: unknown): e is ApiError {
    return e instanceof ApiError;
  }
  toJSON(): Record<string, unknown> {
    return {
      error: { code: this.code, message: this.message, ...(this.issues.length > 0 ? { issues: this.issues } : {}), ...(this.headSeq !== null ? { head_seq: this.headSeq } : {}) },
    };
  }
}
