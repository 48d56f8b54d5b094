import { z } from 'zod';
import { dataExportJobSchema } from './partner/exports.ts';
import { renderJobSchema } from './render/render-job.ts';
import { scheduledBroadcastJobSchema } from './schedules/index.ts';
import { sessionJobSchema } from './sessions/session.ts';

/**
 * A BullMQ queue's contract: its name and the schema of its jobs' payloads, written once and used
 * by the producer (a job that does not parse is never added: JOB_INVALID) and by the consumer (a
 * job that does not parse fails for good, never retried, and the worker goes on).
 */
export interface QueueContract<T> {
  readonly name: string;
  readonly schema: z.ZodType<T>;
}

export function defineQueue<T>(name: string, schema: z.ZodType<T>): QueueContract<T> {
  return { name, schema };
}

/** The payload of a sweep run on a schedule: nothing, the sweep finds its own work. */
export const sweepJobSchema = z.strictObject({});
export type SweepJobData = z.infer<typeof sweepJobSchema>;

/**
 * Every queue of OnAir. The `sessions` queue carries studio sessions from the api to the media
 * workers (ARCHITECTURE "The studio session"); `renders` carries pages from a session to the render
 * workers (render/render-job.ts); the others are the api's own background work.
 */
export const queues = {
  sessions: defineQueue('sessions', sessionJobSchema),
  renders: defineQueue('renders', renderJobSchema),
  scheduledBroadcasts: defineQueue('scheduled-broadcasts', scheduledBroadcastJobSchema),
  dataExports: defineQueue('data-exports', dataExportJobSchema),
  recordingRetention: defineQueue('recording-retention', sweepJobSchema),
  weeklyDigest: defineQueue('weekly-digest', sweepJobSchema),
  accountErasure: defineQueue('account-erasure', sweepJobSchema),
  campaignSweep: defineQueue('campaign-sweep', sweepJobSchema),
} as const;
