import type { Redis } from 'ioredis';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { ProjectAccess } from '../access/project-access.ts';
import { documentLimits, type ApiConfig } from '../config.ts';
import { createDestinations, type SessionControl } from '../destinations/index.ts';
import { Countdowns } from '../scenes/countdowns.ts';
import { SceneService } from '../scenes/scene-service.ts';
import type { ScheduledBroadcastQueue } from './schedule-queue.ts';
import { ScheduleService } from './schedule-service.ts';
import { ownPageUrls } from '../overlays/own-page-urls.ts';

export { ScheduledBroadcastQueue } from './schedule-queue.ts';
export { ScheduleService } from './schedule-service.ts';
export { scheduleRoutes } from './routes.ts';

/**
 * Runs the scheduled video broadcasts' jobs in this api process (every replica runs one worker;
 * BullMQ hands each job to one). Its scene and broadcast services are its own, as the other
 * watches have theirs.
 */
export function startScheduledBroadcasts(deps: { config: ApiConfig; db: Db; redis: Redis; logger: Logger; sessions: SessionControl | null; queue: ScheduledBroadcastQueue }): void {
  const access = new ProjectAccess(deps.db, deps.logger);
  const { broadcasts } = createDestinations({ ...deps, assertProjectAccess: (user, projectId) => access.require(user, projectId, 'read project') });
  const scenes = new SceneService(deps.db, deps.redis, deps.logger, access, documentLimits(deps.config), ownPageUrls(deps.config).trusted, new Countdowns(deps));
  const schedules = new ScheduleService({ db: deps.db, queue: deps.queue, logger: deps.logger, scenes, broadcasts });
  deps.queue.work((job) => schedules.run(job), deps.logger);
}
