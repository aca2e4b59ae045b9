import { z } from 'zod';
import { ApprovalBody, ApprovalJson, CreateThreadBody, CreateTurnBody, ErrorJson, EventEnvelope, ItemJson, SteerBody, ThreadJson, TurnJson } from './schemas.js';

const schema = (s: z.ZodType): Record<string, unknown> => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (s: unknown, description = 'OK') => ({ description, content: { 'application/json': { schema: s } } });
const err = (description: string) => json(ref('Error'), description);
const body = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
const idParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const common = { '400': err('malformed JSON or invalid parameters (zod issues)'), '401': err('missing or wrong token'), '413': err('body over the size cap') };

/**
 * The OpenAPI 3.1 document, built from the same zod schemas that validate requests, so the two
 * cannot drift.
 */
export function openApiDocument(version: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Codewhale Runtime API', version },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        header: { type: 'apiKey', in: 'header', name: 'X-Codewhale-Runtime-Token' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'codewhale_runtime_token' },
      },
      schemas: {
        CreateThreadBody: schema(CreateThreadBody),
        CreateTurnBody: schema(CreateTurnBody),
        SteerBody: schema(SteerBody),
        ApprovalBody: schema(ApprovalBody),
        Thread: schema(ThreadJson),
        Turn: schema(TurnJson),
        Item: schema(ItemJson),
        Approval: schema(ApprovalJson),
        Event: schema(EventEnvelope),
        Error: schema(ErrorJson),
      },
    },
    security: [{ bearer: [] }, { header: [] }, { cookie: [] }],
    paths: {
      '/health': { get: { summary: 'liveness (public)', security: [], responses: { '200': json({ type: 'object' }) } } },
      '/v1/runtime/info': { get: { summary: 'server facts (public)', security: [], responses: { '200': json({ type: 'object' }) } } },
      '/v1/openapi.json': { get: { summary: 'this document', responses: { '200': json({ type: 'object' }) } } },
      '/v1/threads': {
        post: { summary: 'create a thread', requestBody: body('CreateThreadBody'), responses: { '201': json({ type: 'object', properties: { thread: ref('Thread') } }, 'Created'), ...common } },
        get: { summary: 'list threads', responses: { '200': json({ type: 'object', properties: { threads: { type: 'array', items: ref('Thread') } } }), '401': common['401'] } },
      },
      '/v1/threads/{id}': {
        get: {
          summary: 'a thread with its turns and pending approvals',
          parameters: [idParam('id')],
          responses: { '200': json({ type: 'object', properties: { thread: ref('Thread'), turns: { type: 'array', items: ref('Turn') } } }), '404': err('unknown thread') },
        },
      },
      '/v1/threads/{id}/items': {
        get: {
          summary: "a thread's items, oldest first",
          parameters: [idParam('id')],
          responses: { '200': json({ type: 'object', properties: { items: { type: 'array', items: ref('Item') } } }), '404': err('unknown thread') },
        },
      },
      '/v1/threads/{id}/turns': {
        post: {
          summary: 'start a turn',
          parameters: [idParam('id')],
          requestBody: body('CreateTurnBody'),
          responses: {
            '201': json({ type: 'object', properties: { thread: ref('Thread'), turn: ref('Turn') } }, 'Created'),
            ...common,
            '404': err('unknown thread'),
            '409': err('a turn is already running on this thread'),
            '429': err('too many threads are running turns (see Retry-After)'),
          },
        },
      },
      '/v1/threads/{id}/turns/{turn}/interrupt': {
        post: {
          summary: 'interrupt the running turn',
          parameters: [idParam('id'), idParam('turn')],
          responses: { '202': json({ type: 'object' }, 'Accepted'), '404': err('unknown thread or turn'), '409': err('the turn is not running') },
        },
      },
      '/v1/threads/{id}/turns/{turn}/steer': {
        post: {
          summary: 'add text to the running turn',
          parameters: [idParam('id'), idParam('turn')],
          requestBody: body('SteerBody'),
          responses: { '202': json({ type: 'object' }, 'Accepted'), ...common, '404': err('unknown thread or turn'), '409': err('the turn is not running') },
        },
      },
      '/v1/threads/{id}/events': {
        get: {
          summary: 'server-sent events: replay after the cursor, then live',
          parameters: [
            idParam('id'),
            { name: 'since_seq', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
            { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'integer', minimum: 0 } },
          ],
          responses: { '200': { description: 'text/event-stream of Event', content: { 'text/event-stream': { schema: ref('Event') } } }, '400': common['400'], '404': err('unknown thread') },
        },
      },
      '/v1/approvals/{id}': {
        post: {
          summary: 'answer a pending approval',
          parameters: [idParam('id')],
          requestBody: body('ApprovalBody'),
          responses: { '200': json({ type: 'object', properties: { approval: ref('Approval') } }), ...common, '404': err('unknown approval'), '409': err('already decided or expired') },
        },
      },
      '/v1/hooks': {
        get: {
          summary: 'the hooks list model as JSON',
          parameters: [{ name: 'thread_id', in: 'query', required: false, schema: { type: 'string' } }],
          responses: { '200': json({ type: 'object' }), '404': err('unknown thread') },
        },
      },
    },
  };
}
