import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: { banner: '/// <reference types="node" />', compilerOptions: { customConditions: [] } },
  clean: true,
  target: 'node20',
  sourcemap: true,
});
