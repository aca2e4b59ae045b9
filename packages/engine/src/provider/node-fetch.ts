import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';

/**
 * The provider's HTTP transport: the subset of `fetch` it uses (POST or GET, string body,
 * headers, an `AbortSignal`), over `node:http` / `node:https` with keep-alive agents. It
 * returns a real `Response` whose body is a byte stream of the server's reply.
 *
 * Why not the global `fetch`: measured in the same process against the fake server
 * (`pnpm bench hooks-e2e`), undici's fetch costs about 0.7 ms more per model request than
 * `node:http`, on the path between a tool result and the next request; and the first use of
 * the global `fetch`, `Response` or `Headers` loads undici, ~35 ms of start-up.
 *
 * Semantics the provider relies on:
 * - a refused or reset connection rejects with `TypeError('fetch failed')` whose `cause` is
 *   the socket error (its `code`, e.g. `ECONNREFUSED`), as `fetch` does;
 * - a request that fails on a reused keep-alive socket before any byte of the reply (the
 *   server closed the idle connection as we wrote) is sent once more on a new connection;
 * - aborting the signal rejects the pending request, or errors the body stream, with an
 *   `AbortError`;
 * - cancelling the body after the part the caller wanted (`[DONE]`) lets the rest of the reply
 *   drain in the background, so the connection goes back to the pool (a reply that does not
 *   end within {@link DRAIN_AFTER_CANCEL_MS} is cut);
 * - redirects are not followed (a 3xx is returned as it is); no compression is asked for.
 */
export const DRAIN_AFTER_CANCEL_MS = 2_000;

/**
 * The body stream hands on what has arrived at most once per this many milliseconds (one
 * frame at 60 Hz): a fast stream of small server-sent events becomes a few reads a frame, not
 * one read, promise and parse per event.
 */
export const BATCH_MS = 16;

type Requester = { readonly request: (url: URL, options: RequestOptions) => ClientRequest; readonly agent: HttpAgent };

const plain: Requester = { request: httpRequest, agent: new HttpAgent({ keepAlive: true }) };
let secure: Promise<Requester> | null = null;

/** `node:https` (and TLS with it) loads on the first https: request, not at start-up. */
function requester(protocol: 'http:' | 'https:'): Requester | Promise<Requester> {
  if (protocol === 'http:') return plain;
  secure ??= import('node:https').then((https) => ({ request: https.request, agent: new https.Agent({ keepAlive: true }) }));
  return secure;
}

interface FetchInit {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal | null;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/** A `fetch` for http: and https: URLs; anything else goes to the global `fetch`. */
export async function nodeFetch(input: string | URL, init: FetchInit = {}): Promise<Response> {
  const url = typeof input === 'string' ? new URL(input) : input;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(url, init as RequestInit);
  const signal = init.signal ?? null;
  if (signal?.aborted) throw abortError(signal);
  const via = await requester(url.protocol);
  try {
    return await send(via, url, init, signal, false);
  } catch (e) {
    if (e instanceof StaleSocket) return send(via, url, init, signal, true);
    throw e;
  }
}

/** The request failed on a reused socket before any reply: safe to send again, once. */
class StaleSocket extends Error {}

function send(via: Requester, url: URL, init: FetchInit, signal: AbortSignal | null, fresh: boolean): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    // An abort that came while this request waited (for `node:https`, or a retry) sends nothing.
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const body = init.body ?? null;
    const headers: Record<string, string | number> = { ...(init.headers ?? {}) };
    if (body !== null) headers['content-length'] = Buffer.byteLength(body);
    let req: ClientRequest;
    let settled = false;
    const onAbort = (): void => {
      req.destroy();
      if (!settled) {
        settled = true;
        reject(abortError(signal!));
      }
    };
    req = via.request(url, {
      method: init.method ?? 'GET',
      headers,
      // A retried request gets a connection of its own, never another idle one.
      ...(fresh ? { agent: false as const } : { agent: via.agent }),
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) reject(abortError(signal));
      else if (req.reusedSocket && !fresh && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) reject(new StaleSocket());
      else reject(fetchFailed(error));
    });
    req.on('response', (res) => {
      settled = true;
      const status = res.statusCode ?? 0;
      const stream = NULL_BODY_STATUS.has(status) ? null : bodyStream(res, signal, () => signal?.removeEventListener('abort', onAbort));
      if (stream === null) {
        signal?.removeEventListener('abort', onAbort);
        res.resume();
      }
      resolve(new NodeResponse(status, res.statusMessage ?? '', res.rawHeaders, stream) as unknown as Response);
    });
    req.end(body ?? undefined);
  });
}

/** What the provider reads of a `Response`, without loading undici. */
export class NodeResponse {
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  constructor(
    readonly status: number,
    readonly statusText: string,
    rawHeaders: readonly string[],
    readonly body: ReadableStream<Uint8Array> | null,
  ) {
    this.ok = status >= 200 && status < 300;
    // Names are case-insensitive and repeated values are joined with ", ", as in `Headers.get`.
    const map = new Map<string, string>();
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      const name = rawHeaders[i]!.toLowerCase();
      const prev = map.get(name);
      map.set(name, prev === undefined ? rawHeaders[i + 1]! : `${prev}, ${rawHeaders[i + 1]!}`);
    }
    this.headers = { get: (name) => map.get(name.toLowerCase()) ?? null };
  }

  async text(): Promise<string> {
    if (this.body === null) return '';
    const decoder = new TextDecoder();
    const reader = this.body.getReader();
    let out = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return out + decoder.decode();
      out += decoder.decode(value, { stream: true });
    }
  }
}

/** The reply as a byte stream with backpressure; cancel drains the rest (keep-alive), bounded. */
function bodyStream(res: IncomingMessage, signal: AbortSignal | null, done: () => void): ReadableStream<Uint8Array> {
  let finished = false;
  let onAbort: (() => void) | null = null;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    done();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // What arrived is handed on at most once per BATCH_MS: at once when the last hand-over
        // is older than that (a slow stream waits for nothing), else with what follows it.
        let held: Buffer[] = [];
        let timer: ReturnType<typeof setTimeout> | null = null;
        let last = -BATCH_MS;
        const handOver = (): void => {
          if (timer !== null) clearTimeout(timer);
          timer = null;
          if (finished || held.length === 0) return;
          const chunk = held.length === 1 ? held[0]! : Buffer.concat(held);
          held = [];
          last = performance.now();
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) res.pause();
        };
        const fail = (cause: unknown): void => {
          if (finished) return;
          // What arrived before the failure is part of the reply (a partial answer).
          if (signal?.aborted) held = [];
          handOver();
          finish();
          controller.error(signal?.aborted ? abortError(signal) : fetchFailed(cause));
        };
        res.on('data', (chunk: Buffer) => {
          if (finished) return;
          held.push(chunk);
          const wait = last + BATCH_MS - performance.now();
          if (wait <= 0) handOver();
          else timer ??= setTimeout(handOver, wait);
        });
        res.once('end', () => {
          if (finished) return;
          handOver();
          finish();
          controller.close();
        });
        res.on('error', (error) => fail(error));
        // The socket closed before the reply ended (not always reported as an error).
        res.once('close', () => {
          if (!res.complete) fail(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
        });
        onAbort = () => {
          fail(null);
          res.destroy();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      },
      pull() {
        res.resume();
      },
      cancel() {
        finish();
        if (res.complete) return;
        // Let the rest of the reply arrive so the connection can be reused; cut it if it never ends.
        const cut = setTimeout(() => res.destroy(), DRAIN_AFTER_CANCEL_MS);
        cut.unref();
        res.once('end', () => clearTimeout(cut));
        res.once('close', () => clearTimeout(cut));
        res.resume();
      },
    },
    { highWaterMark: 16 },
  );
}
