import SwaggerParser from '@apidevtools/swagger-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/http/openapi.js';
import { auth, rig, type Rig } from './support.js';

const rigs: Rig[] = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close();
});

type Doc = { paths: Record<string, Record<string, { operationId: string; security?: unknown[]; requestBody?: unknown; parameters?: { in: string }[]; responses: Record<string, unknown> }>> };

const operations = (doc: Doc) => Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (schema and $refs)', async () => {
    const doc = openApiDocument('1.2.3');
    expect(doc.openapi).toBe('3.1.0');
    // validate() dereferences in place: hand it a copy.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('documents exactly the routes the server registers, method by method', async () => {
    const r = rig();
    rigs.push(r);
    const served = new Set(r.app.routes.filter((x) => x.method !== 'ALL').map((x) => `${x.method.toLowerCase()} ${x.path.replace(/:([a-z_]+)/g, '{$1}')}`));
    const documented = new Set(operations(openApiDocument('1')).map((o) => `${o.method} ${o.path}`));
    expect([...served].sort()).toEqual([...documented].sort());
    // The document the server serves is this one.
    const res = await r.app.request('/v1/openapi.json', { headers: auth });
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument('0.0.0-test'))));
  });

  it('gives every operation a unique operationId and every status it can answer', () => {
    const ops = operations(openApiDocument('1') as Doc);
    const ids = ops.map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of ops) {
      const statuses = Object.keys(op.responses);
      const where = `${method} ${path}`;
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      // Every route under /v1 but the info and login routes needs the token.
      expect(isPublic, where).toBe(path === '/health' || path === '/v1/runtime/info' || path === '/v1/session');
      if (!isPublic) expect(statuses, where).toEqual(expect.arrayContaining(['401', '403']));
      expect(statuses, where).toEqual(expect.arrayContaining(['403', '500']));
      if (op.requestBody) expect(statuses, where).toEqual(expect.arrayContaining(['400', '413']));
      if ((op.parameters ?? []).some((p) => p.in === 'query' || p.in === 'header')) expect(statuses, where).toContain('400');
      if (path.includes('{')) expect(statuses, where).toContain('404');
      expect(
        statuses.filter((s) => /^2\d\d$/.test(s)),
        where,
      ).toHaveLength(1);
    }
  });

  it('types every event the store can append', () => {
    const doc = openApiDocument('1') as { components: { schemas: Record<string, { oneOf?: { $ref: string }[] }> } };
    const names = doc.components.schemas.Event!.oneOf!.map((x) => x.$ref.replace('#/components/schemas/Event_', ''));
    expect(names.sort()).toEqual(
      [
        'thread_started',
        'thread_archived',
        'thread_unarchived',
        'thread_deleted',
        'turn_started',
        'turn_completed',
        'item_started',
        'item_delta',
        'item_completed',
        'item_failed',
        'approval_required',
        'approval_decided',
        'approval_timeout',
        'user_input_required',
        'user_input_answered',
        'user_input_timeout',
      ].sort(),
    );
  });
});
