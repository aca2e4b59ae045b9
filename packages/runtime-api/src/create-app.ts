import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { methodNotAllowed } from 'hono/method-not-allowed';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { EngineError, errorMessage, parseMode, parsePosture } from '@codewhale/engine';
import { presentedCredential, TOKEN_COOKIE, tokensMatch } from './auth/check-token.js';
import type { LoginCodes } from './auth/login-codes.js';
import { WEB_SECURITY_HEADERS, type WebAsset } from './web/web-assets.js';
import type { PeerVerdict } from './auth/peer-process.js';
import type { HookConfiguration } from '@codewhale/hooks-supervisor';
import { checkBrowser, isJsonContentType, type BrowserPolicy } from './http/browser-guard.js';
import type { ApprovalBroker } from './approval-broker.js';
import type { EventHub } from './events/event-hub.js';
import { streamThreadEvents, type SseOptions } from './events/sse-stream.js';
import { ApiError, CODE_OF_CATEGORY, STATUS_OF, type ApiIssue } from './http/api-error.js';
import { displaySafe, redact } from './redact.js';
import { openApiDocument } from './http/openapi.js';
import { decodeCursor, encodeCursor, pageLimit } from './http/cursor.js';
import {
  ApprovalBody,
  ApprovalsQuery,
  CreateThreadBody,
  CreateTurnBody,
  EventLogQuery,
  EventsQuery,
  HooksQuery,
  PageQuery,
  SessionBody,
  SteerBody,
  ThreadsQuery,
  UserInputBody,
  UserInputsQuery,
} from './http/schemas.js';
import type { ThreadRecord } from './store/records.js';
import { eventEnvelope } from './events/event-hub.js';
import { approvalPayload, itemPayload, threadPayload, turnPayload, userInputPayload, type RuntimeStore } from './store/runtime-store.js';
import type { TurnRunner } from './turn-runner.js';

/** Everything the routes use. */
export interface AppDeps {
  readonly store: RuntimeStore;
  readonly hub: EventHub;
  readonly broker: ApprovalBroker;
  readonly runner: TurnRunner;
  /** `null`: no authentication (`--insecure-no-auth`, loopback only). */
  readonly token: string | null;
  /** The workspace `serve` was started in (or `--workspace`). */
  readonly defaultWorkspace: string;
  readonly version: string;
  /** The `hooks list` model as JSON for a workspace, or for the configuration a live session runs. */
  readonly hooksList: (workspace: string, live?: HookConfiguration | null) => Record<string, unknown>;
  /** Threads that may run a turn at once (default 8). */
  readonly maxConcurrentTurns?: number;
  /** Request body cap in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number;
  readonly sse?: SseOptions;
  /** Secret values never echoed in an error. */
  readonly secrets?: readonly string[];
  /** True once shutdown began: new work gets 503. */
  readonly isShuttingDown?: () => boolean;
  /** Which `Host`, `Origin` and CORS origins a request may use (every route, every mode). */
  readonly browser: BrowserPolicy;
  /**
   * Who is on the other end of a request's connection; a descendant of the server (a tool or
   * hook process) and an unknown local owner are refused on every token-bearing route.
   * `null` only where the check cannot run (no `/proc`): then it is off, and the server says so.
   */
  readonly peerCheck: ((c: Context) => PeerVerdict) | null;
  /**
   * Structured request logs (one line per request: method, path without the query, status,
   * duration, error code). Never a header, a query string, a body or a token.
   */
  readonly logger?: Logger | null;
  /** The web client's files, served at `/` (`null`: no web client). */
  readonly web?: ReadonlyMap<string, WebAsset> | null;
  /** One-time login codes (`serve --open`), exchanged for the session cookie at `POST /v1/session`. */
  readonly loginCodes?: LoginCodes | null;
}

/**
 * The browser's session cookie: the token itself, which page scripts cannot read (`HttpOnly`)
 * and which no other site's request carries (`SameSite=Strict`); a session cookie (no expiry).
 */
const sessionCookie = (value: string, clear = false): string => `${TOKEN_COOKIE}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Strict${clear ? '; Max-Age=0' : ''}`;

const CORS_ALLOW_HEADERS = 'authorization, content-type, last-event-id, x-codewhale-runtime-token';

/** The error code a status stands for (the first in the table), for the log. */
const errorCodeOf = (status: number): string => Object.entries(STATUS_OF).find(([, s]) => s === status)?.[0] ?? String(status);

const issuesOf = (error: z.ZodError): ApiIssue[] => error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(root)', code: i.code, message: i.message }));

async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const text = await c.req.text();
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (e) {
    throw new ApiError('invalid_json', `the request body is not valid JSON: ${(e as Error).message}`);
  }
  const r = schema.safeParse(value);
  if (!r.success) throw new ApiError('invalid_request', 'the request body is invalid', { issues: issuesOf(r.error) });
  return r.data;
}

function readQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const r = schema.safeParse(c.req.query());
  if (!r.success) throw new ApiError('invalid_request', 'the query string is invalid', { issues: issuesOf(r.error) });
  return r.data;
}

function canonicalWorkspace(raw: string, base: string): string {
  const abs = isAbsolute(raw) ? raw : resolve(base, raw);
  try {
    const real = realpathSync(abs);
    if (statSync(real).isDirectory()) return real;
  } catch {
    // answered below
  }
  throw new ApiError('invalid_request', 'the workspace is not an existing directory', { issues: [{ path: 'workspace', code: 'not_a_directory', message: 'pass an existing directory' }] });
}

/**
 * The Runtime API as a Hono app (no socket: `app.request()` in tests, `@hono/node-server` in
 * `serve`). Every error answers `{error: {code, message, issues?}}` with the status of its code;
 * nothing a client sends can produce a stack trace or touch another thread.
 */
export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  const { store, runner, broker } = deps;
  const maxTurns = deps.maxConcurrentTurns ?? 8;
  const shuttingDown = deps.isShuttingDown ?? (() => false);

  const threadJson = (t: ThreadRecord) => {
    const pending = store.pendingApprovals(t.id);
    return threadPayload(t, { status: t.activeTurnId ? (pending.length > 0 ? 'waiting' : 'active') : 'idle', pendingApprovals: pending });
  };
  const mustThread = (id: string): ThreadRecord => {
    const t = store.getThread(id);
    if (!t) throw new ApiError('not_found', `no thread ${id.slice(0, 100)}`);
    return t;
  };

  const log = deps.logger ?? null;
  app.onError((e, c) => {
    if (ApiError.isInstance(e)) return c.json(e.toJSON(), e.status as 400, e.headers);
    if (EngineError.isInstance(e)) {
      // One table from engine categories to API codes; the engine's message is bounded and names no secret.
      const err = new ApiError(CODE_OF_CATEGORY[e.category] ?? 'internal', redact(errorMessage(e), deps.secrets ?? []));
      return c.json(err.toJSON(), err.status as 500);
    }
    const status = (e as { status?: unknown }).status;
    if (status === 413) return c.json(new ApiError('payload_too_large', 'the request body is over the size cap').toJSON(), 413);
    // Never a stack trace or an internal message on the wire; the operator's log gets the message (redacted).
    log?.error({ path: c.req.path, err_message: redact(errorMessage(e), deps.secrets ?? []) }, 'internal error');
    return c.json(new ApiError('internal', 'internal error').toJSON(), 500);
  });
  app.notFound((c) => c.json(new ApiError('not_found', 'no such route').toJSON(), 404));
  if (log) {
    let n = 0;
    app.use(async (c, next) => {
      const started = performance.now();
      const id = ++n;
      await next();
      const status = c.res.status;
      const line = {
        req_id: id,
        method: c.req.method,
        // The path only: a query string could carry what a client should not have sent (?token=);
        // the path is the client's too, so it is redacted like everything else shown.
        path: redact(c.req.path.slice(0, 300), deps.secrets ?? []),
        route: c.req.routePath,
        status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        ...(status >= 400 ? { error_code: errorCodeOf(status) } : {}),
      };
      if (status >= 500) log.error(line, 'request');
      else if (status >= 400) log.warn(line, 'request');
      else log.info(line, 'request');
    });
  }
  // First of all, on every route: Host, Origin and cross-site checks (DNS rebinding, foreign pages).
  app.use(async (c, next) => {
    const v = checkBrowser(deps.browser, c.req.raw.headers, new URL(c.req.url).host);
    if (!v.ok) throw new ApiError('forbidden', v.reason);
    if (v.cors !== null) {
      c.header('Access-Control-Allow-Origin', v.cors);
      c.header('Access-Control-Allow-Credentials', 'true');
      c.header('Vary', 'Origin');
      if (c.req.method === 'OPTIONS') {
        c.header('Access-Control-Allow-Methods', 'GET, POST, DELETE');
        c.header('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
        c.header('Access-Control-Max-Age', '600');
        return c.body(null, 204);
      }
    }
    await next();
  });
  // The web client: only the files of its build, with a CSP that forbids inline code.
  const web = deps.web ?? null;
  if (web) {
    app.use(async (c, next) => {
      const asset = c.req.method === 'GET' || c.req.method === 'HEAD' ? web.get(c.req.path) : undefined;
      if (!asset) return next();
      const headers = { ...WEB_SECURITY_HEADERS, 'Content-Type': asset.type, 'Cache-Control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache' };
      if (c.req.method === 'HEAD') return c.body(null, 200, headers);
      return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, headers);
    });
  }
  app.use(methodNotAllowed({ app, onMethodNotAllowed: (c, methods) => c.json(new ApiError('method_not_allowed', `use ${methods.join(', ')}`).toJSON(), 405, { Allow: methods.join(', ') }) }));
  app.use(
    bodyLimit({
      maxSize: deps.maxBodyBytes ?? 1024 * 1024,
      onError: (c) => c.json(new ApiError('payload_too_large', `the request body is over ${deps.maxBodyBytes ?? 1024 * 1024} bytes`).toJSON(), 413),
    }),
  );

  // Public.
  app.get('/health', (c) => c.json({ status: shuttingDown() ? 'stopping' : 'ok' }));
  app.get('/v1/runtime/info', (c) =>
    c.json({
      name: 'codewhale-runtime-api',
      version: deps.version,
      schema_version: store.schemaVersion(),
      event_schema_version: 1,
      auth: deps.token === null ? 'none' : 'token',
      hook_events: ['tool_call_before', 'shell_env', 'tool_call_after', 'on_error'],
      max_concurrent_turns: maxTurns,
      approval_timeout_secs: Math.round(broker.timeoutMs / 1000),
    }),
  );

  // Everything else under /v1 needs the token (`/v1/session` checks the one in its body).
  // Processes this server started never get past here, whatever token they found.
  app.use('/v1/*', async (c, next) => {
    if (deps.peerCheck) {
      const peer = deps.peerCheck(c);
      if (peer.kind === 'descendant') throw new ApiError('forbidden', 'processes started by this server (tools, hooks and what they start) cannot use the Runtime API');
      if (peer.kind === 'unknown') throw new ApiError('forbidden', `the client process could not be identified (${peer.reason}); connect from a process of this user on this machine`);
    }
    if (c.req.path === '/v1/session') return next();
    const credential = presentedCredential(c.req.raw.headers);
    if (deps.token !== null && !tokensMatch(credential?.token ?? null, deps.token)) {
      throw new ApiError('unauthorized', 'missing or wrong token: send Authorization: Bearer <token>', { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    // A cookie is sent by the browser on its own: a write it authenticates must come from an
    // allowed page (Origin checked above) as JSON, which no form or text/plain post can be.
    if (credential?.via === 'cookie' && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      if (c.req.header('origin') === undefined || !isJsonContentType(c.req.header('content-type') ?? null)) {
        throw new ApiError('forbidden', 'a write authenticated by the cookie must carry an Origin and Content-Type: application/json (CSRF protection); programs send the token in a header');
      }
    }
    await next();
  });

  // A browser logs in: the token (the login page) or a one-time code (`serve --open`) buys the
  // session cookie. JSON only, like every cookie write, so no form on another site can post it.
  app.post('/v1/session', async (c) => {
    if (!isJsonContentType(c.req.header('content-type') ?? null)) throw new ApiError('invalid_request', 'send the login as Content-Type: application/json');
    const body = await readJson(c, SessionBody);
    if (deps.token === null) return c.json({ authenticated: true, auth: 'none' as const });
    const ok = 'token' in body ? tokensMatch(body.token, deps.token) : (deps.loginCodes?.take(body.code) ?? false);
    if (!ok) throw new ApiError('unauthorized', 'token' in body ? 'wrong token' : 'the login code is unknown, already used or expired; log in with the token, or run codewhale serve --open again');
    c.header('Set-Cookie', sessionCookie(deps.token));
    return c.json({ authenticated: true, auth: 'token' as const });
  });
  // Whether this request is logged in (a page asks before it shows the login form; never a 401).
  app.get('/v1/session', (c) => {
    if (deps.token === null) return c.json({ authenticated: true, auth: 'none' as const });
    return c.json({ authenticated: tokensMatch(presentedCredential(c.req.raw.headers)?.token ?? null, deps.token), auth: 'token' as const });
  });
  app.delete('/v1/session', (c) => {
    c.header('Set-Cookie', sessionCookie('', true));
    return c.json({ authenticated: false, auth: deps.token === null ? ('none' as const) : ('token' as const) });
  });

  app.get('/v1/openapi.json', (c) => c.json(openApiDocument(deps.version)));

  app.post('/v1/threads', async (c) => {
    const body = await readJson(c, CreateThreadBody);
    if (shuttingDown()) throw new ApiError('unavailable', 'the server is shutting down');
    const workspace = canonicalWorkspace(body.workspace ?? deps.defaultWorkspace, deps.defaultWorkspace);
    const mode = parseMode(body.mode ?? 'work')!;
    const posture = parsePosture(body.posture ?? 'ask')!;
    const thread = await runner.createThread({ workspace, mode, posture, model: body.model ?? null });
    return c.json({ thread: threadJson(thread) }, 201);
  });

  app.get('/v1/threads', (c) => {
    const q = readQuery(c, ThreadsQuery);
    const p = store.threadsPage({ after: decodeCursor(q.cursor), limit: pageLimit(q.limit), archived: q.archived === 'true' });
    return c.json({ threads: p.rows.map(threadJson), next_cursor: encodeCursor(p.next) });
  });

  app.get('/v1/threads/:id', (c) => {
    const t = mustThread(c.req.param('id'));
    return c.json({ thread: threadJson(t), turns: store.listTurns(t.id).map(turnPayload) });
  });

  app.delete('/v1/threads/:id', (c) => {
    const id = c.req.param('id');
    const r = store.deleteThread(id);
    if (r === 'not_found') throw new ApiError('not_found', `no thread ${id.slice(0, 100)}`);
    if (r === 'busy') throw new ApiError('conflict', 'a turn is running on this thread; interrupt it and wait for turn.completed first');
    runner.forget?.(id);
    return c.json({ deleted: true, thread_id: id });
  });

  for (const [path, archived] of [
    ['/v1/threads/:id/archive', true],
    ['/v1/threads/:id/unarchive', false],
  ] as const) {
    app.post(path, (c) => {
      const r = store.setArchived(c.req.param('id'), archived);
      if (r === 'not_found') throw new ApiError('not_found', `no thread ${c.req.param('id').slice(0, 100)}`);
      if (r === 'busy') throw new ApiError('conflict', 'a turn is running on this thread; wait for turn.completed first');
      return c.json({ thread: threadJson(r) });
    });
  }

  app.get('/v1/threads/:id/items', (c) => {
    const q = readQuery(c, PageQuery);
    const t = mustThread(c.req.param('id'));
    const p = store.itemsPage(t.id, { after: decodeCursor(q.cursor), limit: pageLimit(q.limit) });
    return c.json({ items: p.rows.map(itemPayload), next_cursor: encodeCursor(p.next) });
  });

  app.get('/v1/threads/:id/turns', (c) => {
    const q = readQuery(c, PageQuery);
    const t = mustThread(c.req.param('id'));
    const p = store.turnsPage(t.id, { after: decodeCursor(q.cursor), limit: pageLimit(q.limit) });
    return c.json({ turns: p.rows.map(turnPayload), next_cursor: encodeCursor(p.next) });
  });

  app.get('/v1/threads/:id/turns/:turn', (c) => {
    const t = mustThread(c.req.param('id'));
    const turn = store.getTurn(c.req.param('turn'));
    if (!turn || turn.threadId !== t.id) throw new ApiError('not_found', 'no such turn on this thread');
    return c.json({ turn: turnPayload(turn), items: store.listItems(t.id, turn.id).map(itemPayload) });
  });

  app.post('/v1/threads/:id/turns', async (c) => {
    const body = await readJson(c, CreateTurnBody);
    const t = mustThread(c.req.param('id'));
    if (shuttingDown()) throw new ApiError('unavailable', 'the server is shutting down');
    if (t.activeTurnId) throw new ApiError('conflict', `a turn is already running on this thread (${t.activeTurnId}); interrupt it or wait for turn.completed`);
    if (t.archivedAt !== null) throw new ApiError('conflict', 'the thread is archived; unarchive it first');
    if (runner.activeCount >= maxTurns) {
      throw new ApiError('too_many_requests', `${maxTurns} threads are already running turns; retry later`, { headers: { 'Retry-After': '5' } });
    }
    // Stored (and streamed) without credentials; the model gets the prompt as the client sent it.
    const started = store.startTurn(t.id, {
      prompt: displaySafe(redact(body.prompt, deps.secrets ?? [])),
      mode: body.mode ? parseMode(body.mode)! : t.mode,
      posture: body.posture ? parsePosture(body.posture)! : t.posture,
      model: body.model ?? t.model,
    });
    if (!started) throw new ApiError('conflict', 'a turn is already running on this thread');
    runner.start(store.getThread(t.id)!, { ...started.turn, prompt: body.prompt });
    return c.json({ thread: threadJson(store.getThread(t.id)!), turn: turnPayload(started.turn) }, 201);
  });

  const mustRunningTurn = (c: Context) => {
    const t = mustThread(c.req.param('id')!);
    const turn = store.getTurn(c.req.param('turn')!);
    if (!turn || turn.threadId !== t.id) throw new ApiError('not_found', 'no such turn on this thread');
    if (turn.status !== 'in_progress') throw new ApiError('conflict', `the turn is not running (${turn.status})`);
    return { thread: t, turn };
  };

  app.post('/v1/threads/:id/turns/:turn/interrupt', (c) => {
    const { thread, turn } = mustRunningTurn(c);
    runner.interrupt(thread.id, turn.id);
    return c.json({ interrupted: true, turn_id: turn.id }, 202);
  });

  app.post('/v1/threads/:id/turns/:turn/steer', async (c) => {
    const body = await readJson(c, SteerBody);
    const { thread, turn } = mustRunningTurn(c);
    const r = await runner.steer(thread.id, turn.id, body.prompt);
    if (r.kind === 'idle') throw new ApiError('conflict', 'the turn ended before the text could be added');
    return c.json({ steered: r.kind === 'steered', ...(r.kind === 'blocked' ? { blocked: true, reason: r.reason } : {}) }, 202);
  });

  /**
   * A stream's cursor: `Last-Event-ID` (what browsers send on reconnect), else `?since_seq=`,
   * else 0. A cursor ahead of the log is refused with the head: it is not this server's (or
   * the database was replaced), and following it would silently skip the events up to it.
   */
  const streamCursor = (c: Context): number => {
    const q = readQuery(c, EventsQuery);
    const header = c.req.header('last-event-id');
    let cursor = 0;
    if (header !== undefined && header.trim() !== '') {
      if (!/^\d{1,15}$/.test(header.trim()))
        throw new ApiError('invalid_request', 'Last-Event-ID must be an event seq', { issues: [{ path: 'Last-Event-ID', code: 'invalid_string', message: 'a non-negative integer' }] });
      cursor = Number(header.trim());
    } else if (q.since_seq !== undefined) cursor = Number(q.since_seq);
    refuseAhead(cursor);
    return cursor;
  };
  const refuseAhead = (cursor: number) => {
    const head = store.headSeq();
    if (cursor > head) throw new ApiError('conflict', `the cursor ${cursor} is ahead of the event log (head ${head}); resume from head_seq or re-read the threads`, { headSeq: head });
  };

  app.get('/v1/threads/:id/events', (c) => {
    const t = mustThread(c.req.param('id'));
    return streamThreadEvents(c, deps, t.id, streamCursor(c), deps.sse);
  });

  app.get('/v1/events', (c) => streamThreadEvents(c, deps, null, streamCursor(c), deps.sse));

  app.get('/v1/event-log', (c) => {
    const q = readQuery(c, EventLogQuery);
    const after = decodeCursor(q.cursor) ?? 0;
    refuseAhead(after);
    const threadId = q.thread_id ?? null;
    const pruned = threadId === null ? store.prunedThroughSeq() : mustThread(threadId).prunedThroughSeq;
    const limit = pageLimit(q.limit);
    const rows = store.eventsSince(threadId, after, limit + 1);
    const kept = rows.slice(0, limit);
    return c.json({
      events: kept.map(eventEnvelope),
      next_cursor: rows.length > limit ? encodeCursor(kept[kept.length - 1]!.seq) : null,
      head_seq: store.headSeq(),
      stale: after < pruned,
    });
  });

  app.get('/v1/approvals', (c) => {
    const q = readQuery(c, ApprovalsQuery);
    const p = store.approvalsPage({ after: decodeCursor(q.cursor), limit: pageLimit(q.limit), ...(q.status ? { status: q.status } : {}), ...(q.thread_id ? { threadId: q.thread_id } : {}) });
    return c.json({ approvals: p.rows.map(approvalPayload), next_cursor: encodeCursor(p.next) });
  });

  app.get('/v1/approvals/:id', (c) => {
    const a = store.getApproval(c.req.param('id'));
    if (!a) throw new ApiError('not_found', 'no such approval');
    return c.json({ approval: approvalPayload(a) });
  });

  app.post('/v1/approvals/:id', async (c) => {
    const body = await readJson(c, ApprovalBody);
    const scope = body.scope ?? (body.remember ? 'session' : 'once');
    if (body.scope !== undefined && body.remember !== undefined && body.remember !== (body.scope !== 'once'))
      throw new ApiError('invalid_request', 'remember and scope disagree', { issues: [{ path: 'remember', code: 'conflict', message: 'send scope alone' }] });
    if (body.decision === 'deny' && body.scope !== undefined && body.scope !== 'once')
      throw new ApiError('invalid_request', 'a denial is for this call only', { issues: [{ path: 'scope', code: 'invalid_value', message: 'scope applies to allow' }] });
    // Always: the engine writes the rule and applies it in the thread's session before the call runs.
    const r = broker.answer(c.req.param('id'), body.decision, scope);
    if (!r.ok) {
      if (r.reason === 'not_found') throw new ApiError('not_found', 'no such approval');
      if (r.reason === 'cannot_remember')
        throw new ApiError('unprocessable', `nothing was remembered and the approval is still pending: ${r.message}`, { issues: [{ path: 'scope', code: 'cannot_remember', message: r.message }] });
      throw new ApiError('conflict', `the approval was already ${r.approval?.status === 'expired' ? 'expired (denied)' : `decided (${r.approval?.decision})`}`);
    }
    return c.json({ approval: approvalPayload(r.approval) });
  });

  app.get('/v1/user-inputs', (c) => {
    const q = readQuery(c, UserInputsQuery);
    const p = store.userInputsPage({ after: decodeCursor(q.cursor), limit: pageLimit(q.limit), ...(q.status ? { status: q.status } : {}), ...(q.thread_id ? { threadId: q.thread_id } : {}) });
    return c.json({ user_inputs: p.rows.map(userInputPayload), next_cursor: encodeCursor(p.next) });
  });

  app.get('/v1/user-inputs/:id', (c) => {
    const u = store.getUserInput(c.req.param('id'));
    if (!u) throw new ApiError('not_found', 'no such user input');
    return c.json({ user_input: userInputPayload(u) });
  });

  app.post('/v1/user-inputs/:id', async (c) => {
    const body = await readJson(c, UserInputBody);
    const r = broker.answerUserInput(c.req.param('id'), body.answers);
    if (!r.ok) {
      if (r.reason === 'not_found') throw new ApiError('not_found', 'no such user input');
      if (r.reason === 'invalid') throw new ApiError('invalid_request', 'the answers do not fit the questions', { issues: r.issues });
      throw new ApiError('conflict', `the questions were already ${r.input?.status === 'expired' ? 'expired (nobody answered in time, or the turn ended)' : 'answered'}`);
    }
    return c.json({ user_input: userInputPayload(r.input) });
  });

  app.get('/v1/hooks', (c) => {
    const q = readQuery(c, HooksQuery);
    if (!q.thread_id) return c.json(deps.hooksList(deps.defaultWorkspace));
    const t = mustThread(q.thread_id);
    // The hooks the thread's session runs when it has one open; otherwise what it would load.
    return c.json(deps.hooksList(t.workspace, runner.liveHooks?.(t.id) ?? null));
  });

  return app;
}
