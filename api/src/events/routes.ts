import { Router } from 'express';
import { getAlertSettingsEndpoint, listChannelEventsEndpoint, listEventsEndpoint, testAlertEndpoint, updateAlertSettingsEndpoint } from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, type SessionResolver } from '../http/auth-context.ts';
import { mount } from '../http/mount.ts';
import { EventsService } from './events-service.ts';
import type { AlertsService } from './alerts-service.ts';

/** The partner area's events feed of a channel (mounted in the partner network: mount() checks the channel capability). */
export function channelEventRoutes(deps: { db: Db }): Router {
  const router = Router();
  const events = new EventsService(deps.db);
  mount(router, listChannelEventsEndpoint, async ({ params, query }) => events.feed({ channelId: params.channelId }, query));
  return router;
}

/** The events feed (partner spec §7 get-feed); the caller's role is checked by mount(). */
export function eventRoutes(deps: { db: Db; resolveSession: SessionResolver; alerts: AlertsService }): Router {
  const router = Router();
  const events = new EventsService(deps.db);
  router.use('/api/v1/projects', authenticate(deps.db, deps.resolveSession));
  mount(router, listEventsEndpoint, async ({ params, query }) => events.feed(params.projectId, query));
  mount(router, getAlertSettingsEndpoint, async ({ params }) => deps.alerts.view(params.projectId));
  mount(router, updateAlertSettingsEndpoint, async ({ params, body }) => deps.alerts.update(params.projectId, body.settings));
  mount(router, testAlertEndpoint, async ({ params, body }) => ({ alert: await deps.alerts.test(params.projectId, body.type) }));
  return router;
}
