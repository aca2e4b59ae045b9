import { z } from 'zod';
import { STATUS_OF } from './api-error.js';
import * as S from './schemas.js';

const schema = (s: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any', reused: 'inline' }) as Record<string, unknown>;
  return rest;
};
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string, description: string) => ({ description, content: { 'application/json': { schema: ref(name) } } });
const err = (description: string) => json('Error', description);
const pathParam = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });

/**
 * A query string carries text, which the zod schemas check as text; a client sends these as
 * numbers and booleans, so the document types them so (the same bounds as the zod checks).
 */
const QUERY_TYPES: Readonly<Record<string, Record<string, unknown>>> = {
  limit: { type: 'integer', minimum: 1, maximum: S.PAGE_MAX, default: S.PAGE_DEFAULT },
  since_seq: { type: 'integer', minimum: 0 },
  archived: { type: 'boolean', default: false },
};

/** Query parameters of an operation, from the zod schema that validates them. */
function queryParams(q: z.ZodObject): Record<string, unknown>[] {
  const props = (schema(q, 'input').properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: 'query',
    required: false,
    ...(s.description ? { description: s.description } : {}),
    schema: QUERY_TYPES[name] ?? s,
  }));
}

interface Op {
  readonly id: string;
  readonly summary: string;
  /** Public routes need no token; every other one answers 401 and 403. */
  readonly public?: boolean;
  readonly path?: readonly (readonly [string, string])[];
  readonly query?: z.ZodObject;
  readonly headers?: readonly Record<string, unknown>[];
  readonly body?: string;
  readonly ok: readonly [status: number, schema: string, description: string] | readonly [status: number, 'sse', description: string];
  /** Statuses this route answers besides the common ones, with why. */
  readonly errors?: Readonly<Record<number, string>>;
}

function operation(op: Op): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  const [status, body, description] = op.ok;
  responses[String(status)] =
    body === 'sse'
      ? { description, content: { 'text/event-stream': { schema: { type: 'string', description: 'server-sent events; each `data:` is a StreamFrame' }, 'x-event-schema': ref('StreamFrame') } } }
      : json(body, description);
  if (op.body || op.query || op.headers) responses['400'] = err('malformed JSON, or an invalid body, query or header (zod issues)');
  if (!op.public) {
    responses['401'] = err('missing or wrong token');
    responses['403'] = err('a foreign Host or Origin, a cookie write without Origin and JSON, or a process this server started');
  } else responses['403'] = err('a foreign Host or Origin');
  if (op.body) responses['413'] = err('the body is over the size cap (1 MiB)');
  for (const [s, why] of Object.entries(op.errors ?? {})) responses[s] = err(why);
  responses['500'] = err('an internal error (never with a stack trace), or the server config.toml cannot be used');
  return {
    operationId: op.id,
    summary: op.summary,
    ...(op.public ? { security: [] } : {}),
    ...(op.path || op.query || op.headers ? { parameters: [...(op.path ?? []).map(([n, d]) => pathParam(n, d)), ...(op.query ? queryParams(op.query) : []), ...(op.headers ?? [])] } : {}),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(op.body) } } } } : {}),
    responses,
  };
}

const THREAD: readonly [string, string] = ['id', 'thread id (thr_…)'];
const TURN: readonly [string, string] = ['turn', 'turn id (turn_…)'];
const APPROVAL: readonly [string, string] = ['id', 'approval id (appr_…)'];
const LAST_EVENT_ID = { name: 'Last-Event-ID', in: 'header', required: false, description: 'resume after this seq (wins over since_seq)', schema: { type: 'string', pattern: '^\\d{1,15}$' } };
const AHEAD = 'a turn is running / the cursor is ahead of the event log (error.head_seq says where the log ends)';

/** Every route of the API: method, path (OpenAPI form) and its operation. */
export const OPERATIONS: readonly (readonly [method: 'get' | 'post' | 'delete', path: string, op: Op])[] = [
  ['get', '/health', { id: 'getHealth', summary: 'liveness (public); "stopping" during a graceful stop', public: true, ok: [200, 'Health', 'OK'] }],
  ['get', '/v1/runtime/info', { id: 'getRuntimeInfo', summary: 'server facts (public)', public: true, ok: [200, 'RuntimeInfo', 'OK'] }],
  [
    'post',
    '/v1/session',
    {
      id: 'createSession',
      summary: 'log a browser in (public): the token, or a one-time code from `serve --open`, for an HttpOnly SameSite=Strict session cookie',
      public: true,
      body: 'SessionBody',
      ok: [200, 'Session', 'logged in; Set-Cookie carries the session cookie'],
      errors: { 401: 'wrong token, or a code that is unknown, used or expired' },
    },
  ],
  ['get', '/v1/session', { id: 'getSession', summary: 'whether the request is logged in (public; never 401)', public: true, ok: [200, 'Session', 'OK'] }],
  ['delete', '/v1/session', { id: 'deleteSession', summary: 'log a browser out (public): the session cookie is cleared', public: true, ok: [200, 'Session', 'logged out'] }],
  ['get', '/v1/openapi.json', { id: 'getOpenApi', summary: 'this document', ok: [200, 'OpenApiDocument', 'the OpenAPI 3.1 document'] }],
  ['post', '/v1/threads', { id: 'createThread', summary: 'create a thread', body: 'CreateThreadBody', ok: [201, 'ThreadResult', 'Created'], errors: { 503: 'the server is shutting down' } }],
  ['get', '/v1/threads', { id: 'listThreads', summary: 'threads, newest first, a page at a time', query: S.ThreadsQuery, ok: [200, 'ThreadPage', 'OK'] }],
  ['get', '/v1/threads/{id}', { id: 'getThread', summary: 'a thread with its turns and pending approvals', path: [THREAD], ok: [200, 'ThreadDetail', 'OK'], errors: { 404: 'unknown thread' } }],
  [
    'delete',
    '/v1/threads/{id}',
    {
      id: 'deleteThread',
      summary: 'delete an idle thread and everything of it (thread.deleted)',
      path: [THREAD],
      ok: [200, 'Deleted', 'Deleted'],
      errors: { 404: 'unknown thread', 409: 'a turn is running' },
    },
  ],
  [
    'post',
    '/v1/threads/{id}/archive',
    { id: 'archiveThread', summary: 'hide an idle thread from the default list', path: [THREAD], ok: [200, 'ThreadResult', 'OK'], errors: { 404: 'unknown thread', 409: 'a turn is running' } },
  ],
  [
    'post',
    '/v1/threads/{id}/unarchive',
    { id: 'unarchiveThread', summary: 'bring an archived thread back', path: [THREAD], ok: [200, 'ThreadResult', 'OK'], errors: { 404: 'unknown thread', 409: 'a turn is running' } },
  ],
  [
    'get',
    '/v1/threads/{id}/items',
    { id: 'listItems', summary: "a thread's items, oldest first, a page at a time", path: [THREAD], query: S.PageQuery, ok: [200, 'ItemPage', 'OK'], errors: { 404: 'unknown thread' } },
  ],
  [
    'get',
    '/v1/threads/{id}/turns',
    { id: 'listTurns', summary: "a thread's turns, oldest first, a page at a time", path: [THREAD], query: S.PageQuery, ok: [200, 'TurnPage', 'OK'], errors: { 404: 'unknown thread' } },
  ],
  [
    'post',
    '/v1/threads/{id}/turns',
    {
      id: 'createTurn',
      summary: 'start a turn (it runs in the background and ends with turn.completed)',
      path: [THREAD],
      body: 'CreateTurnBody',
      ok: [201, 'TurnStarted', 'Created'],
      errors: { 404: 'unknown thread', 409: 'a turn is already running, or the thread is archived', 429: 'too many threads are running turns (see Retry-After)', 503: 'the server is shutting down' },
    },
  ],
  ['get', '/v1/threads/{id}/turns/{turn}', { id: 'getTurn', summary: 'one turn with its items', path: [THREAD, TURN], ok: [200, 'TurnDetail', 'OK'], errors: { 404: 'unknown thread or turn' } }],
  [
    'post',
    '/v1/threads/{id}/turns/{turn}/interrupt',
    {
      id: 'interruptTurn',
      summary: 'interrupt the running turn',
      path: [THREAD, TURN],
      ok: [202, 'Interrupted', 'Accepted'],
      errors: { 404: 'unknown thread or turn', 409: 'the turn is not running' },
    },
  ],
  [
    'post',
    '/v1/threads/{id}/turns/{turn}/steer',
    {
      id: 'steerTurn',
      summary: 'add text to the running turn',
      path: [THREAD, TURN],
      body: 'SteerBody',
      ok: [202, 'Steered', 'Accepted'],
      errors: { 404: 'unknown thread or turn', 409: 'the turn is not running' },
    },
  ],
  [
    'get',
    '/v1/threads/{id}/events',
    {
      id: 'streamThreadEvents',
      summary: "one thread's events: replay after the cursor, then live",
      path: [THREAD],
      query: S.EventsQuery,
      headers: [LAST_EVENT_ID],
      ok: [200, 'sse', 'text/event-stream of StreamFrame'],
      errors: { 404: 'unknown thread', 409: AHEAD },
    },
  ],
  [
    'get',
    '/v1/events',
    {
      id: 'streamEvents',
      summary: "every thread's events in one stream: replay after the cursor, then live",
      query: S.EventsQuery,
      headers: [LAST_EVENT_ID],
      ok: [200, 'sse', 'text/event-stream of StreamFrame'],
      errors: { 409: AHEAD },
    },
  ],
  [
    'get',
    '/v1/event-log',
    {
      id: 'listEvents',
      summary: 'the stored events (all threads or one) as JSON pages, oldest first',
      query: S.EventLogQuery,
      ok: [200, 'EventPage', 'OK'],
      errors: { 404: 'unknown thread', 409: AHEAD },
    },
  ],
  ['get', '/v1/approvals', { id: 'listApprovals', summary: 'approvals across threads, oldest first, a page at a time', query: S.ApprovalsQuery, ok: [200, 'ApprovalPage', 'OK'] }],
  ['get', '/v1/approvals/{id}', { id: 'getApproval', summary: 'one approval', path: [APPROVAL], ok: [200, 'ApprovalResult', 'OK'], errors: { 404: 'unknown approval' } }],
  [
    'post',
    '/v1/approvals/{id}',
    {
      id: 'answerApproval',
      summary: 'answer a pending approval',
      path: [APPROVAL],
      body: 'ApprovalBody',
      ok: [200, 'ApprovalResult', 'OK'],
      errors: { 404: 'unknown approval', 409: 'already decided or expired', 422: 'scope always: no rule can remember this call (the approval stays pending)' },
    },
  ],
  [
    'get',
    '/v1/user-inputs',
    { id: 'listUserInputs', summary: 'questions the model asked (request_user_input), across threads, oldest first', query: S.UserInputsQuery, ok: [200, 'UserInputPage', 'OK'] },
  ],
  ['get', '/v1/user-inputs/{id}', { id: 'getUserInput', summary: 'one set of questions', path: [['id', 'user input id (uin_…)']], ok: [200, 'UserInputResult', 'OK'], errors: { 404: 'unknown id' } }],
  [
    'post',
    '/v1/user-inputs/{id}',
    {
      id: 'answerUserInput',
      summary: 'answer pending questions (every question, by its id)',
      path: [['id', 'user input id (uin_…)']],
      body: 'UserInputBody',
      ok: [200, 'UserInputResult', 'OK'],
      errors: { 404: 'unknown id', 409: 'already answered or expired' },
    },
  ],
  ['get', '/v1/hooks', { id: 'getHooks', summary: 'the hooks list model as JSON', query: S.HooksQuery, ok: [200, 'Hooks', 'OK'], errors: { 404: 'unknown thread' } }],
];

/** Control frames of a stream (no `id:`), by `event:` name. */
const CONTROL = { 'server.connected': 'ServerConnected', stale_cursor: 'StaleCursor', 'server.stopping': 'ServerStopping' } as const;

/**
 * The OpenAPI 3.1 document, built from the same zod schemas that validate requests (and that
 * the tests check responses and events against), so the document and the server cannot drift.
 */
export function openApiDocument(version: string): Record<string, unknown> {
  const events = Object.keys(S.EVENT_SCHEMAS).map((name) => `Event_${name.replace('.', '_')}`);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [method, path, op] of OPERATIONS) (paths[path] ??= {})[method] = operation(op);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Codewhale Runtime API',
      version,
      description: `Every error is {"error": {"code", "message", "issues"?}} with the status of its code: ${Object.entries(STATUS_OF)
        .map(([c, s]) => `${c} ${s}`)
        .join(', ')}. Events are server-sent events; each carries id: <seq>.`,
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        header: { type: 'apiKey', in: 'header', name: 'X-Codewhale-Runtime-Token' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'codewhale_runtime_token' },
      },
      schemas: {
        CreateThreadBody: schema(S.CreateThreadBody, 'input'),
        CreateTurnBody: schema(S.CreateTurnBody, 'input'),
        SteerBody: schema(S.SteerBody, 'input'),
        ApprovalBody: schema(S.ApprovalBody, 'input'),
        SessionBody: schema(S.SessionBody, 'input'),
        Session: schema(S.SessionJson),
        UserInputBody: schema(S.UserInputBody, 'input'),
        UserInput: schema(S.UserInputJson),
        UserInputPage: schema(S.UserInputPageJson),
        UserInputResult: schema(S.UserInputResultJson),
        Thread: schema(S.ThreadJson),
        Turn: schema(S.TurnJson),
        Item: schema(S.ItemJson),
        Approval: schema(S.ApprovalJson),
        Usage: schema(S.UsageJson),
        DecisionRecord: schema(S.DecisionRecordJson),
        Error: schema(S.ErrorJson),
        Health: schema(S.HealthJson),
        RuntimeInfo: schema(S.RuntimeInfoJson),
        OpenApiDocument: { type: 'object', additionalProperties: true },
        ThreadPage: schema(S.ThreadPageJson),
        ThreadDetail: schema(S.ThreadDetailJson),
        ThreadResult: schema(S.ThreadResultJson),
        Deleted: schema(S.DeletedJson),
        TurnPage: schema(S.TurnPageJson),
        TurnDetail: schema(S.TurnDetailJson),
        TurnStarted: schema(S.TurnStartedJson),
        ItemPage: schema(S.ItemPageJson),
        ApprovalPage: schema(S.ApprovalPageJson),
        ApprovalResult: schema(S.ApprovalResultJson),
        EventPage: schema(S.EventPageJson),
        Interrupted: schema(S.InterruptedJson),
        Steered: schema(S.SteeredJson),
        Hooks: schema(S.HooksJson),
        ...Object.fromEntries(Object.entries(S.EVENT_SCHEMAS).map(([name, s]) => [`Event_${name.replace('.', '_')}`, schema(s)])),
        Event: {
          oneOf: events.map(ref),
          discriminator: { propertyName: 'event', mapping: Object.fromEntries(Object.keys(S.EVENT_SCHEMAS).map((name) => [name, ref(`Event_${name.replace('.', '_')}`).$ref])) },
        },
        ServerConnected: schema(S.ServerConnectedJson),
        StaleCursor: schema(S.StaleCursorJson),
        ServerStopping: schema(S.ServerStoppingJson),
        StreamFrame: {
          description: 'one server-sent event: `event:` is the name below, `data:` the JSON; stored events also carry `id: <seq>`',
          oneOf: [
            { type: 'object', required: ['event', 'id', 'data'], properties: { event: { type: 'string' }, id: { type: 'string' }, data: ref('Event') } },
            ...Object.entries(CONTROL).map(([event, name]) => ({ type: 'object', required: ['event', 'data'], properties: { event: { const: event }, data: ref(name) } })),
          ],
        },
      },
    },
    security: [{ bearer: [] }, { header: [] }, { cookie: [] }],
    paths,
  };
}
