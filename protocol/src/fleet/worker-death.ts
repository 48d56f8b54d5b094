import { z } from 'zod';

/**
 * A worker known dead for certain (issue 54): the one-machine supervisor saw its process exit, or
 * Kubernetes reported its pod gone. Whoever knows releases the worker's session leases at once (the
 * standby takes over without waiting out the lock) and leaves this record, so the next owner of a
 * session need not wait out the dead worker's pipeline either. Never written on a guess (a missed
 * heartbeat, a slow lock extension): a worker only suspected dead keeps its lease until it lapses.
 */
export const workerDeathSchema = z.object({
  workerId: z.string().min(1),
  /** Who knew, and how: 'process exited (signal SIGKILL)', 'pod deleted'. */
  cause: z.string().min(1),
  at: z.iso.datetime(),
});
export type WorkerDeath = z.infer<typeof workerDeathSchema>;

/** How long the record of a death is kept: far longer than any take-over of its sessions lasts. */
export const WORKER_DEATH_TTL_MS = 10 * 60_000;

/** Redis keys of worker deaths; the only place these strings are spelled. */
export const workerDeathKeys = {
  death: (workerId: string) => `onair:fleet:dead:${workerId}`,
} as const;
