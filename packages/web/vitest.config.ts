import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@codewhale/source'] } },
  resolve: { conditions: ['@codewhale/source'] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: { name: 'web', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], testTimeout: 60_000, hookTimeout: 120_000 },
});
