import { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { defineQueue, queues, WORKER_DEATH_TTL_MS, workerDeathKeys, workerDeathSchema, workerRegistryKeys, type WorkerDeath } from '@onair/protocol';
import { z } from 'zod';
import { BullQueue } from '../bull-queue.ts';

/** The sessions queue as the notice sees it: it moves jobs by their lock and never reads what they carry (the load harness's are its own). */
const sessionLeases = defineQueue(queues.sessions.name, z.unknown());

export interface WorkerDeathsOptions {
  /** BullMQ key prefix of the `sessions` queue ('bull' when absent); the load harness runs on its own. */
  prefix?: string;
}

/**
 * The death notice of issue 54: told by whoever knows for certain that a media worker is gone (the
 * one-machine supervisor that saw its process exit, the Kubernetes watch that saw its pod deleted),
 * it releases that worker's session leases at once instead of leaving them to lapse.
 *
 * A session's lease is its BullMQ job lock, whose token is `<workerId>:<uuid>` (SessionConsumer):
 * the token names its holder, so the dead worker's leases are found by it, and each is handed back
 * with BullMQ's own move-to-wait, which checks the token and, in one script, drops the lock, puts
 * the job back in the queue and wakes the workers blocked on it. The token is also the fence: a
 * worker whose lock was moved fails its next extension and stops publishing (SessionConsumer), so
 * even a notice sent in error cannot leave two publishers for longer than one extension period.
 */
export class WorkerDeaths {
  private readonly sessions: BullQueue<unknown>;

  constructor(
    private readonly redis: Redis,
    options: WorkerDeathsOptions = {},
  ) {
    this.sessions = new BullQueue(redis, sessionLeases, { prefix: options.prefix, connection: 'shared' });
  }

  /**
   * Records the death, takes the worker out of the registry and hands its sessions back to the
   * queue. Returns the sessions (project ids) released. Safe to call more than once, and by several
   * notifiers at once: a lease is moved only while the dead worker's token still holds it.
   */
  async workerDied(workerId: string, cause: string): Promise<string[]> {
    const death: WorkerDeath = workerDeathSchema.parse({ workerId, cause, at: new Date().toISOString() });
    // Written before any lease moves: the worker that takes a session over reads it to know that
    // the previous owner cannot publish any more (SessionConsumer.fencePrevious).
    await this.redis
      .multi()
      .set(workerDeathKeys.death(workerId), JSON.stringify(death), 'PX', WORKER_DEATH_TTL_MS)
      .del(workerRegistryKeys.worker('media', workerId))
      .exec();
    const queue = this.sessions.queue;
    const active = await this.redis.lrange(queue.toKey('active'), 0, -1);
    const released: string[] = [];
    for (const jobId of active) {
      const token = await this.redis.get(`${queue.toKey(jobId)}:lock`);
      if (!token?.startsWith(`${workerId}:`)) continue;
      const job = await Job.fromId(queue, jobId);
      if (!job) continue;
      try {
        await job.moveToWait(token);
        released.push(jobId);
      } catch {
        // Moved in between (its lock lapsed and the stalled check took it): the queue has it already.
      }
    }
    return released;
  }

  /** The recorded death of `workerId`, if a notifier knew of one. */
  async deathOf(workerId: string): Promise<WorkerDeath | undefined> {
    const raw = await this.redis.get(workerDeathKeys.death(workerId));
    if (raw === null) return undefined;
    const parsed = workerDeathSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  }

  async close(): Promise<void> {
    await this.sessions.close();
  }
}
