#!/usr/bin/env node
// Build step: ship the web client (the @codewhale/web build) in the package as dist/web, so
// `codewhale serve` serves it at / from an installed copy, with no network at run time.
import { cpSync, existsSync } from 'node:fs';

const from = new URL('../../web/dist/web/', import.meta.url);
const to = new URL('../dist/web/', import.meta.url);
if (!existsSync(new URL('index.html', from))) {
  console.error('copy-web: packages/web/dist/web/index.html is missing; build @codewhale/web first');
  process.exit(1);
}
cpSync(from, to, { recursive: true });
