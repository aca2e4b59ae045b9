#!/usr/bin/env node
// Build step: write the JSON Schemas of the hooks' stdin documents and stdout decisions
// (hook-io-schemas.mjs, with the bounds of the built package) to schema/, which is published
// and committed (the hook guide links to it); checks/hook-io-schema.test.ts fails when the
// committed files differ from what this writes.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIMITS } from '../dist/index.js';
import { hookIoSchemas } from './hook-io-schemas.mjs';

const out = fileURLToPath(new URL('../schema/', import.meta.url));
rmSync(out, { recursive: true, force: true });
for (const [file, schema] of Object.entries(hookIoSchemas(LIMITS))) {
  mkdirSync(dirname(`${out}${file}`), { recursive: true });
  writeFileSync(`${out}${file}`, `${JSON.stringify(schema, null, 2)}\n`);
}
