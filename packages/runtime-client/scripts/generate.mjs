#!/usr/bin/env node
// Generates src/schema.ts (the types of every path, operation and schema) from the Runtime
// API's OpenAPI document, as the server builds it. Run by the build; the tests check that
// running it again changes nothing, so the committed types always match the server.
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const BANNER = `/**
 * Generated from the Codewhale Runtime API's OpenAPI document by scripts/generate.mjs
 * (openapi-typescript). Do not edit: change the server's schemas and rebuild.
 */
`;

/** The generated TypeScript for an OpenAPI document. */
export async function generateSchema(document) {
  // The version is the server's, not part of the contract: left out so a release changes nothing here.
  const doc = { ...document, info: { ...document.info, version: '0' } };
  const ast = await openapiTS(doc, { alphabetize: true, exportType: true });
  return BANNER + astToString(ast);
}

export const SCHEMA_FILE = fileURLToPath(new URL('../src/schema.ts', import.meta.url));

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { openApiDocument } = await import('@codewhale/runtime-api');
  writeFileSync(SCHEMA_FILE, await generateSchema(openApiDocument('0')));
}
