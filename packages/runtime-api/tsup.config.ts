import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // The type files use Node's types (NodeJS.*, node: modules): say so, for TypeScript 6+,
  // which no longer loads @types/node unless a project lists it.
  dts: { banner: '/// <reference types="node" />', compilerOptions: { customConditions: [] } },
  clean: true,
  target: 'node20',
  sourcemap: true,
});
