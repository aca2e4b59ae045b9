import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'internal/index': 'src/internal.ts' },
  format: ['esm'],
  dts: { banner: '/// <reference types="node" />', compilerOptions: { customConditions: [] } },
  clean: true,
  target: 'node20',
  sourcemap: true,
  splitting: true,
});
