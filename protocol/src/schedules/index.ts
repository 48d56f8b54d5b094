import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';

/**
 * Scheduled video broadcasts (issue 19): 'stream a video file as live'. At the chosen time the api
 * shows the project's uploaded video in a scene of its own, goes live to the enabled destinations
 * as the owner's Go Live would (no host present), and ends the broadcast when the video has played.
 */

export const SCHEDULE_MAX_DAYS_AHEAD = 30;
export const scheduledBroadcastStates = ['scheduled', 'live', 'done', 'failed', 'cancelled'] as const;

export const scheduledBroadcastSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  uploadId: z.uuid(),
  startAt: z.iso.datetime(),
  state: z.enum(scheduledBroadcastStates),
  /** Why it did not go out, in the creator's words. */
  failureReason: z.string().nullable(),
  broadcastId: z.uuid().nullable(),
});
export type ScheduledBroadcast = z.infer<typeof scheduledBroadcastSchema>;

export const scheduleVideoBroadcastBodySchema = z.strictObject({
  uploadId: z.uuid(),
  startAt: z.iso.datetime({ offset: true }),
});

/** The job of the BullMQ `scheduled-broadcasts` queue (queues.ts): start at the scheduled time (delayed), or end when the video has played. */
export const scheduledBroadcastJobSchema = z.object({ scheduleId: z.uuid(), step: z.enum(['start', 'end']) });
export type ScheduledBroadcastJob = z.infer<typeof scheduledBroadcastJobSchema>;

const projectParams = z.object({ projectId: z.uuid() });

export const scheduleVideoBroadcastEndpoint = defineEndpoint({
  id: 'scheduleVideoBroadcast',
  projectPermission: 'manage broadcast',
  method: 'post',
  path: '/api/v1/projects/:projectId/scheduled-broadcasts',
  summary: "Schedule an uploaded video to stream as live to the project's enabled destinations at `startAt`.",
  tag: 'schedules',
  access: 'user',
  params: projectParams,
  body: scheduleVideoBroadcastBodySchema,
  response: scheduledBroadcastSchema,
  successStatus: 201,
});

export const listScheduledBroadcastsEndpoint = defineEndpoint({
  id: 'listScheduledBroadcasts',
  projectPermission: 'manage broadcast',
  method: 'get',
  path: '/api/v1/projects/:projectId/scheduled-broadcasts',
  summary: "The project's scheduled video broadcasts, soonest first.",
  tag: 'schedules',
  access: 'user',
  params: projectParams,
  response: z.object({ scheduled: z.array(scheduledBroadcastSchema) }),
});

export const cancelScheduledBroadcastEndpoint = defineEndpoint({
  id: 'cancelScheduledBroadcast',
  projectPermission: 'manage broadcast',
  method: 'delete',
  path: '/api/v1/projects/:projectId/scheduled-broadcasts/:scheduleId',
  summary: 'Cancel a scheduled video broadcast that has not started.',
  tag: 'schedules',
  access: 'user',
  params: z.object({ projectId: z.uuid(), scheduleId: z.uuid() }),
  response: z.undefined(),
  successStatus: 204,
});

export const scheduleEndpoints = [scheduleVideoBroadcastEndpoint, listScheduledBroadcastsEndpoint, cancelScheduledBroadcastEndpoint] as const;
