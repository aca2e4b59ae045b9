import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * The workspace packages the command line runs on and the small pure libraries are bundled
 * into `dist/` (from their sources, through the `@codewhale/source` condition). Heavy surfaces
 * (`@codewhale/tui` with ink/react, `@codewhale/runtime-api` with hono and the native
 * better-sqlite3) stay external: they load only when their subcommand runs.
 */
export const BUNDLED = [/^@codewhale\/(hooks|hooks-payloads|hooks-conditions|hooks-config|hooks-supervisor|engine)(\/|$)/, 'commander', 'zod', /^zod\//, 'smol-toml'];
export const EXTERNAL = ['@codewhale/tui', '@codewhale/runtime-api'];

const common: Options = {
  target: 'node20',
  sourcemap: true,
  minify: process.env['CW_NO_MINIFY'] !== '1',
  noExternal: BUNDLED,
  external: EXTERNAL,
  define: { __CODEWHALE_VERSION__: JSON.stringify(version) },
  esbuildOptions(options) {
    options.conditions = ['@codewhale/source'];
  },
};

export default defineConfig([
  // The programmatic API (`import { main } from '@codewhale/cli'`): ES modules, split.
  {
    ...common,
    entry: ['src/index.ts'],
    format: ['esm'],
    // The type files use Node's types: say so (TypeScript 6+ no longer loads @types/node by default).
    dts: { entry: 'src/index.ts', banner: '/// <reference types="node" />', compilerOptions: { customConditions: [] } },
    splitting: true,
    // commander is CommonJS: give its bundled `require` calls a real `require`.
    banner: { js: "import { createRequire as __cwCreateRequire } from 'node:module'; const require = __cwCreateRequire(import.meta.url);" },
  },
  // The binary: `bin.cjs`, a few lines of CommonJS (no ES module loader for `--version`), runs
  // `cli.cjs`, the whole command line in one CommonJS file, through V8's code cache (see
  // src/compile-cache.ts). `import()` of the external surfaces stays a real dynamic import.
  {
    ...common,
    entry: { bin: 'src/bin.ts', cli: 'src/cli-entry.ts' },
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    splitting: false,
    shims: true,
  },
]);
