import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { SCHEDULED_BROADCASTS_QUEUE, scheduledBroadcastJobSchema, type ScheduledBroadcastJob } from '@onair/protocol';
import type { Logger } from '@onair/runtime';

const jobId = (job: ScheduledBroadcastJob) => `${job.scheduleId}-${job.step}`;

/**
 * The `scheduled-broadcasts` queue: a delayed job per scheduled start (and one per end, when the
 * video has played). Jobs wait in Redis, so a schedule survives api restarts; a worker in every api
 * replica runs them, each job once.
 */
export class ScheduledBroadcastQueue {
  // Connections are opened on first use: an api that never schedules holds none.
  private queue: Queue<ScheduledBroadcastJob> | null = null;
  private worker: Worker<ScheduledBroadcastJob> | null = null;
  private readonly prefix: string | undefined;

  constructor(
    private readonly redis: Redis,
    options: { prefix?: string } = {},
  ) {
    this.prefix = options.prefix;
  }

  private options() {
    return { connection: this.redis.duplicate({ maxRetriesPerRequest: null }), ...(this.prefix ? { prefix: this.prefix } : {}) };
  }

  async enqueue(job: ScheduledBroadcastJob, delayMs: number): Promise<void> {
    this.queue ??= new Queue<ScheduledBroadcastJob>(SCHEDULED_BROADCASTS_QUEUE, this.options());
    await this.queue.add(job.step, job, { jobId: jobId(job), delay: Math.max(0, delayMs), attempts: 1, removeOnComplete: 100, removeOnFail: 100 });
  }

  /** Takes a job that has not run yet out of the queue (a cancelled schedule). */
  async remove(job: ScheduledBroadcastJob): Promise<void> {
    this.queue ??= new Queue<ScheduledBroadcastJob>(SCHEDULED_BROADCASTS_QUEUE, this.options());
    await this.queue.remove(jobId(job));
  }

  /** Runs the jobs in this process. */
  work(run: (job: ScheduledBroadcastJob) => Promise<void>, logger: Logger): void {
    this.worker = new Worker<ScheduledBroadcastJob>(SCHEDULED_BROADCASTS_QUEUE, async (job) => run(scheduledBroadcastJobSchema.parse(job.data)), { ...this.options(), concurrency: 2 });
    this.worker.on('failed', (job, err) => logger.warn({ err: err.message, scheduleId: job?.data.scheduleId }, 'scheduled broadcast job failed'));
  }

  async close(): Promise<void> {
    for (const part of [this.worker, this.queue]) {
      if (!part) continue;
      const connection = part.opts.connection as Redis;
      await part.close();
      await connection.quit();
    }
  }
}
