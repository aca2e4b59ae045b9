/**
 * @codewhale/runtime-client — a typed client for the Codewhale Runtime API (`codewhale serve`).
 * The types (`paths`, `components`, `operations`) are generated from the server's OpenAPI
 * document; requests go through openapi-fetch, so a path, parameter or body the server does
 * not accept is a type error. On top: one method per operation, every paged list as an async
 * iterator, and the server-sent event streams (one thread's, or every thread's) as typed frames.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

export type Schemas = components['schemas'];
export type Thread = Schemas['Thread'];
export type Turn = Schemas['Turn'];
export type Item = Schemas['Item'];
export type Approval = Schemas['Approval'];
export type UserInput = Schemas['UserInput'];
export type Usage = Schemas['Usage'];
export type DecisionRecord = Schemas['DecisionRecord'];
export type Session = Schemas['Session'];
/** Any stored event: `event` names it and types its `payload`. */
export type RuntimeEvent = Schemas['Event'];
export type EventName = RuntimeEvent['event'];
/** The stored event named `N`. */
export type EventOf<N extends EventName> = Extract<RuntimeEvent, { event: N }>;
export type ErrorBody = Schemas['Error'];
export type ErrorCode = ErrorBody['error']['code'];

/** One frame of an event stream: a stored event (with its `id`, the seq) or a control frame (no `id`). */
export type StreamFrame =
  | { readonly event: EventName; readonly id: string; readonly data: RuntimeEvent }
  | { readonly event: 'server.connected'; readonly id: null; readonly data: Schemas['ServerConnected'] }
  | { readonly event: 'stale_cursor'; readonly id: null; readonly data: Schemas['StaleCursor'] }
  | { readonly event: 'server.stopping'; readonly id: null; readonly data: Schemas['ServerStopping'] };

/** A response other than 2xx: its status and the server's `{error: {code, message, …}}`. */
export class RuntimeApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | null;
  /** For a cursor ahead of the event log (409): the newest seq there is. */
  readonly headSeq: number | null;
  readonly body: ErrorBody | null;
  constructor(status: number, body: unknown) {
    const e = (body as ErrorBody | null)?.error;
    super(e?.message ? `${status} ${e.code}: ${e.message}` : `HTTP ${status}`);
    this.name = 'RuntimeApiError';
    this.status = status;
    this.body = e ? (body as ErrorBody) : null;
    this.code = e?.code ?? null;
    this.headSeq = e?.head_seq ?? null;
  }
}

export interface RuntimeClientOptions {
  /** The server's URL, e.g. the first line `codewhale serve` prints. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer …`; leave it out in a browser that has the cookie. */
  readonly token?: string | null;
  readonly fetch?: typeof globalThis.fetch;
  readonly headers?: Readonly<Record<string, string>>;
}

type Query<O extends keyof operations> = operations[O] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type Body<O extends keyof operations> = operations[O] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type Ok<O extends keyof operations> = operations[O]['responses'] extends infer R
  ? { [S in keyof R]: S extends 200 | 201 | 202 ? (R[S] extends { content: { 'application/json': infer J } } ? J : never) : never }[keyof R]
  : never;

/** `data`, or the error as a {@link RuntimeApiError}. */
async function ok<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await p;
  if (!response.ok) throw new RuntimeApiError(response.status, error ?? null);
  return data as T;
}

/** The Runtime API, one method per operation (named after its `operationId`). */
export class RuntimeClient {
  /** The openapi-fetch client (`GET`, `POST`, `DELETE` by path), for anything not wrapped here. */
  readonly http: Client<paths>;
  readonly #options: RuntimeClientOptions;

  constructor(options: RuntimeClientOptions) {
    this.#options = options;
    this.http = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), headers: this.#headers(), ...(options.fetch ? { fetch: options.fetch } : {}) });
  }

  #headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.#options.token ? { authorization: `Bearer ${this.#options.token}` } : {}), ...this.#options.headers, ...extra };
  }

  getHealth(): Promise<Ok<'getHealth'>> {
    return ok(this.http.GET('/health'));
  }
  getRuntimeInfo(): Promise<Ok<'getRuntimeInfo'>> {
    return ok(this.http.GET('/v1/runtime/info'));
  }
  /** Log a browser in with the token or a one-time code; the answer sets the HttpOnly session cookie. */
  createSession(body: Body<'createSession'>): Promise<Ok<'createSession'>> {
    return ok(this.http.POST('/v1/session', { body }));
  }
  /** Whether this client is logged in (never a 401). */
  getSession(): Promise<Ok<'getSession'>> {
    return ok(this.http.GET('/v1/session'));
  }
  /** Log a browser out (the session cookie is cleared). */
  deleteSession(): Promise<Ok<'deleteSession'>> {
    return ok(this.http.DELETE('/v1/session'));
  }
  getOpenApi(): Promise<Ok<'getOpenApi'>> {
    return ok(this.http.GET('/v1/openapi.json'));
  }
  createThread(body: Body<'createThread'> = {}): Promise<Ok<'createThread'>> {
    return ok(this.http.POST('/v1/threads', { body }));
  }
  listThreads(query: Query<'listThreads'> = {}): Promise<Ok<'listThreads'>> {
    return ok(this.http.GET('/v1/threads', { params: { query } }));
  }
  getThread(id: string): Promise<Ok<'getThread'>> {
    return ok(this.http.GET('/v1/threads/{id}', { params: { path: { id } } }));
  }
  deleteThread(id: string): Promise<Ok<'deleteThread'>> {
    return ok(this.http.DELETE('/v1/threads/{id}', { params: { path: { id } } }));
  }
  archiveThread(id: string): Promise<Ok<'archiveThread'>> {
    return ok(this.http.POST('/v1/threads/{id}/archive', { params: { path: { id } } }));
  }
  unarchiveThread(id: string): Promise<Ok<'unarchiveThread'>> {
    return ok(this.http.POST('/v1/threads/{id}/unarchive', { params: { path: { id } } }));
  }
  listItems(id: string, query: Query<'listItems'> = {}): Promise<Ok<'listItems'>> {
    return ok(this.http.GET('/v1/threads/{id}/items', { params: { path: { id }, query } }));
  }
  listTurns(id: string, query: Query<'listTurns'> = {}): Promise<Ok<'listTurns'>> {
    return ok(this.http.GET('/v1/threads/{id}/turns', { params: { path: { id }, query } }));
  }
  createTurn(id: string, body: Body<'createTurn'>): Promise<Ok<'createTurn'>> {
    return ok(this.http.POST('/v1/threads/{id}/turns', { params: { path: { id } }, body }));
  }
  getTurn(id: string, turn: string): Promise<Ok<'getTurn'>> {
    return ok(this.http.GET('/v1/threads/{id}/turns/{turn}', { params: { path: { id, turn } } }));
  }
  interruptTurn(id: string, turn: string): Promise<Ok<'interruptTurn'>> {
    return ok(this.http.POST('/v1/threads/{id}/turns/{turn}/interrupt', { params: { path: { id, turn } } }));
  }
  steerTurn(id: string, turn: string, body: Body<'steerTurn'>): Promise<Ok<'steerTurn'>> {
    return ok(this.http.POST('/v1/threads/{id}/turns/{turn}/steer', { params: { path: { id, turn } }, body }));
  }
  listEvents(query: Query<'listEvents'> = {}): Promise<Ok<'listEvents'>> {
    return ok(this.http.GET('/v1/event-log', { params: { query } }));
  }
  listApprovals(query: Query<'listApprovals'> = {}): Promise<Ok<'listApprovals'>> {
    return ok(this.http.GET('/v1/approvals', { params: { query } }));
  }
  getApproval(id: string): Promise<Ok<'getApproval'>> {
    return ok(this.http.GET('/v1/approvals/{id}', { params: { path: { id } } }));
  }
  answerApproval(id: string, body: Body<'answerApproval'>): Promise<Ok<'answerApproval'>> {
    return ok(this.http.POST('/v1/approvals/{id}', { params: { path: { id } }, body }));
  }
  listUserInputs(query: Query<'listUserInputs'> = {}): Promise<Ok<'listUserInputs'>> {
    return ok(this.http.GET('/v1/user-inputs', { params: { query } }));
  }
  getUserInput(id: string): Promise<Ok<'getUserInput'>> {
    return ok(this.http.GET('/v1/user-inputs/{id}', { params: { path: { id } } }));
  }
  answerUserInput(id: string, body: Body<'answerUserInput'>): Promise<Ok<'answerUserInput'>> {
    return ok(this.http.POST('/v1/user-inputs/{id}', { params: { path: { id } }, body }));
  }
  getHooks(query: Query<'getHooks'> = {}): Promise<Ok<'getHooks'>> {
    return ok(this.http.GET('/v1/hooks', { params: { query } }));
  }

  /**
   * The server-sent events of one thread (`threadId`) or of every thread: the stored events
   * after `after` (a seq: the last `id` you received), then live ones, with the control frames
   * between them. Resume after a drop by calling it again with the last `id` seen: nothing is
   * lost or repeated. Ends when the server ends the stream (after `server.stopping`) or
   * `signal` aborts. A cursor ahead of the log throws a {@link RuntimeApiError} (409, `headSeq`).
   */
  async *events(options: { readonly threadId?: string; readonly after?: number; readonly signal?: AbortSignal } = {}): AsyncGenerator<StreamFrame> {
    const base = this.#options.baseUrl.replace(/\/+$/, '');
    const path = options.threadId === undefined ? '/v1/events' : `/v1/threads/${encodeURIComponent(options.threadId)}/events`;
    const headers = this.#headers({ accept: 'text/event-stream', ...(options.after !== undefined ? { 'last-event-id': String(options.after) } : {}) });
    const res = await (this.#options.fetch ?? globalThis.fetch)(`${base}${path}`, { headers, ...(options.signal ? { signal: options.signal } : {}) });
    if (!res.ok || !res.body) {
      const text = await res.text().catch(() => '');
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      throw new RuntimeApiError(res.status, body);
    }
    yield* sseFrames(res.body, options.signal);
  }
}

/** Parse a `text/event-stream` body into frames (comments and heartbeats are skipped). */
export async function* sseFrames(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<StreamFrame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = 'message';
  let id: string | null = null;
  let data: string[] = [];
  try {
    for (;;) {
      if (signal?.aborted) return;
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (e) {
        if (signal?.aborted) return;
        throw e;
      }
      if (!chunk.done) buffer += decoder.decode(chunk.value, { stream: true });
      let nl: number;
      while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
        // A CR that ends the chunk may be the first half of a CRLF: wait for the next byte.
        if (!chunk.done && buffer[nl] === '\r' && nl === buffer.length - 1) break;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield { event, id, data: JSON.parse(data.join('\n')) } as StreamFrame;
          event = 'message';
          id = null;
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'id') id = value;
      }
      if (chunk.done) return;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * Every row of a paged list, page after page, until `next_cursor` is null:
 * `for await (const t of everyPage((cursor) => client.listThreads({ cursor }), 'threads'))`.
 */
export async function* everyPage<K extends string, P extends { readonly next_cursor: string | null } & { readonly [k in K]: readonly unknown[] }>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  key: K,
): AsyncGenerator<P[K][number]> {
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page[key] as unknown as readonly P[K][number][];
    if (page.next_cursor === null) return;
    cursor = page.next_cursor;
  }
}

/** A client: `createRuntimeClient({ baseUrl: 'http://127.0.0.1:7878', token })`. */
export function createRuntimeClient(options: RuntimeClientOptions): RuntimeClient {
  return new RuntimeClient(options);
}
