import { Router } from 'express';
import { actAsAudienceEndpoint, getTestModeEndpoint, OnAirError } from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, type SessionResolver } from '../http/auth-context.ts';
import { mount } from '../http/mount.ts';
import type { TestModeAudience } from './audience.ts';

export function testModeRoutes(deps: { db: Db; resolveSession: SessionResolver; audience: TestModeAudience }): Router {
  const router = Router();
  router.use(['/api/v1/test-mode', '/api/v1/projects/:projectId/test-mode'], authenticate(deps.db, deps.resolveSession));
  mount(router, getTestModeEndpoint, async () => deps.audience.status());
  // The project role (manage broadcast) is checked by mount before this runs; test mode here.
  mount(router, actAsAudienceEndpoint, async ({ params, body }) => {
    if (deps.audience.status().platforms.length === 0) throw new OnAirError('TEST_MODE_OFF', 'No platform runs in test mode on this server.');
    return deps.audience.act(params.projectId, body);
  });
  return router;
}
