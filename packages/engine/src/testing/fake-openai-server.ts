/**
 * A real HTTP server on 127.0.0.1 that speaks the streaming Chat Completions wire, scripted
 * turn by turn, with faults on demand. For tests and offline demos.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setImmediate as nextTick } from 'node:timers/promises';

/** One tool call of a scripted reply. */
export interface FakeToolCall {
  /** Default `call_fake_<request>_<i>` (both 1-based). */
  readonly id?: string;
  readonly name: string;
  /** An object is sent as its JSON text; a string is sent as is (even when not JSON). */
  readonly arguments: Readonly<Record<string, unknown>> | string;
}

/** A scripted model reply, streamed as SSE `data:` frames, optionally with a fault mid-way. */
export interface FakeReplyTurn {
  readonly text?: string;
  readonly reasoning?: string;
  readonly tool_calls?: readonly FakeToolCall[];
  /**
   * The wire `usage` object of the final usage frame (e.g. `{prompt_tokens, completion_tokens,
   * prompt_cache_hit_tokens, prompt_cache_miss_tokens}`). Default: estimated
   * `{prompt_tokens, completion_tokens, total_tokens}` (≈ 4 characters per token); `null`: no usage frame.
   */
  readonly usage?: Readonly<Record<string, unknown>> | null;
  /** Wire `finish_reason`. Default `tool_calls` when there are calls, else `stop`. */
  readonly finish?: string;
  /** Wait this long before sending the response headers. */
  readonly delayMs?: number;
  /** Pause between frames. Default the server's `chunkDelayMs` (0). */
  readonly chunkDelayMs?: number;
  /** Code points of text (and of reasoning) per frame. Default 8. */
  readonly deltaChars?: number;
  /** Destroy the connection after this many `data:` frames (a dropped stream). */
  readonly dropAfterChunks?: number;
  /** Stop sending for this long after `stallAfterChunks` frames (to trip an idle timeout). */
  readonly stallMs?: number;
  /** Default 1. */
  readonly stallAfterChunks?: number;
  /** End the body without `data: [DONE]`. */
  readonly omitDone?: boolean;
  /** Send no `finish_reason` frame. With `omitDone`, the stream ends incomplete. */
  readonly omitFinish?: boolean;
  /** Send several calls' argument fragments round-robin instead of one call after another. */
  readonly interleaveToolCalls?: boolean;
  /** Line ending of the SSE frames. Default `\n`. */
  readonly lineEnding?: '\n' | '\r\n' | '\r';
  /** Send `data: {"error": <this>}` after the content frames, then end the stream. */
  readonly streamError?: Readonly<Record<string, unknown>>;
}

/** An HTTP failure instead of a stream. */
export interface FakeFaultTurn {
  readonly status: number;
  /** An object is sent as JSON; a string as text/plain. Default `{"error": {"message": "fake <status>", ...}}`. */
  readonly body?: unknown;
  /** `Retry-After` header value (seconds or an HTTP date). */
  readonly retryAfter?: number | string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly delayMs?: number;
}

/** One scripted response. */
export type FakeTurn = FakeReplyTurn | FakeFaultTurn;

/** A request the server received. */
export interface FakeReceivedRequest {
  readonly method: string;
  readonly path: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON body (or the raw text when it was not JSON; `null` when empty). */
  readonly body: unknown;
}

/** Options of {@link startFakeOpenAIServer}. */
export interface FakeOpenAIServerOptions {
  /** The responses, one per chat-completions request, in order; or a function choosing one (index 0-based). */
  readonly turns: readonly FakeTurn[] | ((request: FakeReceivedRequest, index: number) => FakeTurn);
  /** When set, a request without `Authorization: Bearer <apiKey>` gets 401 (consuming no turn). */
  readonly apiKey?: string;
  /** Default pause between frames. Default 0. */
  readonly chunkDelayMs?: number;
  /**
   * Called when a streamed reply has been written out completely (its last byte handed to the
   * socket), with the 0-based turn index: benchmarks measure from here to the next request.
   */
  readonly onReplyEnd?: (index: number) => void;
}

/** A running fake server. */
export interface FakeOpenAIServer {
  /** Base URL including `/v1` (`http://127.0.0.1:<port>/v1`). */
  readonly url: string;
  readonly port: number;
  /** Parsed JSON bodies of every chat-completions request, in order. */
  readonly requests: unknown[];
  /** Every request (any path) with method, path and headers. */
  readonly received: FakeReceivedRequest[];
  /** Chat-completions requests answered from the script so far. */
  readonly turnsServed: number;
  /** Stop listening and drop every open connection (stalled streams included). */
  close(): Promise<void>;
}

const CREATED = 1_700_000_000;

/**
 * Start the server on 127.0.0.1, port 0. Routes: `POST /v1/chat/completions` (also without
 * `/v1`) plays the next turn; `GET /v1/models` lists `fake-model`; anything else is 404. When
 * the script is used up, requests get 400 "no scripted turn left".
 *
 * A reply streams, as separate writes: a `: fake-openai-server` comment, a role frame, the
 * reasoning (`delta.reasoning_content`) and text (`delta.content`) in pieces of 8 code points (`deltaChars`),
 * each tool call as a first fragment `{index, id, type, function: {name, arguments: ""}}` followed
 * by its arguments in 4 pieces, a `finish_reason` frame, a usage frame (`choices: []`) and
 * `data: [DONE]`. A frame holding a multi-byte character is written in two parts split inside
 * that character, and CRLF frames are split between `\r` and `\n`, so clients see awkward
 * chunk boundaries (TCP may still merge them).
 */
export async function startFakeOpenAIServer(options: FakeOpenAIServerOptions): Promise<FakeOpenAIServer> {
  const requests: unknown[] = [];
  const received: FakeReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const closing = new AbortController();
  let served = 0;

  const pickTurn = (request: FakeReceivedRequest): FakeTurn | null => {
    const index = served;
    if (typeof options.turns === 'function') return options.turns(request, index);
    return options.turns[index] ?? null;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    let body: unknown = null;
    if (raw !== '') {
      try {
        body = JSON.parse(raw) as unknown;
      } catch {
        body = raw;
      }
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const request: FakeReceivedRequest = { method: req.method ?? 'GET', path, headers, body };
    received.push(request);

    if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      sendJson(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model', created: CREATED, owned_by: 'fake' }] });
      return;
    }
    if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/chat/completions')) {
      sendJson(res, 404, { error: { message: `no route for ${req.method} ${path}`, type: 'not_found' } });
      return;
    }
    requests.push(body);
    if (options.apiKey !== undefined && headers['authorization'] !== `Bearer ${options.apiKey}`) {
      sendJson(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } });
      return;
    }
    if (body === null || typeof body !== 'object') {
      sendJson(res, 400, { error: { message: 'the request body must be a JSON object', type: 'invalid_request_error' } });
      return;
    }
    const turn = pickTurn(request);
    const turnNumber = ++served;
    if (turn === null) {
      const had = Array.isArray(options.turns) ? options.turns.length : served - 1;
      sendJson(res, 400, { error: { message: `fake-openai-server: no scripted turn left (the script had ${had})`, type: 'invalid_request_error' } });
      return;
    }
    if ('status' in turn) {
      await sleep(turn.delayMs ?? 0, closing.signal);
      const extra: Record<string, string> = { ...(turn.headers ?? {}) };
      if (turn.retryAfter !== undefined) extra['retry-after'] = String(turn.retryAfter);
      const payload = turn.body === undefined ? { error: { message: `fake ${turn.status}`, type: faultType(turn.status), code: turn.status } } : turn.body;
      if (typeof payload === 'string') {
        res.writeHead(turn.status, { 'content-type': 'text/plain; charset=utf-8', ...extra });
        res.end(payload);
      } else {
        sendJson(res, turn.status, payload, extra);
      }
      return;
    }
    await streamReply(res, turn, body as Record<string, unknown>, turnNumber, options.chunkDelayMs ?? 0, closing.signal, options.onReplyEnd);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: 'fake-openai-server failed' } });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    received,
    get turnsServed() {
      return served;
    },
    close: () =>
      new Promise<void>((resolve) => {
        closing.abort();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function streamReply(
  res: ServerResponse,
  turn: FakeReplyTurn,
  body: Record<string, unknown>,
  turnNumber: number,
  defaultChunkDelayMs: number,
  closing: AbortSignal,
  onReplyEnd: ((index: number) => void) | undefined,
): Promise<void> {
  if (!(await sleep(turn.delayMs ?? 0, closing))) return;
  const le = turn.lineEnding ?? '\n';
  const model = typeof body['model'] === 'string' ? body['model'] : 'fake-model';
  const chunkDelayMs = turn.chunkDelayMs ?? defaultChunkDelayMs;
  const frames = replyFrames(turn, model, turnNumber, body);

  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  let gone = false;
  res.on('close', () => {
    gone = true;
  });
  const write = async (text: string): Promise<boolean> => {
    if (gone || closing.aborted) return false;
    for (const part of awkwardParts(text)) {
      if (gone) return false;
      res.write(part);
      await nextTick();
    }
    return true;
  };

  await write(`: fake-openai-server${le}${le}`);
  let sent = 0;
  for (const frame of frames) {
    if (turn.dropAfterChunks !== undefined && sent >= turn.dropAfterChunks) {
      res.socket?.destroy();
      return;
    }
    if (turn.stallMs !== undefined && sent === (turn.stallAfterChunks ?? 1)) {
      if (!(await sleep(turn.stallMs, closing))) return;
    }
    if (sent > 0 && chunkDelayMs > 0 && !(await sleep(chunkDelayMs, closing))) return;
    const data = frame === '[DONE]' ? '[DONE]' : JSON.stringify(frame);
    if (!(await write(`data: ${data}${le}${le}`))) return;
    sent++;
  }
  if (turn.dropAfterChunks !== undefined && sent >= turn.dropAfterChunks) {
    res.socket?.destroy();
    return;
  }
  res.end(() => onReplyEnd?.(turnNumber - 1));
}

/** Every `data:` payload of a reply, in order (objects, and the literal `[DONE]`). */
function replyFrames(turn: FakeReplyTurn, model: string, turnNumber: number, body: Record<string, unknown>): (Record<string, unknown> | '[DONE]')[] {
  const id = `chatcmpl-fake-${turnNumber}`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
    id,
    object: 'chat.completion.chunk',
    created: CREATED,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const frames: (Record<string, unknown> | '[DONE]')[] = [chunk({ role: 'assistant', content: '' })];
  const size = Math.max(1, Math.floor(turn.deltaChars ?? 8));
  for (const piece of pieces(turn.reasoning ?? '', size)) frames.push(chunk({ reasoning_content: piece }));
  for (const piece of pieces(turn.text ?? '', size)) frames.push(chunk({ content: piece }));

  const calls = (turn.tool_calls ?? []).map((c, i) => ({
    index: i,
    id: c.id ?? `call_fake_${turnNumber}_${i + 1}`,
    name: c.name,
    args: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
  }));
  const heads = calls.map((c) => chunk({ tool_calls: [{ index: c.index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
  const argFrames = calls.map((c) => splitInto(c.args, 4).map((piece) => chunk({ tool_calls: [{ index: c.index, function: { arguments: piece } }] })));
  if (turn.interleaveToolCalls) {
    frames.push(...heads);
    const longest = Math.max(0, ...argFrames.map((a) => a.length));
    for (let k = 0; k < longest; k++) for (const a of argFrames) if (a[k] !== undefined) frames.push(a[k]!);
  } else {
    for (let i = 0; i < calls.length; i++) frames.push(heads[i]!, ...argFrames[i]!);
  }

  if (turn.streamError !== undefined) {
    frames.push({ error: turn.streamError });
    return frames;
  }
  if (!turn.omitFinish) frames.push(chunk({}, turn.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop')));
  const usage = turn.usage === undefined ? estimatedUsage(turn, body, calls.map((c) => c.name + c.args).join('')) : turn.usage;
  if (usage !== null) frames.push({ id, object: 'chat.completion.chunk', created: CREATED, model, choices: [], usage });
  if (!turn.omitDone) frames.push('[DONE]');
  return frames;
}

function estimatedUsage(turn: FakeReplyTurn, body: Record<string, unknown>, callText: string): Record<string, number> {
  const prompt = Math.ceil(JSON.stringify(body['messages'] ?? []).length / 4);
  const completion = Math.ceil(Array.from((turn.reasoning ?? '') + (turn.text ?? '') + callText).length / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** `text` in pieces of `size` code points. */
function pieces(text: string, size: number): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out;
}

/** `text` in `n` near-equal pieces (fewer when shorter), at code-point boundaries. */
function splitInto(text: string, n: number): string[] {
  const points = Array.from(text);
  if (points.length === 0) return [];
  return pieces(text, Math.max(1, Math.ceil(points.length / n)));
}

/** A frame's bytes in parts: split inside its first multi-byte character, and between a final `\r\n`. */
function awkwardParts(text: string): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const cuts = new Set<number>();
  const firstMulti = bytes.findIndex((b) => b >= 0xc0);
  if (firstMulti !== -1) cuts.add(firstMulti + 1);
  if (text.endsWith('\r\n')) cuts.add(bytes.length - 1);
  const sorted = [...cuts].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let start = 0;
  for (const cut of sorted) {
    parts.push(bytes.subarray(start, cut));
    start = cut;
  }
  parts.push(bytes.subarray(start));
  return parts;
}

function faultType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** Resolves `true` after `ms`, or `false` as soon as the server closes. */
function sleep(ms: number, closing: AbortSignal): Promise<boolean> {
  if (closing.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      closing.removeEventListener('abort', onClose);
      resolve(true);
    }, ms);
    closing.addEventListener('abort', onClose, { once: true });
  });
}
