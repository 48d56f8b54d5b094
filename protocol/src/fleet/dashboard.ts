import { z } from 'zod';
import { workerHeartbeatSchema } from '../workers.ts';
import { failoverRecordSchema } from '../sessions/session.ts';
import { outputStateSchema, pipelineErrorCodeSchema } from '../pipeline/ipc.ts';

/** One worker as the operators' dashboard shows it: its last heartbeat and the sessions it owns. */
export const fleetWorkerSchema = workerHeartbeatSchema.extend({
  /** Projects whose session this worker owns (from the session ownership records). */
  sessionIds: z.array(z.string()),
});
export type FleetWorker = z.infer<typeof fleetWorkerSchema>;

/** The BullMQ `sessions` queue: sessions asked for and not yet placed on a worker. */
export const fleetQueueSchema = z.object({
  waiting: z.number().int().nonnegative(),
  delayed: z.number().int().nonnegative(),
  /** Sessions held by a worker right now (BullMQ active jobs). */
  active: z.number().int().nonnegative(),
  /** How long the oldest waiting session has waited; null when none waits. */
  oldestWaitingMs: z.number().nonnegative().nullable(),
});
export type FleetQueue = z.infer<typeof fleetQueueSchema>;

/** A destination output that gave up (the pipeline reported it failed). */
export const failedOutputSchema = z.object({
  sessionId: z.string(),
  outputId: z.string(),
  state: outputStateSchema,
  errorCode: pipelineErrorCodeSchema.optional(),
  /** When the session last reported its stats. */
  at: z.iso.datetime(),
});
export type FailedOutput = z.infer<typeof failedOutputSchema>;

/** The live state of the fleet (polled by the dashboard every 2 s). */
export const fleetOverviewSchema = z.object({
  at: z.iso.datetime(),
  workers: z.array(fleetWorkerSchema),
  queue: fleetQueueSchema,
  failedOutputs: z.array(failedOutputSchema),
  /** Newest first. */
  failovers: z.array(failoverRecordSchema),
  /** The api replica that currently samples load and scales the media workers; null when none holds the lease. */
  leader: z.string().nullable(),
});
export type FleetOverview = z.infer<typeof fleetOverviewSchema>;

/** One point of the fleet's load history, sampled by the leading api replica. */
export const fleetLoadSampleSchema = z.object({
  at: z.iso.datetime(),
  /** Media workers taking sessions, and those draining. */
  mediaWorkers: z.number().int().nonnegative(),
  drainingWorkers: z.number().int().nonnegative(),
  renderWorkers: z.number().int().nonnegative(),
  sessions: z.number().int().nonnegative(),
  queued: z.number().int().nonnegative(),
  /** Busy and available cores over all media workers. */
  cpuCores: z.number().nonnegative(),
  cores: z.number().nonnegative(),
  outputs: z.number().int().nonnegative(),
  bitrateKbps: z.number().nonnegative(),
});
export type FleetLoadSample = z.infer<typeof fleetLoadSampleSchema>;

export const fleetLoadHistorySchema = z.object({
  /** Seconds between samples. */
  intervalSeconds: z.number().positive(),
  /** Oldest first, covering at most FLEET_HISTORY_WINDOW_MS. */
  samples: z.array(fleetLoadSampleSchema),
});
export type FleetLoadHistory = z.infer<typeof fleetLoadHistorySchema>;

/** The history the dashboard charts, and how often the leader samples it. */
export const FLEET_HISTORY_WINDOW_MS = 3600_000;
export const FLEET_SAMPLE_INTERVAL_MS = 5000;

/** Redis keys of the fleet's own state; the only place these strings are spelled. */
export const fleetKeys = {
  /** JSON FleetLoadSample list, newest first, trimmed to the window. */
  loadHistory: 'onair:fleet:load-history',
  /** Lease of the api replica that samples and scales (value: that replica's id). */
  leader: 'onair:fleet:leader',
} as const;
