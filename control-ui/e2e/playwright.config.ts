import { defineConfig, devices } from '@playwright/test';

/**
 * Browser flows against the real system: global-setup starts the whole stack (PostgreSQL, Redis,
 * the api serving control-ui/dist, both workers) and hands its URL over in ONAIR_E2E_URL. The
 * UI must be built first (`npm run build -w control-ui`).
 *
 * Only the system Chromium is used; Playwright never downloads a browser here. The flags keep a
 * headless Chromium from reaching out to Google services on a machine without that network.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  globalSetup: './global-setup.ts',
  // The stack takes a few seconds to start on two shared cores; keep one worker and no retries, so
  // a flaky failure shows as a failure.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  timeout: 30_000,
  reporter: [['list']],
  use: {
    // Set by global-setup before the worker processes that run the tests start.
    baseURL: process.env.ONAIR_E2E_URL,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'system-chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
      },
    },
  ],
});
