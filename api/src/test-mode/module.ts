import { testModeEndpoints } from '@onair/protocol';
import type { SessionResolver } from '../http/auth-context.ts';
import type { Platform } from '../module.ts';
import { testModePlatformsOf } from '../platforms/index.ts';
import { TestModeAudience } from './audience.ts';
import { testModeRoutes } from './routes.ts';

export interface TestModeServices {
  /** The platforms in test mode, and their audience for the control panel. */
  testModeAudience: TestModeAudience;
}

/** The platforms' test mode of the one-machine stack (issue 39): which platforms are doubles, and their audience on demand. */
export const testModeModule = {
  name: 'test-mode',
  build: (deps: Platform): TestModeServices => ({
    testModeAudience: new TestModeAudience({
      db: deps.db,
      logger: deps.logger,
      doubles: deps.config.PLATFORM_TEST_MODE,
      platforms: testModePlatformsOf(deps.config),
    }),
  }),
  http: {
    routes: {
      endpoints: testModeEndpoints,
      mount: (c: Platform & TestModeServices & { resolveSession: SessionResolver }) =>
        testModeRoutes({ db: c.db, resolveSession: c.resolveSession, audience: c.testModeAudience }),
    },
  },
};
