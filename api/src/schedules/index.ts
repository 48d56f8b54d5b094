import type { Logger } from '@onair/runtime';
import type { ScheduledBroadcastQueue } from './schedule-queue.ts';
import type { ScheduleService } from './schedule-service.ts';

export { ScheduledBroadcastQueue } from './schedule-queue.ts';
export { ScheduleService } from './schedule-service.ts';
export { scheduleRoutes } from './routes.ts';

/**
 * Runs the scheduled video broadcasts' jobs in this api process (every replica runs one worker;
 * BullMQ hands each job to one).
 */
export function startScheduledBroadcasts(deps: { scheduleQueue: ScheduledBroadcastQueue; schedules: ScheduleService; logger: Logger }): void {
  deps.scheduleQueue.work((job) => deps.schedules.run(job), deps.logger);
}
