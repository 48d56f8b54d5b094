import { Router } from 'express';
import { closeSessionEndpoint, getSessionEndpoint, openSessionEndpoint } from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, type SessionResolver } from '../http/auth-context.ts';
import { mount } from '../http/mount.ts';
import type { SessionService } from './session-service.ts';

/** The caller's project role is checked by mount() against each endpoint's projectPermission. */
export function sessionRoutes(deps: { db: Db; sessions: SessionService; resolveSession: SessionResolver }): Router {
  const router = Router();
  router.use('/api/v1/projects', authenticate(deps.db, deps.resolveSession));
  mount(router, openSessionEndpoint, async ({ params }) => deps.sessions.open(params.projectId));
  mount(router, getSessionEndpoint, async ({ params }) => deps.sessions.status(params.projectId));
  mount(router, closeSessionEndpoint, async ({ params }) => deps.sessions.close(params.projectId));
  return router;
}
