import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'checks'],
    // Both cores: vitest's default leaves one idle on a 2-core machine.
    maxWorkers: 2,
  },
});
