import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['source'] } },
  resolve: { conditions: ['source'] },
  test: { name: 'tui', include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'] },
});
