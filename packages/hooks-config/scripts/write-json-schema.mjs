#!/usr/bin/env node
// Build step: write the JSON Schemas of config.toml and hooks.toml from the built package
// (the same zod schemas the loader uses) to schema/, which is published.
import { mkdirSync, writeFileSync } from 'node:fs';
import { hookConfigJsonSchema } from '../dist/index.js';

const out = new URL('../schema/', import.meta.url);
mkdirSync(out, { recursive: true });
for (const which of ['config', 'hooks']) {
  writeFileSync(new URL(`${which}.schema.json`, out), `${JSON.stringify(hookConfigJsonSchema(which), null, 2)}\n`);
}
