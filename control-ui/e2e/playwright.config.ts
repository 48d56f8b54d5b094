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

/**
 * The flows that run no media: nobody opens a studio (an open studio is a session with a pipeline on
 * the stack's media worker) and nothing goes live. `./onair test` runs them in its light lane, on a
 * stack of their own beside the media suites (ONAIR_E2E_LANE=light), and the rest after the media
 * suites (ONAIR_E2E_LANE=heavy); without the variable every flow runs.
 */
export const LIGHT_SPECS = [
  'account.spec.ts',
  'alert-sounds.spec.ts',
  'billing.spec.ts',
  'campaigns.spec.ts',
  'live-lists.spec.ts',
  'mfa.spec.ts',
  'money.spec.ts',
  'partner-chatbot.spec.ts',
  'partner-home.spec.ts',
  'signup.spec.ts',
  'smoke.spec.ts',
  'sponsorship.spec.ts',
];
const lane = process.env.ONAIR_E2E_LANE;
const light = lane === 'light';

export default defineConfig({
  testDir: '.',
  testMatch: light ? LIGHT_SPECS.map((f) => `**/${f}`) : '**/*.spec.ts',
  testIgnore: lane === 'heavy' ? LIGHT_SPECS.map((f) => `**/${f}`) : [],
  // Each lane's run writes its own results: the two runs are at once, and a run clears its folder first.
  outputDir: lane ? `./test-results/${lane}` : './test-results',
  globalSetup: './global-setup.ts',
  // The stack takes a few seconds to start on two shared cores; keep one worker and no retries, so
  // a flaky failure shows as a failure.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  // The light lane runs at a lower priority beside the media suites: its api and browser wait for
  // the cycles the pipelines leave, so a UI waits longer before it counts as not there (the flows
  // still fail on a wrong result, never on a slow one).
  timeout: light ? 60_000 : 30_000,
  expect: { timeout: light ? 15_000 : 5_000 },
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
