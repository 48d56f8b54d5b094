import { scheduleEndpoints } from '@onair/protocol';
import type { BroadcastService } from '../destinations/broadcast-service.ts';
import type { SessionResolver } from '../http/auth-context.ts';
import type { Platform, Running } from '../module.ts';
import type { SceneService } from '../scenes/scene-service.ts';
import { startScheduledBroadcasts } from './index.ts';
import { scheduleRoutes } from './routes.ts';
import { ScheduledBroadcastQueue } from './schedule-queue.ts';
import { ScheduleService } from './schedule-service.ts';

export interface SchedulesServices {
  /** Where scheduled video broadcasts wait (delayed jobs in Redis). */
  scheduleQueue: ScheduledBroadcastQueue;
  schedules: ScheduleService;
}

/** Scheduled video broadcasts (issue 19). */
export const schedulesModule = {
  name: 'schedules',
  build: (deps: Platform & { scheduleQueue?: ScheduledBroadcastQueue; scenes: SceneService; broadcasts: BroadcastService }): SchedulesServices => {
    const scheduleQueue = deps.scheduleQueue ?? new ScheduledBroadcastQueue(deps.redis);
    return {
      scheduleQueue,
      schedules: new ScheduleService({
        db: deps.db,
        queue: scheduleQueue,
        logger: deps.logger,
        scenes: deps.scenes,
        broadcasts: deps.broadcasts,
        ...(deps.now ? { now: deps.now } : {}),
      }),
    };
  },
  http: {
    routes: {
      endpoints: scheduleEndpoints,
      mount: (c: Platform & SchedulesServices & { resolveSession: SessionResolver }) =>
        scheduleRoutes({ db: c.db, schedules: c.schedules, resolveSession: c.resolveSession }),
    },
  },
  jobs: {
    // Issue 19: scheduled video broadcasts wait in this queue; every replica runs a worker, BullMQ hands each job to one.
    runner: {
      name: 'scheduled broadcasts',
      start: (c: Platform & SchedulesServices): Running => {
        startScheduledBroadcasts(c);
        return { close: () => undefined };
      },
    },
  },
};
