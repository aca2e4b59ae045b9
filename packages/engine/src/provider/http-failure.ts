/**
 * How an HTTP failure from a model server becomes a classified {@link ProviderError}: one
 * table from status to category and retryability.
 */
import { type ErrorCategory, ProviderError } from './types.js';
import { boundLine, redactSecrets } from './safe-text.js';

/** A category and whether trying again later can help. */
export interface FailureClass {
  readonly category: ErrorCategory;
  readonly retryable: boolean;
}

/** Longest server-provided text quoted in an error message, in code points. */
export const MAX_ERROR_SNIPPET_CHARS = 300;

/**
 * The status table:
 *
 * | status | category | retryable | why |
 * | --- | --- | --- | --- |
 * | 401 | `authentication` | no | the key is missing, wrong or revoked |
 * | 403 | `authorization` | no | the key may not use this model or route |
 * | 402 | `budget` | no | out of balance or credit (DeepSeek "Insufficient Balance") |
 * | 408 | `timeout` | yes | the server gave up waiting |
 * | 409, 425 | `network` | yes | transient conflict / too early |
 * | 429 | `rate_limit` | yes | honour `Retry-After` |
 * | other 4xx (400, 404, 413, 422, …) | `invalid_input` | no | the request itself is wrong: a retry sends the same bytes |
 * | 5xx (500, 502, 503, 504, 529, …) | `network` | yes | the server or a gateway is failing or overloaded; transient from our side |
 * | anything else | `network` | yes | a proxy said something unexpected |
 */
export function classifyStatus(status: number): FailureClass {
  if (status === 401) return { category: 'authentication', retryable: false };
  if (status === 403) return { category: 'authorization', retryable: false };
  if (status === 402) return { category: 'budget', retryable: false };
  if (status === 408) return { category: 'timeout', retryable: true };
  if (status === 409 || status === 425) return { category: 'network', retryable: true };
  if (status === 429) return { category: 'rate_limit', retryable: true };
  if (status >= 400 && status < 500) return { category: 'invalid_input', retryable: false };
  return { category: 'network', retryable: true };
}

/** What the failed response said, for {@link httpFailure}. */
export interface HttpFailureInput {
  /** Route identity, the prefix of the message (`deepseek`). */
  readonly providerId: string;
  readonly status: number;
  readonly statusText?: string;
  /** The (bounded) response body. */
  readonly bodyText: string;
  readonly retryAfterSecs: number | null;
  /** Values that must never appear in the message (the API key). */
  readonly secrets: readonly (string | null | undefined)[];
  /** Where the key came from, named in authentication failures (`DEEPSEEK_API_KEY`). */
  readonly apiKeyEnv?: string | null;
  readonly hasApiKey?: boolean;
}

/**
 * The classified error for a non-2xx response. The message is
 * `<provider>: HTTP <status> <text>: <server message>` plus a hint for authentication failures;
 * the server message is `error.message` of a JSON body (or a short plain-text body), redacted
 * and bounded to {@link MAX_ERROR_SNIPPET_CHARS}.
 */
export function httpFailure(input: HttpFailureInput): ProviderError {
  const cls = classifyStatus(input.status);
  const head = `${input.providerId}: HTTP ${input.status}${input.statusText ? ` ${boundLine(input.statusText, 60)}` : ''}`;
  const snippet = errorBodySnippet(input.bodyText, input.secrets);
  let message = snippet === '' ? head : `${head}: ${snippet}`;
  if (input.status === 401) {
    if (input.hasApiKey === false) message += ' (no API key was sent)';
    else if (input.apiKeyEnv) message += ` (check the key in ${input.apiKeyEnv})`;
  }
  if (cls.category === 'rate_limit' && input.retryAfterSecs !== null) message += ` (retry after ${input.retryAfterSecs} s)`;
  return new ProviderError(message, {
    category: cls.category,
    retryable: cls.retryable,
    status: input.status,
    retryAfterSecs: input.retryAfterSecs,
  });
}

/**
 * The human part of an error body: `error.message` (or `message`, or a string `error`) of a
 * JSON body; a plain-text body that is not HTML; otherwise the empty string. Redacted, one line,
 * bounded.
 */
export function errorBodySnippet(bodyText: string, secrets: readonly (string | null | undefined)[]): string {
  const text = bodyText.trim();
  if (text === '') return '';
  let picked: string | null = null;
  try {
    picked = messageOf(JSON.parse(text) as unknown);
  } catch {
    picked = text.startsWith('<') ? null : text;
  }
  if (picked === null) return '';
  return boundLine(redactSecrets(picked, secrets), MAX_ERROR_SNIPPET_CHARS);
}

/**
 * The error object some servers send inside a 200 stream (`data: {"error": {...}}`), classified
 * by its `code`/`type`/`status`: rate limits → `rate_limit`, context or parameter problems →
 * `invalid_input`, auth → `authentication`, otherwise a retryable `network` failure.
 */
export function streamErrorFailure(providerId: string, error: unknown, secrets: readonly (string | null | undefined)[]): ProviderError {
  const e = error !== null && typeof error === 'object' ? (error as Record<string, unknown>) : {};
  const label = [e['code'], e['type'], e['status']]
    .filter((v) => typeof v === 'string' || typeof v === 'number')
    .join(' ')
    .toLowerCase();
  const status = typeof e['status'] === 'number' ? e['status'] : typeof e['code'] === 'number' ? e['code'] : null;
  let cls: FailureClass;
  if (status !== null && status >= 400) cls = classifyStatus(status);
  else if (/rate|limit|quota|overload|capacity/.test(label)) cls = { category: 'rate_limit', retryable: true };
  else if (/auth|key|permission/.test(label)) cls = { category: 'authentication', retryable: false };
  else if (/context|length|invalid|param|schema/.test(label)) cls = { category: 'invalid_input', retryable: false };
  else cls = { category: 'network', retryable: true };
  const text = messageOf({ error }) ?? '';
  const snippet = boundLine(redactSecrets(text, secrets), MAX_ERROR_SNIPPET_CHARS);
  return new ProviderError(`${providerId}: the server reported an error mid-stream${snippet ? `: ${snippet}` : ''}`, {
    category: cls.category,
    retryable: cls.retryable,
    status,
  });
}

function messageOf(json: unknown): string | null {
  if (json === null || typeof json !== 'object') return null;
  const o = json as Record<string, unknown>;
  const err = o['error'];
  if (typeof err === 'string') return err;
  if (err !== null && typeof err === 'object') {
    const m = (err as Record<string, unknown>)['message'];
    if (typeof m === 'string') return m;
  }
  if (typeof o['message'] === 'string') return o['message'];
  if (typeof o['detail'] === 'string') return o['detail'];
  return null;
}
