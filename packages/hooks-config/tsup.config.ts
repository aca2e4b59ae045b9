import { defineConfig } from 'tsup';

export default defineConfig({
  // `json-schema` is the build step that writes schema/*.json; it is left out of the tarball.
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts', 'json-schema': 'src/hook-config-json-schema.ts' },
  format: ['esm'],
  dts: { compilerOptions: { customConditions: [] } },
  // zod is a dev dependency, used only by the json-schema build step.
  external: ['zod'],
  // smol-toml is bundled: its ESM build is nine files, and resolving and loading each of them
  // on import costs more than the parse itself (the copyright notice stays in the bundle).
  noExternal: ['smol-toml'],
  clean: true,
  target: 'node20',
  sourcemap: true,
  splitting: true,
});
