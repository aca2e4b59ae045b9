import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * The command line starts fast by loading few files: the workspace packages it runs on and the
 * small pure libraries are bundled into `dist/` (from their sources, through the
 * `@codewhale/source` condition), and every subcommand is its own lazily imported chunk.
 * Heavy surfaces (`@codewhale/tui` with ink/react, `@codewhale/runtime-api` with hono and the
 * native better-sqlite3) stay external: they load only when their subcommand runs.
 */
export const BUNDLED = [/^@codewhale\/(hooks-payloads|hooks-conditions|hooks-config|hooks-supervisor|engine)(\/|$)/, 'commander', 'zod', /^zod\//, 'smol-toml'];
export const EXTERNAL = ['@codewhale/tui', '@codewhale/runtime-api'];

export default defineConfig({
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts', compilerOptions: { customConditions: [] } },
  clean: true,
  target: 'node20',
  sourcemap: true,
  splitting: true,
  minify: true,
  noExternal: BUNDLED,
  external: EXTERNAL,
  define: { __CODEWHALE_VERSION__: JSON.stringify(version) },
  esbuildOptions(options) {
    options.conditions = ['@codewhale/source'];
  },
  // commander is CommonJS: give its bundled `require` calls a real `require`.
  banner: { js: "import { createRequire as __cwCreateRequire } from 'node:module'; const require = __cwCreateRequire(import.meta.url);" },
});
