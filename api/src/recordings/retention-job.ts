import { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '@onair/runtime';
import type { RecordingService } from './recording-service.ts';

export const RECORDING_RETENTION_QUEUE = 'recording-retention';
const SCHEDULER_ID = 'delete-expired-recordings';

/**
 * Retention per plan (issue 19): a BullMQ job scheduler runs one sweep every interval, once across
 * all api replicas, and the sweep deletes the recordings past their plan's retention from the
 * uploads store (after measuring, and with a bucket copying, those that ended since).
 */
export class RecordingRetentionJob {
  private readonly queue: Queue;
  private readonly worker: Worker;
  private readonly options: { connection: Redis; prefix?: string };
  private events: QueueEvents | null = null;
  private readonly everyMs: number;

  constructor(deps: { redis: Redis; logger: Logger; recordings: RecordingService; everyMs: number; prefix?: string }) {
    const connection = deps.redis.duplicate({ maxRetriesPerRequest: null });
    this.options = { connection, ...(deps.prefix ? { prefix: deps.prefix } : {}) };
    this.everyMs = deps.everyMs;
    this.queue = new Queue(RECORDING_RETENTION_QUEUE, this.options);
    this.worker = new Worker(
      RECORDING_RETENTION_QUEUE,
      async () => {
        const settled = await deps.recordings.settleEnded();
        return { settled, deleted: await deps.recordings.deleteExpired() };
      },
      { ...this.options, concurrency: 1 },
    );
    this.worker.on('failed', (_job, err) => deps.logger.warn({ err: err.message }, 'recording retention sweep failed; the next run tries again'));
  }

  async start(): Promise<void> {
    await this.queue.upsertJobScheduler(SCHEDULER_ID, { every: this.everyMs }, { name: 'sweep', opts: { removeOnComplete: 100, removeOnFail: 100 } });
  }

  /** One sweep now, through the queue (what the scheduler does at each interval); resolves with how many were deleted. */
  async runNow(): Promise<number> {
    if (!this.events) {
      this.events = new QueueEvents(RECORDING_RETENTION_QUEUE, { ...this.options, connection: this.options.connection.duplicate() });
      await this.events.waitUntilReady();
    }
    const job = await this.queue.add('sweep', {}, { removeOnComplete: 100, removeOnFail: 100 });
    return ((await job.waitUntilFinished(this.events)) as { deleted: number }).deleted;
  }

  async close(): Promise<void> {
    await this.events?.close();
    await this.worker.close();
    await this.queue.close();
    await this.options.connection.quit();
  }
}
