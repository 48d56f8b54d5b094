import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['@onair/embedded/test-services'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each integration file runs real encoders; one at a time keeps a 2-core machine honest.
    fileParallelism: false,
  },
});
