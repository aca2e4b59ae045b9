import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', app: 'src/app.ts' },
  format: ['esm'],
  dts: { compilerOptions: { customConditions: [] } },
  clean: true,
  target: 'node20',
  sourcemap: true,
  splitting: true,
});
