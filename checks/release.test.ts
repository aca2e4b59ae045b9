/**
 * The packages as a stranger gets them. Every public package (every `packages/*` without
 * `"private": true`) is packed, linted with publint and attw (`esm-only` profile), and installed
 * — only the tarballs, offline from the pnpm store — into a temporary project outside the
 * workspace. There every TypeScript example of every package README is type-checked (strict,
 * `node16` and `bundler` resolution) and run as written, `require()` loads every package, and
 * the installed `codewhale` runs `--version`, `hooks list` and `hooks test`. The READMEs of
 * `@codewhale/hooks` (the small agent loop: deny, ask with its reason, a rewrite checked again,
 * context, a `shell_env` value reaching only the shell tool, the audit line, `tool_call_after`,
 * an aborted slow gate, a rejected strict hook reported) and `@codewhale/hooks-ai-sdk` (the
 * AI SDK's mock model through `generateText`) run there as ES modules, and the same loop runs
 * again through `require()`. Every type file of every export compiles in that project, strict
 * and with its libraries checked, on TypeScript 5.9, 6 and 7 (6 and 7 load no `@types` package
 * unless a file references it). The same tarballs are installed once more with npm on a PATH
 * without a compiler, make or Python, with no prebuilt SQLite binary to fetch: the install
 * succeeds, and only `codewhale serve` needs what was skipped.
 *
 * Needs the packages built (`pnpm test` builds first); the prepack guard says so otherwise.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publint } from 'publint';
import ts from 'typescript';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isExternal, markdownLinks, resolveInPackage } from './markdown-links.js';
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
      {
        name: 'consumer',
        private: true,
        type: 'module',
        dependencies: { ...files, zod: '4.6.7', ai: '6.0.333', '@types/node': '20.19.43', '@types/react': '19.3.3' },
        pnpm: { overrides: files, onlyBuiltDependencies: ['better-sqlite3'] },
      },
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
        '@codewhale/hooks-payloads': ['package/schema/stdin/turn_end.schema.json', 'package/schema/stdout/tool_call_before.schema.json'],
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

  it('declares react as a ^19 peer, with @types/react, wherever its public types use React', () => {
    for (const p of packages) {
      const dts = readdirSync(join(p.dir, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts'));
      if (!dts.some((f) => /from ['"]react['"]/.test(readFileSync(join(p.dir, 'dist', f), 'utf8')))) continue;
      // The components share the embedder's React (and Ink's): one copy, the consumer's.
      expect.soft(p.manifest.peerDependencies?.react, p.manifest.name).toBe('^19');
      expect.soft(p.manifest.peerDependencies?.['@types/react'], p.manifest.name).toBe('^19');
      expect.soft(p.manifest.dependencies?.react, `${p.manifest.name}: react as a dependency`).toBeUndefined();
    }
  });

  it('takes zod and react as version ranges, never exact pins a consumer cannot share', () => {
    for (const p of packages) {
      for (const field of ['dependencies', 'peerDependencies'] as const) {
        for (const name of ['zod', 'react', '@types/react', '@types/node']) {
          const range = p.manifest[field]?.[name];
          if (range !== undefined) expect.soft(range, `${p.manifest.name} ${field}.${name}`).toMatch(/^(\^|>=)\d/);
        }
      }
    }
  });

  it('links, in every Markdown file it ships, only to files in the tarball or to absolute URLs that exist', () => {
    // Links to the repository itself must name a file or folder that exists in it.
    const repoUrl = /^https:\/\/(?:github\.com\/codewhale\/codewhale\/(?:blob|tree)\/main|raw\.githubusercontent\.com\/codewhale\/codewhale\/main)\/([^#?]*)/;
    let checked = 0;
    for (const p of packages) {
      const list = spawnSync('tar', ['-tzf', p.tarball], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean)
        .map((f) => f.replace(/^package\//, ''));
      const shipped = (path: string) => path === '' || list.includes(path) || list.some((f) => f.startsWith(`${path.replace(/\/$/, '')}/`));
      for (const md of list.filter((f) => f.endsWith('.md'))) {
        const text = spawnSync('tar', ['-xzOf', p.tarball, `package/${md}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).stdout;
        for (const link of markdownLinks(text)) {
          const where = `${p.manifest.name} ${md}:${link.line} → ${link.target}`;
          checked++;
          if (isExternal(link.target)) {
            const repoPath = repoUrl.exec(link.target)?.[1];
            if (repoPath !== undefined) expect.soft(existsSync(join(root, decodeURIComponent(repoPath))), `${where}: not in the repository`).toBe(true);
            continue;
          }
          const inside = resolveInPackage(md, link.target);
          expect.soft(inside !== null && shipped(inside), `${where}: not in the tarball`).toBe(true);
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
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

describe.skipIf(packages.length === 0)('the packed type files in a fresh strict project', () => {
  // Every subpath with types that a package exports, as published.
  const entries = packages.flatMap((p) => {
    const exports = (p.manifest.publishConfig?.exports ?? p.manifest.exports) as Record<string, unknown>;
    return Object.keys(exports)
      .filter((k) => k !== './package.json' && !k.endsWith('.json'))
      .map((k) => `${p.manifest.name}${k.slice(1)}`);
  });
  const compilers = [
    { name: 'TypeScript 5.9', tsc: join(root, 'node_modules/typescript-5.9/bin/tsc') },
    { name: 'TypeScript 6', tsc },
    { name: 'TypeScript 7', tsc: join(root, 'node_modules/typescript-7/bin/tsc') },
  ];

  // Each module's every export is used as a type, so the compiler resolves all of them.
  const useAll = (specifiers: string[], tag: string) =>
    `${specifiers.map((e, i) => `import type * as ${tag}${i} from ${JSON.stringify(e)};\nexport type T${tag}${i} = { [K in keyof typeof ${tag}${i}]: (typeof ${tag}${i})[K] };`).join('\n')}\n`;
  const short = (name: string) => name.replace('@codewhale/', '');

  beforeAll(() => {
    mkdirSync(join(consumer, 'types-check'));
    writeFileSync(join(consumer, 'types-check', 'all.ts'), useAll(entries, 'm'));
    // No `types`: TypeScript 6 and 7 then load no @types package on their own; skipLibCheck
    // off, so a type file that names something it never imported fails here.
    const compilerOptions = {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      target: 'ES2022',
      lib: ['ES2023'],
      module: 'nodenext',
      moduleResolution: 'nodenext',
      skipLibCheck: false,
      noEmit: true,
    };
    writeFileSync(join(consumer, 'tsconfig.types.json'), JSON.stringify({ compilerOptions, files: ['types-check/all.ts'] }));
    // One program per package too: in one program a single reference to Node's types makes
    // them visible to every file, so a package that forgot its own would pass unnoticed. A
    // package whose type files reference Node's types gets nothing else; one whose files do
    // not must compile for any runtime, so it gets the DOM's globals (zod's types need `URL`).
    for (const p of packages) {
      const mine = entries.filter((e) => e === p.manifest.name || e.startsWith(`${p.manifest.name}/`));
      const dist = join(consumer, 'node_modules', p.manifest.name, 'dist');
      const typeFiles = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts'));
      const nodeTyped = typeFiles.some((f) => readFileSync(join(dist, f), 'utf8').startsWith('/// <reference types="node" />'));
      const options = { ...compilerOptions, lib: nodeTyped ? ['ES2023'] : ['ES2023', 'DOM'] };
      writeFileSync(join(consumer, 'types-check', `${short(p.manifest.name)}.ts`), useAll(mine, 'm'));
      writeFileSync(join(consumer, `tsconfig.types.${short(p.manifest.name)}.json`), JSON.stringify({ compilerOptions: options, files: [`types-check/${short(p.manifest.name)}.ts`] }));
    }
  });

  /**
   * The compiler's diagnostics about our own type files and the checking project: errors inside a
   * third-party package's types (the AI SDK's, say, which need the DOM's `HeadersInit` and fail
   * `exactOptionalPropertyTypes`) are that package's, not a sign of anything ours left out.
   */
  const ours = (output: string): string =>
    output
      .split(/\n(?=\S)/)
      .filter((d) => d.trim() !== '' && (!d.startsWith('node_modules/') || /(^|\/)@codewhale\//.test(d.split('(')[0]!)))
      .join('\n');

  it('keeps the diagnostics about our files and drops those inside a third-party package', () => {
    const output = [
      'node_modules/.pnpm/ai@6.0.333/node_modules/ai/dist/index.d.ts(758,31): error TS2344: Type X.',
      '  Type Y is not assignable.',
      'node_modules/.pnpm/@codewhale+hooks@file+x/node_modules/@codewhale/hooks/dist/index.d.ts(3,1): error TS2304: Cannot find name Z.',
      'types-check/all.ts(1,1): error TS2307: Cannot find module.',
      "error TS2688: Cannot find type definition file for 'node'.",
    ].join('\n');
    expect(ours(output).split('\n')).toEqual([
      'node_modules/.pnpm/@codewhale+hooks@file+x/node_modules/@codewhale/hooks/dist/index.d.ts(3,1): error TS2304: Cannot find name Z.',
      'types-check/all.ts(1,1): error TS2307: Cannot find module.',
      "error TS2688: Cannot find type definition file for 'node'.",
    ]);
  });

  it('imports every export with types', () => {
    expect(entries).toEqual(expect.arrayContaining(['@codewhale/tui/app', '@codewhale/engine', '@codewhale/hooks-supervisor']));
  });

  for (const c of compilers) {
    it(`compile on ${c.name}`, async () => {
      const version = await exec(nodeBin, [c.tsc, '--version'], { cwd: consumer });
      expect(version.stdout).toMatch(new RegExp(`^Version ${c.name.split(' ')[1]!.replace('.', '\\.')}`));
      const r = await exec(nodeBin, [c.tsc, '-p', 'tsconfig.types.json', '--pretty', 'false'], { cwd: consumer });
      expect(ours(`${r.stdout}${r.stderr}`), c.name).toBe('');
    }, 240_000);
  }

  it('compile package by package on TypeScript 7 (each type file brings the types it uses)', async () => {
    const tsc7 = compilers[2]!.tsc;
    const runs = await pool(packages.map((p) => () => exec(nodeBin, [tsc7, '-p', `tsconfig.types.${short(p.manifest.name)}.json`, '--pretty', 'false'], { cwd: consumer })));
    runs.forEach((r, i) => expect.soft(ours(`${r.stdout}${r.stderr}`), packages[i]!.manifest.name).toBe(''));
  }, 240_000);
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

describe.skipIf(!packages.some((p) => p.manifest.name === '@codewhale/hooks-ai-sdk'))('the embedding packages through require()', () => {
  it('@codewhale/hooks gates a call and @codewhale/hooks-ai-sdk wraps an AI SDK tool set, loaded with require()', async () => {
    const toml = `[hooks]\nenabled = true\n[[hooks.hooks]]\nevent = "tool_call_before"\ncommand = '''echo '{"decision":"deny","reason":"not today"}' '''\n`;
    const script = `
const { mkdtempSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { tmpdir } = require('node:os');
const { openHooks } = require('@codewhale/hooks');
const { withHooks } = require('@codewhale/hooks-ai-sdk');
const { generateText, stepCountIs, tool, jsonSchema } = require('ai');
const { MockLanguageModelV3 } = require('ai/test');
const home = mkdtempSync(join(tmpdir(), 'cw-cjs-'));
writeFileSync(join(home, 'config.toml'), ${JSON.stringify(toml)});
(async () => {
  const hooks = await openHooks({ workspace: process.cwd(), home });
  const gate = await hooks.beforeToolCall({ name: 'bash', input: { command: 'ls' } });
  console.log(gate.decision, gate.reason);
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const model = new MockLanguageModelV3({ doGenerate: [
    { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input: '{"command":"ls"}' }], finishReason: { unified: 'tool-calls' }, usage, warnings: [] },
    { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop' }, usage, warnings: [] },
  ] });
  let ran = false;
  const tools = { bash: tool({ inputSchema: jsonSchema({ type: 'object', properties: { command: { type: 'string' } } }), execute: async () => { ran = true; return 'ran'; } }) };
  const r = await generateText({ model, tools: withHooks(tools, hooks), prompt: 'go', stopWhen: stepCountIs(3) });
  const sent = JSON.stringify(model.doGenerateCalls[1].prompt);
  console.log(r.text, ran, sent.includes('not today'));
  await hooks.close();
})();
`;
    writeFileSync(join(consumer, 'embed.cjs'), script);
    const r = await exec(nodeBin, [join(consumer, 'embed.cjs')], { cwd: consumer, env: env() });
    expect(`${r.stdout}${r.stderr}`).toBe("deny ToolCallBefore hook denied tool 'bash': not today\ndone false true\n");
  });
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

describe.skipIf(!packages.some((p) => p.manifest.name === '@codewhale/cli'))('npm install of the CLI with no compiler on PATH', () => {
  let prefix = '';
  let bin = '';
  let npmHome = '';
  let install: { code: number; stdout: string; stderr: string };
  // Only node, npm and sh: no cc, gcc, c++, make or python for node-gyp to find.
  const noCompiler = (): NodeJS.ProcessEnv => ({ PATH: bin, HOME: process.env.HOME ?? npmHome, CODEWHALE_HOME: npmHome, NO_COLOR: '1' });

  beforeAll(async () => {
    bin = join(work, 'no-compiler-bin');
    prefix = join(work, 'npm-prefix');
    npmHome = join(work, 'npm-home');
    mkdirSync(npmHome);
    mkdirSync(bin);
    mkdirSync(prefix);
    for (const tool of ['node', 'npm', 'sh']) {
      const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      symlinkSync(tool === 'node' ? nodeBin : found, join(bin, tool));
    }
    // The CLI and the workspace packages it depends on, as tarballs; everything else from the registry.
    const files = Object.fromEntries(packages.map((p) => [p.manifest.name, `file:${p.tarball}`]));
    writeFileSync(join(prefix, 'package.json'), JSON.stringify({ name: 'npm-consumer', private: true, dependencies: files }, null, 2));
    install = await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: prefix,
      // build_from_source: prebuild-install downloads nothing, as on a platform with no
      // prebuilt better-sqlite3 (or behind a proxy), so its build is the only way left.
      env: { ...noCompiler(), npm_config_build_from_source: 'true', npm_config_update_notifier: 'false' },
    });
  }, 300_000);

  it('the PATH really has no compiler, make or Python', () => {
    for (const tool of ['cc', 'gcc', 'c++', 'g++', 'clang', 'make', 'python3', 'python']) {
      expect(spawnSync(join(bin, 'sh'), ['-c', `command -v ${tool}`], { env: noCompiler() }).status, tool).not.toBe(0);
    }
  });

  it('succeeds, skipping only the optional SQLite module', () => {
    expect(install.code, `${install.stderr}${install.stdout}`).toBe(0);
    expect(existsSync(join(prefix, 'node_modules/@codewhale/runtime-api/package.json'))).toBe(true);
    expect(existsSync(join(prefix, 'node_modules/better-sqlite3'))).toBe(false);
  });

  it('codewhale --help and hooks list work', async () => {
    const cli = join(prefix, 'node_modules/.bin/codewhale');
    const help = await exec(cli, ['--help'], { cwd: work, env: noCompiler() });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: codewhale /);
    const list = await exec(cli, ['hooks', 'list'], { cwd: work, env: noCompiler() });
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('No hooks configured');
  });

  it('codewhale serve says the SQLite module is missing and what to do, exits 69, and writes nothing', async () => {
    const cli = join(prefix, 'node_modules/.bin/codewhale');
    const serve = await exec(cli, ['serve', '--port', '0'], { cwd: work, env: noCompiler() });
    expect(serve.stdout).toBe('');
    const lines = serve.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('error: the Runtime API needs the SQLite module better-sqlite3, which is not installed');
    expect(lines[1]).toMatch(/^hint: npm skips better-sqlite3 .* install a C\+\+ compiler, make and Python 3 .* \(`npm i -g @codewhale\/cli`/);
    expect(lines).toHaveLength(2);
    expect(serve.code).toBe(69);
    expect(readdirSync(npmHome)).toEqual([]);
  });
});
