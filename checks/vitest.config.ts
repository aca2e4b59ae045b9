import { defineProject } from 'vitest/config';

export default defineProject({
  // The demo and the release check build nothing themselves but pack, install and run the
  // built packages; their slow steps carry their own timeouts.
  test: { name: 'repo-checks', include: ['**/*.test.ts'], testTimeout: 60_000, hookTimeout: 180_000 },
});
