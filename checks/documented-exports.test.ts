/**
 * A package exports what its README documents: every name an entry point of these packages
 * exports (read from the built `.d.ts`, types included) appears in the package's README.
 * `/internal` entry points are for Codewhale's own packages and are not checked.
 *
 * Needs the packages built (`pnpm test` builds first).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const CHECKED = ['hooks-supervisor', 'engine', 'hooks', 'hooks-ai-sdk'];

/** The names a declaration file exports (`export { a, b as c, type d }` and `export declare …`). */
function exportedNames(dts: string): string[] {
  const names = new Set<string>();
  for (const m of dts.matchAll(/^export\s*\{([^}]*)\}/gm)) {
    for (const part of m[1]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()!
        .trim();
      if (name) names.add(name);
    }
  }
  for (const m of dts.matchAll(/^export\s+declare\s+(?:abstract\s+)?(?:function|class|const|let|type|interface|enum)\s+([A-Za-z_$][\w$]*)/gm)) names.add(m[1]!);
  return [...names].sort();
}

/** The `.d.ts` of every public entry point of a package (its `exports` but `/internal` and `package.json`). */
function entryPoints(dir: string): { entry: string; dts: string }[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports: Record<string, { types?: string } | string> };
  return Object.entries(manifest.exports)
    .filter(([k, v]) => k !== './package.json' && !k.endsWith('/internal') && typeof v === 'object' && v.types)
    .map(([entry, v]) => ({ entry, dts: join(dir, (v as { types: string }).types) }));
}

describe('exportedNames', () => {
  it('reads export lists, renames and declarations', () => {
    expect(exportedNames('export { a, type B, c as D };\nexport declare function e(): void;\nexport declare class F {}\n')).toEqual(['B', 'D', 'F', 'a', 'e']);
  });
});

describe.each(CHECKED)('%s', (pkg) => {
  const dir = join(root, 'packages', pkg);
  it('documents every exported name in its README', () => {
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    for (const { entry, dts } of entryPoints(dir)) {
      expect(existsSync(dts), `${pkg}: ${dts} is missing (build first)`).toBe(true);
      const missing = exportedNames(readFileSync(dts, 'utf8')).filter((n) => !new RegExp(`\\b${n.replace(/\$/g, '\\$')}\\b`).test(readme));
      expect(missing, `${pkg} ${entry}: exported, not in README.md`).toEqual([]);
    }
  });
});
