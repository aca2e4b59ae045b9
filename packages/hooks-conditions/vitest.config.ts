import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@codewhale/source'] } },
  resolve: { conditions: ['@codewhale/source'] },
  test: { name: 'hooks-conditions', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
