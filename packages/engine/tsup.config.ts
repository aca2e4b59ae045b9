import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'internal/index': 'src/internal.ts', 'providers/index': 'src/provider/index.ts', 'tools/index': 'src/tools/index.ts', 'testing/index': 'src/testing/index.ts' },
  format: ['esm'],
  dts: { compilerOptions: { customConditions: [] } },
  clean: true,
  target: 'node20',
  sourcemap: true,
  splitting: true,
});
