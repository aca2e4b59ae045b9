/**
 * The API reference (scripts/api-docs.mjs, TypeDoc) builds without a warning for every public
 * package, and no generated page links to a file that is not there. The output goes to a
 * temporary folder; `pnpm docs:api` writes .api-docs/ (not committed).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenLinks, generate } from '../scripts/api-docs.mjs';

const root = join(import.meta.dirname, '..');
const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'cw-api-docs-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const publicPackages = readdirSync(join(root, 'packages'))
  .map((d) => JSON.parse(readFileSync(join(root, 'packages', d, 'package.json'), 'utf8')) as { name: string; private?: boolean })
  .filter((m) => !m.private)
  .map((m) => m.name)
  .sort();

describe('the API reference', () => {
  it('generates without a TypeDoc warning or a broken link, one module per public package', () => {
    const out = join(temp(), 'api');
    const r = generate(out) as { ok: boolean; log: string; broken: string[] };
    expect(r.log).not.toMatch(/\[(warning|error)\]/);
    expect(r.broken).toEqual([]);
    expect(r.ok).toBe(true);
    const index = readFileSync(join(out, 'index.html'), 'utf8');
    const listed = [...index.matchAll(/<a href="modules\/[^"]+">(@codewhale\/[^<]+)<\/a>/g)].map((m) => m[1]!);
    expect([...new Set(listed)].sort()).toEqual(publicPackages);
  }, 600_000);

  it('the link check reports a page linking to a file that is missing, and nothing else', () => {
    const dir = temp();
    mkdirSync(join(dir, 'modules'));
    writeFileSync(join(dir, 'index.html'), '<a href="modules/a.html#x">a</a> <a href="modules/gone.html">g</a> <a href="https://typedoc.org/">t</a> <a href="#top">top</a>');
    writeFileSync(join(dir, 'modules', 'a.html'), '<a href="../index.html">home</a> <img src="../assets/icon.svg">');
    expect(brokenLinks(dir)).toEqual(['index.html: modules/gone.html', 'modules/a.html: ../assets/icon.svg']);
  });
});
