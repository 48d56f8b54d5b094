import { z } from 'zod';

/** The kinds of worker process in the fleet. */
export const workerKinds = ['media', 'render'] as const;
export const workerKindSchema = z.enum(workerKinds);
export type WorkerKind = z.infer<typeof workerKindSchema>;

/** Seconds between heartbeats, and how long a heartbeat stays valid in Redis before the worker counts as dead. */
export const HEARTBEAT_INTERVAL_MS = 1000;
export const HEARTBEAT_TTL_MS = 5000;

/**
 * What a worker says about itself every heartbeat. Stored as JSON under
 * `workerKey(kind, id)` with a TTL, so a worker that dies silently disappears by itself.
 */
export const workerHeartbeatSchema = z.object({
  id: z.string().min(1),
  kind: workerKindSchema,
  host: z.string(),
  pid: z.number().int().positive(),
  version: z.string(),
  /** The Node.js version the process runs (`process.versions.node`), so a fleet mid-upgrade shows which workers moved. */
  node: z.string().regex(/^\d+\.\d+\.\d+/),
  startedAt: z.iso.datetime(),
  sentAt: z.iso.datetime(),
  state: z.enum(['running', 'draining']),
  cores: z.number().positive(),
  /** CPU use of the worker and its child processes (pipelines, browsers) over the last interval, in cores (1.0 = one core busy). */
  cpuCores: z.number().nonnegative(),
  /** Resident set size of the worker and its child processes, in bytes. */
  rssBytes: z.number().int().nonnegative(),
  sessions: z.number().int().nonnegative(),
  outputs: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative(),
  bitrateKbps: z.number().nonnegative(),
  fps: z.number().nonnegative(),
  droppedFrames: z.number().int().nonnegative(),
  /**
   * A media worker's sessions, each with what the admission model charged for it (sessionCost)
   * beside the cores its pipeline process tree measures (averaged over the last seconds; absent
   * until a first interval has been measured), so an operator sees when the model is wrong. The
   * worker's own process (WebRTC, the egress) is the rest of `cpuCores`.
   */
  sessionLoads: z
    .array(z.object({ sessionId: z.string(), estimatedCores: z.number().nonnegative(), measuredCores: z.number().nonnegative().optional() }))
    .optional(),
});
export type SessionLoad = NonNullable<z.infer<typeof workerHeartbeatSchema>['sessionLoads']>[number];
export type WorkerHeartbeat = z.infer<typeof workerHeartbeatSchema>;

/** Redis keys of the worker registry; the only place these strings are spelled. */
export const workerRegistryKeys = {
  worker: (kind: WorkerKind, id: string) => `onair:workers:${kind}:${id}`,
  pattern: (kind: WorkerKind) => `onair:workers:${kind}:*`,
  /** Pub/sub channel on which a worker announces that it starts or stops. */
  events: 'onair:workers:events',
} as const;

export const workerEventSchema = z.object({
  type: z.enum(['started', 'stopped']),
  kind: workerKindSchema,
  id: z.string(),
  at: z.iso.datetime(),
});
export type WorkerEvent = z.infer<typeof workerEventSchema>;
