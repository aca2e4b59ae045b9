import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { sourceDigest } from '../scripts/source-digest.mjs';

// The prepack guard refuses a package whose build is missing or stale. It judges by the
// digest of src/ the build recorded, so touching a file is not a change and an edit is, and
// falls back to modification times for a build without a digest.

const root = new URL('..', import.meta.url).pathname;
const digest = sourceDigest as (dir: string) => string;

/** A package folder as the build leaves it: sources, a test, the built entry, the digest. */
function builtPackage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cw-guard-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@codewhale/guarded', exports: { '.': './dist/index.js' } }));
  mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
  writeFileSync(join(dir, 'src', 'index.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'src', 'deep', 'b.ts'), 'export const b = 2;\n');
  writeFileSync(join(dir, 'src', 'index.test.ts'), 'test\n');
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'index.js'), 'export const a = 1;\n');
  const stamp = spawnSync(process.execPath, [join(root, 'scripts/source-digest.mjs')], { cwd: dir, encoding: 'utf8' });
  expect(stamp.status, stamp.stderr).toBe(0);
  return dir;
}

const guard = (dir: string) => spawnSync(process.execPath, [join(root, 'scripts/prepack-guard.mjs')], { cwd: dir, encoding: 'utf8' });
const later = (path: string) => utimesSync(path, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));

describe('the prepack guard', () => {
  it('lets a fresh build through, also after its sources were touched without a change', () => {
    const dir = builtPackage();
    expect(guard(dir)).toMatchObject({ status: 0, stderr: '' });
    later(join(dir, 'src', 'index.ts'));
    expect(guard(dir)).toMatchObject({ status: 0, stderr: '' });
    rmSync(dir, { recursive: true });
  });

  it('refuses a build whose sources changed, naming the package and the fix; a test file is not a source', () => {
    const dir = builtPackage();
    writeFileSync(join(dir, 'src', 'index.test.ts'), 'another test\n');
    expect(guard(dir).status).toBe(0);
    writeFileSync(join(dir, 'src', 'deep', 'b.ts'), 'export const b = 3;\n');
    const r = guard(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'error: @codewhale/guarded is not built: src/ has changed since the last build\nhint: run `pnpm build` at the repository root (or `pnpm release`), then pack or publish again\n',
    );
    // A new file is a change too.
    writeFileSync(join(dir, 'src', 'deep', 'b.ts'), 'export const b = 2;\n');
    expect(guard(dir).status).toBe(0);
    writeFileSync(join(dir, 'src', 'c.ts'), '');
    expect(guard(dir).status).toBe(1);
    rmSync(dir, { recursive: true });
  });

  it('refuses a build whose bundled packages changed since, naming the package; touching them is no change', () => {
    const root0 = mkdtempSync(join(tmpdir(), 'cw-guard-bundle-'));
    const lib = join(root0, 'lib');
    mkdirSync(join(lib, 'src'), { recursive: true });
    writeFileSync(join(lib, 'src', 'x.ts'), 'export const x = 1;\n');
    writeFileSync(join(lib, 'src', 'x.test.ts'), 'test\n');
    const app = join(root0, 'app');
    mkdirSync(join(app, 'src'), { recursive: true });
    mkdirSync(join(app, 'dist'));
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: '@codewhale/bundler', exports: { '.': './dist/index.js' } }));
    writeFileSync(join(app, 'src', 'index.ts'), 'export * from "lib";\n');
    writeFileSync(join(app, 'dist', 'index.js'), 'export const x = 1;\n');
    const stamp = spawnSync(process.execPath, [join(root, 'scripts/source-digest.mjs'), '../lib'], { cwd: app, encoding: 'utf8' });
    expect(stamp.status, stamp.stderr).toBe(0);
    expect(guard(app)).toMatchObject({ status: 0, stderr: '' });
    later(join(lib, 'src', 'x.ts'));
    writeFileSync(join(lib, 'src', 'x.test.ts'), 'another test\n');
    expect(guard(app)).toMatchObject({ status: 0, stderr: '' });
    writeFileSync(join(lib, 'src', 'x.ts'), 'export const x = 2;\n');
    const r = guard(app);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('error: @codewhale/bundler is not built: the sources of ../lib, which the build bundles, have changed since the last build\n');
    // A digest file that was emptied is refused, not judged by file times.
    writeFileSync(join(app, 'dist', '.source-digest'), '');
    expect(guard(app).stderr).toContain('is not built: src/ has changed since the last build');
    rmSync(root0, { recursive: true });
  });

  it('the CLI digests exactly the workspace packages its bundle holds', async () => {
    const { BUNDLED } = (await import('../packages/cli/tsup.config.js')) as { BUNDLED: (string | RegExp)[] };
    const build = (JSON.parse(readFileSync(join(root, 'packages/cli/package.json'), 'utf8')) as { scripts: { build: string } }).scripts.build;
    const listed = /source-digest\.mjs((?: \.\.\/[a-z-]+)*)/.exec(build)?.[1]?.trim().split(' ') ?? [];
    const bundled = readdirSync(join(root, 'packages'))
      .filter((d) => existsSync(join(root, 'packages', d, 'package.json')))
      .filter((d) => {
        const name = (JSON.parse(readFileSync(join(root, 'packages', d, 'package.json'), 'utf8')) as { name: string }).name;
        return BUNDLED.some((b) => (typeof b === 'string' ? b === name : b.test(name)));
      })
      .map((d) => `../${d}`);
    expect(bundled.length).toBeGreaterThan(0);
    expect([...listed].sort()).toEqual(bundled.sort());
  });

  it('without a digest (tsup run by hand) judges by modification times; a missing entry is named', () => {
    const dir = builtPackage();
    rmSync(join(dir, 'dist', '.source-digest'));
    expect(guard(dir).status).toBe(0);
    later(join(dir, 'src', 'index.ts'));
    expect(guard(dir).stderr).toContain('is not built: the build output is older than src/');
    rmSync(join(dir, 'dist', 'index.js'));
    expect(guard(dir).stderr).toContain('is not built: ./dist/index.js does not exist');
    rmSync(dir, { recursive: true });
  });

  it('digests content and paths: the same files give the same digest, any change of a byte or a name another', () => {
    const files = fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z]{1,8}$/), fc.uint8Array({ maxLength: 40 })), { selector: ([name]) => name, minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(files, fc.nat(), (list, pick) => {
        const write = (entries: [string, Uint8Array][]) => {
          const dir = mkdtempSync(join(tmpdir(), 'cw-digest-'));
          mkdirSync(join(dir, 'src'));
          for (const [name, bytes] of entries) writeFileSync(join(dir, 'src', `${name}.ts`), bytes);
          const d = digest(dir);
          rmSync(dir, { recursive: true });
          return d;
        };
        const base = write(list);
        // Written in another order: the same digest.
        expect(write([...list].reverse())).toBe(base);
        const i = pick % list.length;
        const [name, bytes] = list[i]!;
        const changed = list.map((e, j): [string, Uint8Array] => (j === i ? [name, Uint8Array.from([...bytes, 1])] : e));
        expect(write(changed)).not.toBe(base);
        const renamed = list.map((e, j): [string, Uint8Array] => (j === i ? [`${name}x`, bytes] : e));
        if (!list.some(([n]) => n === `${name}x`)) expect(write(renamed)).not.toBe(base);
      }),
      { numRuns: 40 },
    );
  });
});
