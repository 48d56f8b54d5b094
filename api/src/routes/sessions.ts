import { Router } from 'express';
import { closeSessionEndpoint, getSessionEndpoint, openSessionEndpoint } from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, getCurrentUser, type SessionResolver } from '../http/auth-context.ts';
import { mount } from '../http/mount.ts';
import type { SceneService } from '../scenes/scene-service.ts';
import type { SessionService } from '../sessions/session-service.ts';

export function sessionRoutes(deps: { db: Db; scenes: SceneService; sessions: SessionService; resolveSession: SessionResolver }): Router {
  const router = Router();
  router.use('/api/v1/projects', authenticate(deps.db, deps.resolveSession));
  mount(router, openSessionEndpoint, async ({ params }, { req }) => {
    await deps.scenes.assertOwner(getCurrentUser(req), params.projectId);
    return deps.sessions.open(params.projectId);
  });
  mount(router, getSessionEndpoint, async ({ params }, { req }) => {
    await deps.scenes.assertOwner(getCurrentUser(req), params.projectId);
    return deps.sessions.status(params.projectId);
  });
  mount(router, closeSessionEndpoint, async ({ params }, { req }) => {
    await deps.scenes.assertOwner(getCurrentUser(req), params.projectId);
    return deps.sessions.close(params.projectId);
  });
  return router;
}
