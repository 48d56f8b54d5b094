// The test configuration every workspace with real-service tests uses: unit tests beside the code,
// cross-process tests in test/, and real PostgreSQL + Redis from @onair/embedded/test-services.
import { defineConfig } from 'vitest/config';

export const serviceTestConfig = defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['@onair/embedded/test-services'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
