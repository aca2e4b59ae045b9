#!/usr/bin/env node
// `pnpm bench`: runs every benchmark in bench/ against the built packages and prints one table.
// Each benchmark measures its baseline in the same run (e.g. a bare `sh -c true` spawn) and
// reports a ratio, so numbers compare across machines. Results also go to .bench-results/.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);
const files = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
const all = [];
for (const file of files) {
  const mod = await import(join(root, 'bench', file));
  process.stderr.write(`running ${file}…\n`);
  const rows = await mod.run();
  for (const row of rows) all.push({ bench: file.replace('.bench.mjs', ''), ...row });
}
const width = Math.max(...all.map((r) => r.name.length), 10);
console.log(`${'benchmark'.padEnd(width)}  ${'value'.padStart(14)}  unit        note`);
for (const r of all) console.log(`${r.name.padEnd(width)}  ${String(r.value).padStart(14)}  ${(r.unit ?? '').padEnd(10)}  ${r.note ?? ''}`);
mkdirSync(join(root, '.bench-results'), { recursive: true });
writeFileSync(join(root, '.bench-results', 'latest.json'), JSON.stringify({ node: process.version, at: new Date().toISOString(), results: all }, null, 2));
