import { defineConfig } from 'vitest/config';

// The stack test starts its own services (the code path under test), so no globalSetup here.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
