import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@codewhale/source'] } },
  resolve: { conditions: ['@codewhale/source'] },
  test: {
    name: 'hooks-ai-sdk',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Real hook processes; on a loaded 2-core machine one can take seconds.
    testTimeout: 30_000,
  },
});
