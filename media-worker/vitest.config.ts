import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['@onair/embedded/test-services'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each integration file runs real encoders; one at a time keeps a 2-core machine honest.
    fileParallelism: false,
    // Test destinations are local nginx-rtmp servers: outputs without the api's per-output
    // decision may reach loopback, as ALLOW_PRIVATE_RTMP lets them on a LAN setup.
    env: { ALLOW_PRIVATE_RTMP: 'true' },
  },
});
