import { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '@onair/runtime';
import type { AccountDeletionService } from './deletion-service.ts';

export const ERASURE_QUEUE = 'account-erasure';
const SCHEDULER_ID = 'erase-due-accounts';

/**
 * The scheduled erasure (partner spec §4): a BullMQ job scheduler runs one sweep every interval,
 * once across all api replicas (BullMQ hands each run to one worker), and the sweep erases the
 * accounts whose retention window has passed.
 */
export class AccountErasureJob {
  private readonly queue: Queue;
  private readonly worker: Worker;
  private readonly options: { connection: Redis; prefix?: string };
  private events: QueueEvents | null = null;

  constructor(deps: { redis: Redis; logger: Logger; deletion: AccountDeletionService; everyMs: number; prefix?: string }) {
    const connection = deps.redis.duplicate({ maxRetriesPerRequest: null });
    const options = { connection, ...(deps.prefix ? { prefix: deps.prefix } : {}) };
    this.options = options;
    this.queue = new Queue(ERASURE_QUEUE, options);
    this.worker = new Worker(
      ERASURE_QUEUE,
      async () => {
        const erased = await deps.deletion.eraseDue();
        return { erased };
      },
      { ...options, concurrency: 1 },
    );
    this.worker.on('failed', (_job, err) => deps.logger.warn({ err: err.message }, 'account erasure sweep failed; the next run tries again'));
    this.everyMs = deps.everyMs;
  }

  private readonly everyMs: number;

  async start(): Promise<void> {
    await this.queue.upsertJobScheduler(SCHEDULER_ID, { every: this.everyMs }, { name: 'sweep', opts: { removeOnComplete: 100, removeOnFail: 100 } });
  }

  /** One sweep now, through the queue (what the scheduler does at each interval); resolves with how many were erased. */
  async runNow(): Promise<number> {
    if (!this.events) {
      this.events = new QueueEvents(ERASURE_QUEUE, { ...this.options, connection: this.options.connection.duplicate() });
      await this.events.waitUntilReady();
    }
    const job = await this.queue.add('sweep', {}, { removeOnComplete: 100, removeOnFail: 100 });
    const result = (await job.waitUntilFinished(this.events)) as { erased: number };
    return result.erased;
  }

  async close(): Promise<void> {
    await this.events?.close();
    await this.worker.close();
    await this.queue.close();
    await this.options.connection.quit();
  }
}
