import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importCycles, relativeImports, resolveImport } from './import-cycles.js';

const root = join(import.meta.dirname, '..');

/** Every non-test source file of every package, by repository path. */
function sources(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir))) {
      const rel = `${dir}/${entry}`;
      if (statSync(join(root, rel)).isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry)) out.set(rel, readFileSync(join(root, rel), 'utf8'));
    }
  };
  for (const pkg of readdirSync(join(root, 'packages'))) walk(`packages/${pkg}/src`);
  return out;
}

describe('file-level import cycles', () => {
  it('the repository has none', () => {
    expect(importCycles(sources())).toEqual([]);
  });

  it('finds a cycle through type-only imports and re-exports, and none in a chain', () => {
    const files = new Map([
      ['p/src/a.ts', "import type { B } from './b.js';\nexport type A = B;"],
      ['p/src/b.ts', "export { c } from './sub/c.js';\nexport type B = 1;"],
      ['p/src/sub/c.ts', "import '../a.js';\nexport const c = 1;"],
      ['p/src/d.ts', "import { c } from './sub/c.js';"],
    ]);
    expect(importCycles(files)).toEqual([['p/src/a.ts', 'p/src/b.ts', 'p/src/sub/c.ts']]);
    files.set('p/src/sub/c.ts', 'export const c = 1;');
    expect(importCycles(files)).toEqual([]);
  });

  it('resolves .js to .ts or .tsx, and a directory to its index', () => {
    const have = new Set(['x/a.ts', 'x/ui.tsx', 'x/dir/index.ts']);
    expect(resolveImport('x/m.ts', './a.js', (p) => have.has(p))).toBe('x/a.ts');
    expect(resolveImport('x/m.ts', './ui.js', (p) => have.has(p))).toBe('x/ui.tsx');
    expect(resolveImport('x/sub/m.ts', '../dir', (p) => have.has(p))).toBe('x/dir/index.ts');
    expect(resolveImport('x/m.ts', './missing.js', (p) => have.has(p))).toBeNull();
    expect(relativeImports("import a from 'zod';\nimport b from './b.js';\nexport * from '../c.js';")).toEqual(['./b.js', '../c.js']);
  });

  it('finds exactly the ring of any ring of files', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 5 }), (ring, tail) => {
        const files = new Map<string, string>();
        for (let i = 0; i < ring; i++) files.set(`r/f${i}.ts`, `import './f${(i + 1) % ring}.js';`);
        for (let i = 0; i < tail; i++) files.set(`r/t${i}.ts`, `import './${i === 0 ? 'f0' : `t${i - 1}`}.js';`);
        const cycles = importCycles(files);
        expect(cycles).toEqual([Array.from({ length: ring }, (_, i) => `r/f${i}.ts`).sort()]);
      }),
    );
  });
});
