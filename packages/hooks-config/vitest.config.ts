import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['source'] } },
  resolve: { conditions: ['source'] },
  test: { name: 'hooks-config', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
