import type { Redis } from 'ioredis';
import { queues, type ScheduledBroadcastJob } from '@onair/protocol';
import { BullQueue, type Logger } from '@onair/runtime';

const jobId = (job: ScheduledBroadcastJob) => `${job.scheduleId}-${job.step}`;

/**
 * The `scheduled-broadcasts` queue: a delayed job per scheduled start (and one per end, when the
 * video has played). Jobs wait in Redis, so a schedule survives api restarts; a worker in every api
 * replica runs them, each job once. Connections are opened on first use: an api that never
 * schedules holds none.
 */
export class ScheduledBroadcastQueue {
  private readonly jobs: BullQueue<ScheduledBroadcastJob, void>;

  constructor(redis: Redis, options: { prefix?: string } = {}) {
    this.jobs = new BullQueue(redis, queues.scheduledBroadcasts, { prefix: options.prefix });
  }

  async enqueue(job: ScheduledBroadcastJob, delayMs: number): Promise<void> {
    await this.jobs.add(job.step, job, { jobId: jobId(job), delay: Math.max(0, delayMs), attempts: 1, removeOnComplete: 100, removeOnFail: 100 });
  }

  /** Takes a job that has not run yet out of the queue (a cancelled schedule). */
  async remove(job: ScheduledBroadcastJob): Promise<void> {
    await this.jobs.queue.remove(jobId(job));
  }

  /** Runs the jobs in this process. */
  work(run: (job: ScheduledBroadcastJob) => Promise<void>, logger: Logger): void {
    this.jobs.work(run, {
      concurrency: 2,
      onFailed: (job, err) => logger.warn({ err: err.message, scheduleId: job?.data.scheduleId }, 'scheduled broadcast job failed'),
    });
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}
