import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'internal/index': 'src/internal.ts', 'providers/index': 'src/provider/index.ts', 'tools/index': 'src/tools/index.ts', 'testing/index': 'src/testing/index.ts' },
  format: ['esm'],
  // The type files use Node's types (NodeJS.*, node: modules): say so, for TypeScript 6+,
  // which no longer loads @types/node unless a project lists it.
  dts: { banner: '/// <reference types="node" />', compilerOptions: { customConditions: [] } },
  clean: true,
  target: 'node20',
  sourcemap: true,
  splitting: true,
});
