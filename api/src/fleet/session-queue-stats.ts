import type { Redis } from 'ioredis';
import { queues, type FleetQueue } from '@onair/protocol';
import { BullQueue } from '@onair/runtime';

/** How many waiting jobs are read to find the oldest; the list is FIFO, so the oldest are at its end. */
const OLDEST_SCAN = 200;

/**
 * Reads the BullMQ `sessions` queue for the scaler and the dashboard, without consuming from it.
 * It only issues commands, so it shares the api's Redis connection.
 */
export class SessionQueueStats {
  private readonly jobs: BullQueue<unknown>;

  /** `queueName`: another queue of session jobs (tests give each their own). */
  constructor(redis: Redis, queueName: string = queues.sessions.name) {
    this.jobs = new BullQueue<unknown>(redis, { ...queues.sessions, name: queueName }, { connection: 'shared' });
  }

  async read(now = Date.now()): Promise<FleetQueue> {
    const counts = await this.jobs.queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active');
    const waiting = (counts.waiting ?? 0) + (counts.prioritized ?? 0);
    let oldestWaitingMs: number | null = null;
    if (waiting > 0) {
      const jobs = await this.jobs.queue.getJobs(['waiting', 'prioritized'], Math.max(0, waiting - OLDEST_SCAN), waiting - 1);
      const oldest = Math.min(...jobs.map((j) => j.timestamp));
      if (Number.isFinite(oldest)) oldestWaitingMs = Math.max(0, now - oldest);
    }
    return { waiting, delayed: counts.delayed ?? 0, active: counts.active ?? 0, oldestWaitingMs };
  }

  async close(): Promise<void> {
    await this.jobs.close();
  }
}
