import type { Redis } from 'ioredis';
import type { QueueContract, SweepJobData } from '@onair/protocol';
import { BullQueue, type Logger } from '@onair/runtime';

export interface SweepJobOptions<R> {
  redis: Redis;
  logger: Logger;
  /** The BullMQ queue (one per kind of sweep, in protocol's `queues`). */
  queue: QueueContract<SweepJobData>;
  /** What the failure log line calls it. */
  what: string;
  /** One sweep; its result is what `runNow()` resolves with. */
  run: () => Promise<R>;
  /** Run every `everyMs`, or on a cron `repeat` pattern (a weekly mail). */
  everyMs?: number;
  repeat?: { pattern: string; tz?: string };
  /** The job scheduler's id in Redis (default `<queue>-every`); kept stable across releases. */
  schedulerId?: string;
  /** Tests give each run its own prefix so parallel files never share a queue. */
  prefix?: string;
}

/**
 * A sweep on a schedule: a BullMQ job scheduler runs one sweep every interval, once across all api
 * replicas (BullMQ hands each run to one worker, one at a time), and a failed sweep is logged and
 * left to the next run.
 */
export class SweepJob<R> {
  private readonly jobs: BullQueue<SweepJobData, { result: R }>;

  constructor(private readonly deps: SweepJobOptions<R>) {
    this.jobs = new BullQueue(deps.redis, deps.queue, { prefix: deps.prefix });
    this.jobs.work(async () => ({ result: await deps.run() }), {
      concurrency: 1,
      onFailed: (_job, err) => deps.logger.warn({ err: err.message }, `${deps.what} failed; the next run tries again`),
    });
  }

  async start(): Promise<void> {
    await this.jobs.queue.upsertJobScheduler(this.deps.schedulerId ?? `${this.deps.queue.name}-every`, this.deps.repeat ?? { every: this.deps.everyMs! }, {
      name: 'sweep',
      opts: { removeOnComplete: 100, removeOnFail: 100 },
    });
  }

  /** One sweep now, through the queue (what the scheduler does at each interval). */
  async runNow(): Promise<R> {
    const events = await this.jobs.events();
    const job = await this.jobs.add('sweep', {}, { removeOnComplete: 100, removeOnFail: 100 });
    return ((await job.waitUntilFinished(events)) as { result: R }).result;
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}
