import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['@onair/embedded/test-services'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
