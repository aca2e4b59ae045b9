import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLayering, findImports, RANKS, type PackageInput } from './layering.js';

const root = join(import.meta.dirname, '..');

function sources(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir)) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(entry)) out.set(p.slice(root.length + 1), readFileSync(p, 'utf8'));
  }
  return out;
}

function repoPackages(): PackageInput[] {
  return readdirSync(join(root, 'packages')).map((dir) => {
    const pj = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as {
      name: string;
      dependencies?: Record<string, string>;
    };
    const files = new Map([...sources(join(root, 'packages', dir, 'src'))]);
    return { name: pj.name, dependencies: Object.keys(pj.dependencies ?? {}), files };
  });
}

const pkg = (name: string, dependencies: string[], files: Record<string, string> = {}): PackageInput => ({
  name,
  dependencies,
  files: new Map(Object.entries(files)),
});

describe('the repository', () => {
  it('has every package in a layer', () => {
    expect(
      repoPackages()
        .map((p) => p.name)
        .sort(),
    ).toEqual(Object.keys(RANKS).sort());
  });

  it('honours the layering: imports point down, no cycles, pure packages stay pure', () => {
    expect(checkLayering(repoPackages())).toEqual([]);
  });
});

describe('the layering check', () => {
  it('fails on an upward import', () => {
    const v = checkLayering([pkg('@codewhale/hooks-payloads', [], { 'a.ts': "import { x } from '@codewhale/hooks-config';" }), pkg('@codewhale/hooks-config', ['@codewhale/hooks-payloads'])]);
    expect(v.map((x) => x.rule)).toContain('upward-import');
    expect(v.find((x) => x.rule === 'upward-import')!.where).toBe('a.ts:1');
  });

  it('fails on an upward declared dependency and on a cycle', () => {
    const v = checkLayering([pkg('@codewhale/hooks-payloads', ['@codewhale/hooks-conditions']), pkg('@codewhale/hooks-conditions', ['@codewhale/hooks-payloads'])]);
    expect(v.map((x) => x.rule)).toEqual(expect.arrayContaining(['upward-import', 'cycle']));
    expect(v.find((x) => x.rule === 'cycle')!.message).toMatch(/hooks-payloads -> @codewhale\/hooks-conditions -> @codewhale\/hooks-payloads/);
  });

  it('fails on an undeclared cross-package import', () => {
    const v = checkLayering([pkg('@codewhale/engine', [], { 'e.ts': "export { y } from '@codewhale/hooks-payloads';" }), pkg('@codewhale/hooks-payloads', [])]);
    expect(v.map((x) => x.rule)).toEqual(['undeclared-import']);
  });

  it('fails when a pure package imports a node: runtime value, but not for a type-only import', () => {
    const bad = checkLayering([pkg('@codewhale/hooks-config', [], { 'c.ts': "import { readFileSync } from 'node:fs';\nimport fs from 'fs';" })]);
    expect(bad.filter((x) => x.rule === 'pure-node-import').map((x) => x.where)).toEqual(['c.ts:1', 'c.ts:2']);
    const dyn = checkLayering([pkg('@codewhale/hooks-config', [], { 'c.ts': "const m = await import('node:child_process');" })]);
    expect(dyn.map((x) => x.rule)).toEqual(['pure-node-import']);
    const ok = checkLayering([pkg('@codewhale/hooks-config', [], { 'c.ts': "import type { Stats } from 'node:fs';\nimport { type Dirent } from 'node:fs';" })]);
    expect(ok).toEqual([]);
  });

  it('fails when a pure package uses a Node global, ignoring comments and strings', () => {
    expect(checkLayering([pkg('@codewhale/hooks-payloads', [], { 'p.ts': 'const a = process.env.HOME;' })]).map((x) => x.rule)).toEqual(['pure-node-global']);
    expect(checkLayering([pkg('@codewhale/hooks-payloads', [], { 'p.ts': "// process.env\nconst s = 'Buffer.from';\n/* require('x') */" })])).toEqual([]);
  });

  it('lets a surface use node: modules and lower packages', () => {
    expect(
      checkLayering([pkg('@codewhale/cli', ['@codewhale/engine'], { 'c.ts': "import { spawn } from 'node:child_process';\nimport { x } from '@codewhale/engine';" }), pkg('@codewhale/engine', [])]),
    ).toEqual([]);
  });

  it('finds imports of every form', () => {
    const refs = findImports("import a from 'a';\nimport type { B } from 'b';\nexport * from 'c';\nimport 'd';\nconst e = await import('e');\nconst f = require('f');\n// import g from 'g';");
    expect(refs.map((r) => [r.specifier, r.typeOnly])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
      ['d', false],
      ['e', false],
      ['f', false],
    ]);
  });
});
