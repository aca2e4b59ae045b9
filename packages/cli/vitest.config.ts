import { readFileSync } from 'node:fs';
import { defineProject } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineProject({
  define: { __CODEWHALE_VERSION__: JSON.stringify(version) },
  ssr: { resolve: { conditions: ['@codewhale/source'] } },
  resolve: { conditions: ['@codewhale/source'] },
  test: {
    name: 'cli',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // End-to-end tests spawn real processes (the built CLI, hooks, a fake model server); on a
    // loaded 2-core machine one can take seconds. Unit tests finish far below this.
    testTimeout: 30_000,
  },
});
