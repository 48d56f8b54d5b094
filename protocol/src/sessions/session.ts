import { z } from 'zod';

/**
 * A studio session (ARCHITECTURE "The studio session"): a project open in the studio, placed on
 * exactly one media worker through the BullMQ `sessions` queue (queues.ts). The job is long-running: the worker
 * holds its lock for as long as the session lives, so a worker killed with -9 lets the lock expire,
 * BullMQ's stalled-job check puts the job back, and another worker picks the session up. When the
 * death is certain (the one-machine supervisor saw the process exit, Kubernetes reported the pod
 * gone), a death notice hands the job back at once instead (WorkerDeaths in runtime, issue 54).
 */
/**
 * How long a worker's hold on a session lasts without renewal (renewed every quarter of it), and how
 * often stalled holds are checked. 6 s, not 3: on a loaded 2-core server the worker's renewals (and
 * Redis's answers) were seen more than 3 s late, and the session was then stopped and restarted
 * from nothing, failing its destinations (CI of 2026-12-08, the two-creators journey). A certain
 * death is not waited out at all (the death notice); an uncertain one (a hung worker, a partition)
 * is picked up 6-7.5 s after it, inside issue 9's 10 s.
 */
export const SESSION_LOCK_MS = 6000;
export const SESSION_STALLED_CHECK_MS = 1000;

export const sessionJobSchema = z.object({
  projectId: z.uuid(),
  /** When the api asked for the session, to measure placement latency. */
  requestedAt: z.iso.datetime(),
  /** Whether an enabled destination takes the vertical canvas: the session then costs a second canvas (admission). */
  vertical: z.boolean().optional(),
});
export type SessionJob = z.infer<typeof sessionJobSchema>;

/** The session's life as the api and the studio see it. */
export const sessionStates = ['waiting', 'starting', 'running', 'stopping', 'stopped'] as const;
export const sessionStateSchema = z.enum(sessionStates);
export type SessionState = z.infer<typeof sessionStateSchema>;

/**
 * Who holds a session; rewritten by the owning worker every second. The record outlives its
 * writer (SESSION_OWNER_TTL_MS) so the next worker can tell a failover and its gap; whether the
 * owner is alive is judged by `lastSeenAt` (fresh within SESSION_OWNER_FRESH_MS).
 */
export const sessionOwnerSchema = z.object({
  projectId: z.uuid(),
  workerId: z.string(),
  state: sessionStateSchema,
  since: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  /** Scene document version the pipeline last applied. */
  appliedVersion: z.number().int().nonnegative(),
  /** Times this session was picked up again after its worker died or handed it over. */
  pickups: z.number().int().nonnegative(),
  /**
   * Where the session's pipeline process runs (machine name and pid), while one runs: the worker
   * that takes the session over makes sure that process is gone before it publishes (issue 42).
   */
  pipeline: z.object({ host: z.string().min(1), pid: z.number().int().positive() }).optional(),
});
export type SessionOwner = z.infer<typeof sessionOwnerSchema>;

/**
 * Commands the api sends to the worker that owns a session (Redis pub/sub). Outputs carry sealed
 * (encrypted) stream keys; only the owning worker opens them, right before handing them to the pipeline.
 */
export const sessionCommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('setOutputs'), outputs: z.string().describe('sealed JSON array of plan outputs') }),
  z.object({ type: z.literal('stop') }),
  /** Issue 19: record the program into this recording (its parts), or stop recording (null). */
  z.object({ type: z.literal('setRecording'), recordingId: z.uuid().nullable() }),
  /** The chat message on screen changed (issue 53 item 1): the worker reads sessionKeys.chatOnScreen again and draws it. */
  z.object({ type: z.literal('chatOnScreen') }),
]);
export type SessionCommand = z.infer<typeof sessionCommandSchema>;

export const SESSION_OWNER_TTL_MS = 60_000;
export const SESSION_OWNER_FRESH_MS = 3000;
/**
 * How long a pipeline process may outlive its worker (it ends itself within this, whatever its
 * pipeline is doing): with the session's lock (SESSION_LOCK_MS), what the next owner waits for
 * before it publishes when it cannot see the previous owner's pipeline itself.
 */
export const PIPELINE_ORPHAN_EXIT_MS = 1000;
/** The scene-document snapshot the api keeps for workers (which hold no database credentials). */
export const SESSION_DOCUMENT_TTL_MS = 24 * 3600 * 1000;

/** Redis keys and channels of sessions; the only place these strings are spelled. */
export const sessionKeys = {
  owner: (projectId: string) => `onair:sessions:${projectId}:owner`,
  commands: (projectId: string) => `onair:sessions:${projectId}:commands`,
  /** Hash {version, document}: the newest scene document, written by the api on every accepted patch. */
  document: (projectId: string) => `onair:projects:${projectId}:document`,
  /** The outputs of a live session, sealed, so a session picked up after a failover goes live again. */
  outputs: (projectId: string) => `onair:sessions:${projectId}:outputs`,
  /** The id of the recording a live session writes, so a session picked up after a failover records on as a new part. */
  recording: (projectId: string) => `onair:sessions:${projectId}:recording`,
  /**
   * The countdown scene running in the project ({sceneId, endsAt}, runningCountdownSchema): written
   * by the api when the scene is shown, before the patch is announced, so the worker that redraws
   * the program on that patch draws the same time left as the api switches on.
   */
  countdown: (projectId: string) => `onair:projects:${projectId}:countdown`,
  /** The chat message on screen (chatOnScreenStoredSchema), written by the api; it expires with the message. */
  chatOnScreen: (projectId: string) => `onair:projects:${projectId}:chat:on-screen`,
  /** What the session's pipeline last reported on air of it (chatOnAirSchema, or 'null'), written by the worker. */
  chatOnAir: (projectId: string) => `onair:sessions:${projectId}:chat-on-air`,
  /** Pickups after failovers, newest first (capped list of JSON records), for the operators' dashboard. */
  failovers: 'onair:sessions:failovers',
} as const;

/** A running countdown as the api keeps it in Redis (sessionKeys.countdown); `endsAt` in ms since the epoch. */
export const runningCountdownSchema = z.object({ sceneId: z.string().min(1), endsAt: z.number().int().nonnegative() });
export type RunningCountdown = z.infer<typeof runningCountdownSchema>;

export const failoverRecordSchema = z.object({
  projectId: z.uuid(),
  fromWorkerId: z.string().nullable(),
  toWorkerId: z.string(),
  at: z.iso.datetime(),
  /** From the previous owner's last sign of life to the new pipeline playing. */
  gapMs: z.number().nonnegative().nullable(),
});
export type FailoverRecord = z.infer<typeof failoverRecordSchema>;
