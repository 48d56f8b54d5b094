import { Router } from 'express';
import { cancelScheduledBroadcastEndpoint, listScheduledBroadcastsEndpoint, scheduleVideoBroadcastEndpoint } from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, type SessionResolver } from '../http/auth-context.ts';
import { mount, Reply } from '../http/mount.ts';
import type { ScheduleService } from './schedule-service.ts';

/** Scheduled video broadcasts of a project, for those who manage its broadcasts. */
export function scheduleRoutes(deps: { db: Db; schedules: ScheduleService; resolveSession: SessionResolver }): Router {
  const router = Router();
  router.use('/api/v1/projects/:projectId/scheduled-broadcasts', authenticate(deps.db, deps.resolveSession));
  mount(router, scheduleVideoBroadcastEndpoint, async ({ params, body }) => new Reply(201, await deps.schedules.create(params.projectId, body)));
  mount(router, listScheduledBroadcastsEndpoint, async ({ params }) => ({ scheduled: await deps.schedules.list(params.projectId) }));
  mount(router, cancelScheduledBroadcastEndpoint, async ({ params }) => {
    await deps.schedules.cancel(params.projectId, params.scheduleId);
    return new Reply(204, undefined);
  });
  return router;
}
