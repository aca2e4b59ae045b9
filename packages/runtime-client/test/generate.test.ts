import { readFileSync } from 'node:fs';
import { openApiDocument } from '@codewhale/runtime-api';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types
import { generateSchema, SCHEMA_FILE } from '../scripts/generate.mjs';

describe('the generated types', () => {
  it('are what generating them from the server’s OpenAPI document gives now (no diff)', async () => {
    const fresh: string = await generateSchema(openApiDocument('1.2.3'));
    // Were the committed file stale, this names the first line that differs.
    const committed = readFileSync(SCHEMA_FILE as string, 'utf8').split('\n');
    const now = fresh.split('\n');
    const first = now.findIndex((l, i) => l !== committed[i]);
    expect(first === -1 && now.length === committed.length ? null : { line: first + 1, committed: committed[first], generated: now[first] }).toBeNull();
  });

  it('name every operation of the document', async () => {
    const doc = openApiDocument('1') as { paths: Record<string, Record<string, { operationId: string }>> };
    const text = readFileSync(SCHEMA_FILE as string, 'utf8');
    for (const ops of Object.values(doc.paths)) for (const op of Object.values(ops)) expect(text).toContain(`    ${op.operationId}: {`);
  });
});
