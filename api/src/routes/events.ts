import { Router } from 'express';
import { listEventsEndpoint } from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, type SessionResolver } from '../http/auth-context.ts';
import { mount } from '../http/mount.ts';
import { EventsService } from '../events/events-service.ts';

/** The events feed (partner spec §7 get-feed); the caller's role is checked by mount(). */
export function eventRoutes(deps: { db: Db; resolveSession: SessionResolver }): Router {
  const router = Router();
  const events = new EventsService(deps.db);
  router.use('/api/v1/projects', authenticate(deps.db, deps.resolveSession));
  mount(router, listEventsEndpoint, async ({ params, query }) => events.feed(params.projectId, query));
  return router;
}
