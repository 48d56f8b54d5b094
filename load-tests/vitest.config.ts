// The harness's own tests run against a real Redis (and PostgreSQL) from @onair/embedded.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['harness/**/*.test.ts', 'deploy/**/*.test.ts'],
    globalSetup: ['@onair/embedded/test-services'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
