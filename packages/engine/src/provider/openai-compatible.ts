/**
 * The OpenAI-compatible Chat Completions provider: DeepSeek, OpenAI, Ollama, vLLM and any
 * server that speaks the same streaming wire. Real HTTP (`node:http`, see node-fetch.ts) and SSE.
 */
import { nodeFetch } from './node-fetch.js';
import { ChatChunkReader } from './chat-chunk-reader.js';
import { buildChatRequestBody } from './chat-request.js';
import { httpFailure, streamErrorFailure } from './http-failure.js';
import { parseRetryAfter } from './retry-after.js';
import { boundLine, redactSecrets } from './safe-text.js';
import { SseDecoder } from './sse-decoder.js';
import { type ModelProvider, type ModelRequest, type ModelStreamEvent, ProviderError } from './types.js';

/** Default stream idle timeout: 900 s without a byte from the server. */
export const DEFAULT_IDLE_TIMEOUT_MS = 900_000;
/** Default time allowed until the response headers arrive: 45 s. */
export const DEFAULT_OPEN_TIMEOUT_MS = 45_000;
/** Most bytes of an error response body read for the message. */
const MAX_ERROR_BODY_BYTES = 16 * 1024;

/** Options of {@link OpenAICompatibleProvider}. */
export interface OpenAICompatibleProviderOptions {
  /** Route identity for records and messages (`deepseek`, `openai`, a `[providers.<id>]` id). Default `openai-compatible`. */
  readonly id?: string;
  /** Base URL; requests go to `{baseUrl}/chat/completions`. Trailing slashes are ignored. */
  readonly baseUrl: string;
  /** Model id; {@link ModelRequest.model} overrides it per request when non-empty. */
  readonly model: string;
  /** Sent as `Authorization: Bearer <key>` when non-empty; never appears in messages. */
  readonly apiKey?: string | null;
  /** The variable the key came from, named in authentication failures. */
  readonly apiKeyEnv?: string | null;
  /** No byte from the server for this long while streaming → retryable `timeout`. Default 900 s. */
  readonly idleTimeoutMs?: number;
  /** No response headers within this long → retryable `timeout`. Default 45 s. */
  readonly openTimeoutMs?: number;
  /**
   * Replay `reasoning_content` (DeepSeek thinking mode; a `""` placeholder on tool-call
   * messages that have none). `auto` (default): on for DeepSeek routes (id, host or model
   * says `deepseek`), off otherwise.
   */
  readonly replayReasoning?: 'auto' | boolean;
  /** `auto` (default): `max_completion_tokens` for `api.openai.com`, else `max_tokens`. */
  readonly maxTokensField?: 'auto' | 'max_tokens' | 'max_completion_tokens';
  /** Extra request headers (e.g. `HTTP-Referer`). Cannot replace `authorization`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Extra top-level body fields. */
  readonly extraBody?: Readonly<Record<string, unknown>>;
  /** The fetch to use (tests); default `nodeFetch` (`node:http` with keep-alive). */
  readonly fetch?: typeof fetch;
}

type AbortCause = 'user' | 'idle' | 'open' | 'done';

/**
 * One streaming POST `{baseUrl}/chat/completions` per {@link OpenAICompatibleProvider.stream}
 * call (no retries here: see `streamWithRetry`). Events, in order: `reasoning`/`text` deltas as
 * they arrive, complete `tool_call`s when `finish_reason` arrives (or at the end), at most one
 * `usage` (only when the server reported one), then exactly one `finish`.
 *
 * Failures are {@link ProviderError}s:
 * - non-2xx → see `classifyStatus` (401 `authentication`, 403 `authorization`, 402 `budget`,
 *   429 `rate_limit` with `retryAfterSecs`, other 4xx `invalid_input`, 5xx retryable `network`);
 * - connection refused/reset, a stream that ends before `[DONE]` or a `finish_reason`, or
 *   drops mid-way → retryable `network`;
 * - no headers within `openTimeoutMs`, or no bytes for `idleTimeoutMs` → retryable `timeout`;
 * - a chunk that is not JSON → retryable `parse`; an `error` object inside the stream →
 *   classified by its code;
 * - the caller's `signal` aborts → `cancelled` (not retryable).
 * Messages name the provider and HTTP status, quote at most 300 characters of the server's
 * `error.message`, and never contain the API key.
 */
export class OpenAICompatibleProvider implements ModelProvider {
  readonly id: string;
  readonly model: string;
  readonly baseUrl: string;
  readonly #apiKey: string | null;
  readonly #apiKeyEnv: string | null;
  readonly #idleTimeoutMs: number;
  readonly #openTimeoutMs: number;
  readonly #replayReasoning: boolean;
  readonly #maxTokensField: 'max_tokens' | 'max_completion_tokens';
  readonly #headers: Readonly<Record<string, string>>;
  readonly #extraBody: Readonly<Record<string, unknown>> | undefined;
  readonly #fetch: typeof fetch;

  constructor(options: OpenAICompatibleProviderOptions) {
    this.id = options.id ?? 'openai-compatible';
    this.model = options.model;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey !== undefined && options.apiKey !== null && options.apiKey !== '' ? options.apiKey : null;
    this.#apiKeyEnv = options.apiKeyEnv ?? null;
    this.#idleTimeoutMs = positive(options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS);
    this.#openTimeoutMs = positive(options.openTimeoutMs, DEFAULT_OPEN_TIMEOUT_MS);
    const host = hostOf(this.baseUrl);
    this.#replayReasoning =
      options.replayReasoning === undefined || options.replayReasoning === 'auto' ? [this.id, host, this.model].some((s) => s.toLowerCase().includes('deepseek')) : options.replayReasoning;
    this.#maxTokensField = options.maxTokensField === undefined || options.maxTokensField === 'auto' ? (host === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens') : options.maxTokensField;
    this.#headers = options.headers ?? {};
    this.#extraBody = options.extraBody;
    this.#fetch = options.fetch ?? (nodeFetch as typeof fetch);
  }

  /** Whether requests carry an `Authorization` header. */
  get hasApiKey(): boolean {
    return this.#apiKey !== null;
  }

  /** `openai-compatible deepseek (deepseek-v4-pro @ https://api.deepseek.com)`, never the key. */
  toString(): string {
    return `openai-compatible ${this.id} (${this.model} @ ${this.baseUrl})`;
  }

  toJSON(): Record<string, unknown> {
    return { id: this.id, model: this.model, baseUrl: this.baseUrl, hasApiKey: this.hasApiKey };
  }

  stream(request: ModelRequest, options: { readonly signal?: AbortSignal } = {}): AsyncIterable<ModelStreamEvent> {
    return this.#run(request, options.signal);
  }

  async *#run(request: ModelRequest, signal: AbortSignal | undefined): AsyncGenerator<ModelStreamEvent> {
    if (signal?.aborted) throw this.#cancelled(signal.reason);
    const controller = new AbortController();
    let cause: AbortCause | null = null;
    const abort = (why: AbortCause): void => {
      cause ??= why;
      controller.abort();
    };
    const onUserAbort = (): void => abort('user');
    signal?.addEventListener('abort', onUserAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (why: 'idle' | 'open', ms: number): void => {
      clearTimeout(timer);
      timer = setTimeout(() => abort(why), ms);
    };
    const disarm = (): void => clearTimeout(timer);
    const fail = (error: unknown, phase: 'connect' | 'stream'): ProviderError => this.#transportError(error, cause, phase, signal);

    let finished = false;
    try {
      const body = buildChatRequestBody(
        { ...request, model: request.model !== '' ? request.model : this.model },
        { replayReasoning: this.#replayReasoning, maxTokensField: this.#maxTokensField, ...(this.#extraBody ? { extraBody: this.#extraBody } : {}) },
      );
      let response: Response;
      arm('open', this.#openTimeoutMs);
      try {
        response = await this.#fetch(`${this.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: this.#requestHeaders(),
          body: JSON.stringify(body),
          signal: controller.signal,
        });
      } catch (error) {
        throw fail(error, 'connect');
      } finally {
        disarm();
      }

      if (!response.ok) {
        let bodyText = '';
        arm('idle', this.#idleTimeoutMs);
        try {
          bodyText = await readBounded(response, MAX_ERROR_BODY_BYTES);
        } catch (error) {
          if (cause === 'user') throw fail(error, 'stream');
          // The status alone classifies the failure; an unreadable body only loses the snippet.
        } finally {
          disarm();
        }
        throw httpFailure({
          providerId: this.id,
          status: response.status,
          statusText: response.statusText,
          bodyText,
          retryAfterSecs: parseRetryAfter(response.headers),
          secrets: [this.#apiKey],
          apiKeyEnv: this.#apiKeyEnv,
          hasApiKey: this.#apiKey !== null,
        });
      }

      const reader = new ChatChunkReader();
      const contentType = response.headers.get('content-type') ?? '';
      if (contentType.includes('application/json')) {
        // The server ignored `stream: true` and sent one completion: same events, at once.
        arm('idle', this.#idleTimeoutMs);
        let text: string;
        try {
          text = await response.text();
        } catch (error) {
          throw fail(error, 'stream');
        } finally {
          disarm();
        }
        const json = this.#parseJson(text);
        this.#throwIfErrorPayload(json);
        for (const event of reader.accept(json)) yield event;
        finished = true;
        yield* reader.complete();
        return;
      }
      if (response.body === null) throw this.#network('the server sent an empty response');

      const stream = response.body.getReader();
      const sse = new SseDecoder();
      let sawDone = false;
      // One timer for the whole stream, not one per chunk: a stream is thousands of reads.
      const idle = new ReadWatch(this.#idleTimeoutMs, () => abort('idle'));
      try {
        while (!sawDone) {
          let chunk: Awaited<ReturnType<typeof stream.read>>;
          idle.reading();
          try {
            chunk = await stream.read();
          } catch (error) {
            throw fail(error, 'stream');
          } finally {
            idle.done();
          }
          if (signal?.aborted) throw this.#cancelled(signal.reason);
          const events = chunk.done ? sse.end() : sse.push(chunk.value);
          const batch: ModelStreamEvent[] = [];
          let failure: unknown = null;
          for (const event of events) {
            const data = event.data.trim();
            if (data === '[DONE]') {
              sawDone = true;
              break;
            }
            if (data === '') continue;
            try {
              const json = this.#parseJson(data);
              this.#throwIfErrorPayload(json);
              for (const out of reader.accept(json)) pushJoined(batch, out);
            } catch (error) {
              failure = error;
              break;
            }
          }
          // What came before a bad event is streamed before its failure.
          yield* batch;
          if (failure !== null) throw failure;
          if (chunk.done) break;
        }
      } finally {
        idle.stop();
        // After `[DONE]` nothing more is wanted; otherwise this frees the connection.
        stream.cancel().catch(() => undefined);
      }
      if (!sawDone && !reader.sawFinishReason) {
        throw this.#network('the stream ended before the model finished (no [DONE] and no finish_reason)');
      }
      finished = true;
      yield* reader.complete();
    } finally {
      disarm();
      signal?.removeEventListener('abort', onUserAbort);
      // Frees the connection when the consumer stopped early or we failed mid-stream.
      if (!finished) abort('done');
    }
  }

  #requestHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.#headers)) {
      if (k.toLowerCase() !== 'authorization') headers[k] = v;
    }
    headers['content-type'] = 'application/json';
    headers['accept'] = 'text/event-stream';
    if (this.#apiKey !== null) headers['authorization'] = `Bearer ${this.#apiKey}`;
    return headers;
  }

  #parseJson(text: string): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ProviderError(`${this.id}: the server sent a chunk that is not JSON: ${this.#safe(text, 120)}`, {
        category: 'parse',
        retryable: true,
      });
    }
  }

  #throwIfErrorPayload(json: unknown): void {
    if (json !== null && typeof json === 'object' && 'error' in json) {
      const error = (json as { error: unknown }).error;
      if (error !== null && error !== undefined) throw streamErrorFailure(this.id, error, [this.#apiKey]);
    }
  }

  #transportError(error: unknown, cause: AbortCause | null, phase: 'connect' | 'stream', signal: AbortSignal | undefined): ProviderError {
    if (cause === 'user' || signal?.aborted) return this.#cancelled(signal?.reason ?? error);
    if (cause === 'idle') {
      return new ProviderError(`${this.id}: no data from the server for ${seconds(this.#idleTimeoutMs)} (stream idle timeout)`, {
        category: 'timeout',
        retryable: true,
        cause: error,
      });
    }
    if (cause === 'open') {
      return new ProviderError(`${this.id}: no response from ${this.#where()} within ${seconds(this.#openTimeoutMs)}`, {
        category: 'timeout',
        retryable: true,
        cause: error,
      });
    }
    const detail = describeNetworkError(error);
    const message =
      phase === 'connect' ? `${this.id}: could not reach ${this.#where()}${detail ? ` (${detail})` : ''}` : `${this.id}: the connection dropped mid-stream${detail ? ` (${detail})` : ''}`;
    return new ProviderError(this.#safe(message, 400), { category: 'network', retryable: true, cause: error });
  }

  #network(message: string): ProviderError {
    return new ProviderError(`${this.id}: ${message}`, { category: 'network', retryable: true });
  }

  #cancelled(reason: unknown): ProviderError {
    return new ProviderError(`${this.id}: the model request was cancelled`, { category: 'cancelled', retryable: false, cause: reason });
  }

  #where(): string {
    return hostOf(this.baseUrl) || 'the server';
  }

  #safe(text: string, maxChars: number): string {
    return boundLine(redactSecrets(text, [this.#apiKey]), maxChars);
  }
}

/**
 * Append `event`, joined to the previous one when both are text (or both reasoning) deltas:
 * what one read brought is streamed as one delta of each kind in a row, not one per server
 * event, and the text is the same.
 */
export function pushJoined(batch: ModelStreamEvent[], event: ModelStreamEvent): void {
  const prev = batch.at(-1);
  if (prev && (prev.type === 'text' || prev.type === 'reasoning') && prev.type === event.type) batch[batch.length - 1] = { type: prev.type, delta: prev.delta + event.delta };
  else batch.push(event);
}

/**
 * The stream idle timeout: `onIdle` once a single read has waited `ms`. One timer serves every
 * read: when it fires during a read that started later, it sleeps again for what is left of
 * that read's time; when it fires between reads, the next read arms it anew.
 */
export class ReadWatch {
  #since: number | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {}

  /** A read starts. */
  reading(): void {
    this.#since = performance.now();
    if (this.#timer === null) this.#arm(this.ms);
  }

  /** The read is over (it returned or failed). */
  done(): void {
    this.#since = null;
  }

  stop(): void {
    this.#since = null;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#since === null) return;
      const waited = performance.now() - this.#since;
      if (waited >= this.ms) this.onIdle();
      else this.#arm(this.ms - waited);
    }, ms);
  }
}

/** The body as text, at most `maxBytes` (the rest is discarded unread). */
async function readBounded(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      total += value.byteLength;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(Math.min(total, maxBytes));
  let offset = 0;
  for (const p of parts) {
    const take = Math.min(p.byteLength, bytes.byteLength - offset);
    bytes.set(p.subarray(0, take), offset);
    offset += take;
    if (offset >= bytes.byteLength) break;
  }
  return new TextDecoder().decode(bytes);
}

/** `ECONNREFUSED`, `other side closed`, … from undici's error chain. */
function describeNetworkError(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e !== null && typeof e === 'object'; depth++) {
    const rec = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof rec.code === 'string' && !parts.includes(rec.code)) parts.push(rec.code);
    if (typeof rec.message === 'string' && rec.message !== '' && rec.message !== 'fetch failed' && !parts.includes(rec.message)) {
      parts.push(rec.message);
    }
    e = rec.cause;
  }
  return parts.join(': ');
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

function seconds(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
