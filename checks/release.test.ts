/**
 * The packages as a stranger gets them. Every public package (every `packages/*` without
 * `"private": true`) is packed, linted with publint and attw (`esm-only` profile), and installed
 * — only the tarballs, offline from the pnpm store — into a temporary project outside the
 * workspace. There every TypeScript example of every package README is type-checked (strict,
 * `node16` and `bundler` resolution) and run as written, `require()` loads every package, and
 * the installed `codewhale` runs `--version`, `hooks list` and `hooks test`.
 *
 * Needs the packages built (`pnpm test` builds first); the prepack guard says so otherwise.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publint } from 'publint';
import ts from 'typescript';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeExamples, sameText } from './readme-examples.js';

const root = join(import.meta.dirname, '..');
const nodeBin = process.execPath;
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const attw = join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js');

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  exports?: unknown;
  publishConfig?: { exports?: unknown };
  peerDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
  repository?: unknown;
  homepage?: string;
  bugs?: unknown;
  license?: string;
}
interface PublicPackage {
  readonly dir: string;
  readonly manifest: Manifest;
  tarball: string;
}

const packages: PublicPackage[] = readdirSync(join(root, 'packages'))
  .map((d) => ({ dir: join(root, 'packages', d), manifest: JSON.parse(readFileSync(join(root, 'packages', d, 'package.json'), 'utf8')) as Manifest, tarball: '' }))
  .filter((p) => !p.manifest.private)
  .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));

function exec(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Run `jobs` two at a time (the machine has two cores). */
async function pool<T>(jobs: (() => Promise<T>)[], width = 2): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]!();
      }
    }),
  );
  return out;
}

let work = '';
let consumer = '';
let home = '';
const env = (): NodeJS.ProcessEnv => ({ ...process.env, CODEWHALE_HOME: home, CODEWHALE_CONFIG_PATH: '', NO_COLOR: '1', NODE_OPTIONS: '' });

beforeAll(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'cw-release-')));
  consumer = join(work, 'consumer');
  home = join(work, 'home');
  mkdirSync(join(consumer, 'examples'), { recursive: true });
  mkdirSync(home);
  const packed = await pool(packages.map((p) => () => exec('pnpm', ['pack', '--pack-destination', work], { cwd: p.dir })));
  packed.forEach((r, i) => {
    if (r.code !== 0) throw new Error(`pnpm pack ${packages[i]!.manifest.name} failed:\n${r.stderr}${r.stdout}`);
    const line = r.stdout
      .trim()
      .split('\n')
      .filter((l) => l.endsWith('.tgz'))
      .pop();
    packages[i]!.tarball = line!.trim();
  });

  // The consumer: the tarballs (and their registry dependencies, from the store) and nothing else.
  // It allows better-sqlite3's native build, as the runtime-api README tells pnpm users to.
  const files = Object.fromEntries(packages.map((p) => [p.manifest.name, `file:${p.tarball}`]));
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify(
      { name: 'consumer', private: true, type: 'module', dependencies: { ...files, zod: '4.6.7', '@types/node': '20.19.43' }, pnpm: { overrides: files, onlyBuiltDependencies: ['better-sqlite3'] } },
      null,
      2,
    ),
  );
  const install = await exec('pnpm', ['install', '--prefer-offline', '--ignore-workspace', '--config.confirmModulesPurge=false', '--reporter=silent'], { cwd: consumer });
  if (install.code !== 0) throw new Error(`installing the tarballs failed:\n${install.stderr}${install.stdout}`);
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(packages.length === 0)('every public package, packed', () => {
  it('has the metadata a registry page needs and a LICENSE, README and built files in the tarball', () => {
    for (const p of packages) {
      const m = p.manifest;
      expect.soft(m.license, m.name).toBe('MIT');
      expect.soft(m.repository, m.name).toBeTruthy();
      expect.soft(m.homepage, m.name).toBeTruthy();
      expect.soft(m.bugs, m.name).toBeTruthy();
      const list = spawnSync('tar', ['-tzf', p.tarball], { encoding: 'utf8' }).stdout.split('\n');
      expect.soft(list, m.name).toEqual(expect.arrayContaining(['package/LICENSE', 'package/README.md', 'package/package.json', 'package/dist/index.js', 'package/dist/index.d.ts']));
      // What a package ships beyond dist/: the JSON Schemas, the hook guide `--help` points at.
      const extra: Record<string, string[]> = {
        '@codewhale/hooks-config': ['package/schema/config.schema.json', 'package/schema/hooks.schema.json'],
        // The CLI carries the web client `serve` serves at /.
        '@codewhale/cli': ['package/docs/hooks-guide.md', 'package/dist/web/index.html'],
      };
      expect.soft(list, m.name).toEqual(expect.arrayContaining(extra[m.name] ?? []));
      const packedManifest = spawnSync('tar', ['-xzOf', p.tarball, 'package/package.json'], { encoding: 'utf8' }).stdout;
      // The source condition points at src/, which is not published.
      expect.soft(packedManifest, m.name).not.toContain('@codewhale/source');
      expect.soft(packedManifest, m.name).not.toContain('"source"');
      expect.soft(packedManifest, m.name).not.toContain('workspace:');
    }
  });

  it('declares zod as a ^4 peer (not a dependency) wherever its public types use zod', () => {
    for (const p of packages) {
      const dts = readdirSync(join(p.dir, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts'));
      const usesZod = dts.some((f) => /from ['"]zod['"]/.test(readFileSync(join(p.dir, 'dist', f), 'utf8')));
      if (!usesZod) continue;
      // A consumer's own zod 4.x must satisfy it (an exact dependency gives two copies and TS2740).
      expect.soft(p.manifest.peerDependencies?.zod, p.manifest.name).toBe('^4');
      expect.soft(p.manifest.dependencies?.zod, `${p.manifest.name}: zod as a dependency`).toBeUndefined();
    }
  });

  it('passes publint (warnings count)', async () => {
    for (const p of packages) {
      const tarball = readFileSync(p.tarball);
      const { messages, pkg } = await publint({ pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) }, level: 'warning', strict: true });
      expect
        .soft(
          messages.map((msg) => formatMessage(msg, pkg)),
          p.manifest.name,
        )
        .toEqual([]);
    }
  });

  it('passes attw with the esm-only profile (import, require on Node ≥ 20.19, node16 and bundler types)', async () => {
    const results = await pool(packages.map((p) => () => exec(nodeBin, [attw, '--profile', 'esm-only', '--no-color', '--no-emoji', p.tarball], { cwd: work })));
    for (const [i, r] of results.entries()) expect.soft(r.code, `${packages[i]!.manifest.name}:\n${r.stdout}${r.stderr}`).toBe(0);
  }, 240_000);

  it('loads through require() and import from the installed tarballs', async () => {
    for (const p of packages) {
      const r = await exec(nodeBin, ['-e', `require(${JSON.stringify(p.manifest.name)}); import(${JSON.stringify(p.manifest.name)}).then(() => process.stdout.write('ok'))`], {
        cwd: consumer,
        env: env(),
      });
      expect.soft(`${r.stdout}${r.stderr}`, p.manifest.name).toBe('ok');
    }
  });
});

describe.skipIf(packages.length === 0)('README examples, installed from the tarballs', () => {
  const examples = packages.flatMap((p) =>
    readmeExamples(readFileSync(join(p.dir, 'README.md'), 'utf8')).map((e, i) => ({ ...e, pkg: p.manifest.name, file: `${p.manifest.name.replace('@codewhale/', '')}-${i + 1}.ts` })),
  );
  const where = (e: (typeof examples)[number]) => `${e.pkg} README.md:${e.line} (examples/${e.file})`;

  beforeAll(() => {
    for (const e of examples) writeFileSync(join(consumer, 'examples', e.file), `${e.code}\nexport {};\n`);
    const base = { strict: true, noUncheckedIndexedAccess: true, target: 'ES2022', lib: ['ES2023'], types: ['node'], skipLibCheck: true, noEmit: true };
    writeFileSync(join(consumer, 'tsconfig.node16.json'), JSON.stringify({ compilerOptions: { ...base, module: 'node16', moduleResolution: 'node16' }, include: ['examples'] }));
    writeFileSync(join(consumer, 'tsconfig.bundler.json'), JSON.stringify({ compilerOptions: { ...base, module: 'esnext', moduleResolution: 'bundler' }, include: ['examples'] }));
    // Runnable copies: the same text with the types stripped (ES module, `.mjs`).
    mkdirSync(join(consumer, 'out'));
    for (const e of examples) {
      const js = ts.transpileModule(`${e.code}\nexport {};\n`, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false } }).outputText;
      writeFileSync(join(consumer, 'out', e.file.replace(/\.ts$/, '.mjs')), js);
    }
  });

  it('there are examples to check', () => expect(examples.length).toBeGreaterThan(0));

  // Both resolutions type-check at once (two cores).
  const checks = new Map<string, Promise<{ code: number; stdout: string }>>();
  const typecheck = (mode: string) => {
    if (checks.size === 0) for (const m of ['node16', 'bundler']) checks.set(m, exec(nodeBin, [tsc, '-p', `tsconfig.${m}.json`, '--pretty', 'false'], { cwd: consumer }));
    return checks.get(mode)!;
  };
  for (const mode of ['node16', 'bundler']) {
    it(`every example compiles (strict, ${mode} resolution)`, async () => {
      const r = await typecheck(mode);
      const named = r.stdout.replace(/examples\/([\w-]+\.ts)/g, (m, f: string) => {
        const e = examples.find((x) => x.file === f);
        return e ? where(e) : m;
      });
      expect(named, named).toBe('');
      expect(r.code).toBe(0);
    }, 240_000);
  }

  it('every example runs as written and prints what its README says', async () => {
    const runs = await pool(examples.map((e) => () => exec(nodeBin, [join(consumer, 'out', e.file.replace(/\.ts$/, '.mjs'))], { cwd: consumer, env: env() })));
    runs.forEach((r, i) => {
      const e = examples[i]!;
      expect.soft(r.code, `${where(e)} exited ${r.code}:\n${r.stderr}`).toBe(0);
      if (e.output !== null) expect.soft(r.stdout.trimEnd(), where(e)).toBe(e.output.trimEnd());
      if (e.output === null && e.expectations.length > 0) {
        // Each console.log prints one value; a value printed over several lines is joined back.
        const printed = r.stdout.trimEnd();
        const joined = e.expectations.join('\n');
        expect.soft(sameText(printed, joined), `${where(e)} printed:\n${printed}\n\nexpected (whitespace aside):\n${joined}`).toBe(true);
      }
    });
  }, 120_000);
});

describe.skipIf(!packages.some((p) => p.manifest.name === '@codewhale/cli'))('the installed codewhale', () => {
  const cli = () => join(consumer, 'node_modules/.bin/codewhale');
  const version = packages.find((p) => p.manifest.name === '@codewhale/cli')?.manifest.version;

  it('--version prints the package version', async () => {
    const r = await exec(cli(), ['--version'], { cwd: work, env: env() });
    expect(r.stdout).toBe(`${version}\n`);
  });

  it('hooks list and hooks test run', async () => {
    const list = await exec(cli(), ['hooks', 'list'], { cwd: work, env: env() });
    expect(list.stderr).toBe('');
    expect(list.stdout).toContain('No hooks configured');
    const test = await exec(cli(), ['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}', '--json'], { cwd: work, env: env() });
    expect(test.stderr).toBe('');
    expect(test.code).toBe(0);
    expect(JSON.parse(test.stdout)).toMatchObject({ event: 'tool_call_before', dry_run: true, result: { decision: 'allow' } });
  });
});
