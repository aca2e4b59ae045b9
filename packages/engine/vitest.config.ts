import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@codewhale/source'] } },
  resolve: { conditions: ['@codewhale/source'] },
  test: {
    name: 'engine',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // End-to-end tests spawn real processes (the built CLI, hooks, a fake model server); on a
    // loaded 2-core machine one can take seconds. Unit tests finish far below this.
    testTimeout: 30_000,
  },
});
