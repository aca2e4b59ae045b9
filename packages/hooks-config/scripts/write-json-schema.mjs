#!/usr/bin/env node
// Build step: write the JSON Schemas of config.toml and hooks.toml, built from the loader's own
// shapes, to schema/, which is published. dist/json-schema.js is not (see package.json `files`).
import { mkdirSync, writeFileSync } from 'node:fs';
import { hookConfigJsonSchema } from '../dist/json-schema.js';

const out = new URL('../schema/', import.meta.url);
mkdirSync(out, { recursive: true });
for (const which of ['config', 'hooks']) {
  writeFileSync(new URL(`${which}.schema.json`, out), `${JSON.stringify(hookConfigJsonSchema(which), null, 2)}\n`);
}
