import { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '@onair/runtime';

export interface SweepJobOptions<R> {
  redis: Redis;
  logger: Logger;
  /** The BullMQ queue's name (one per kind of sweep). */
  queue: string;
  /** What the failure log line calls it. */
  what: string;
  /** One sweep; its result is what `runNow()` resolves with. */
  run: () => Promise<R>;
  everyMs: number;
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
  private readonly queue: Queue;
  private readonly worker: Worker;
  private readonly connection: Redis;
  private readonly options: { connection: Redis; prefix?: string };
  private events: QueueEvents | null = null;

  constructor(private readonly deps: SweepJobOptions<R>) {
    this.connection = deps.redis.duplicate({ maxRetriesPerRequest: null });
    this.options = { connection: this.connection, ...(deps.prefix ? { prefix: deps.prefix } : {}) };
    this.queue = new Queue(deps.queue, this.options);
    this.worker = new Worker(deps.queue, async () => ({ result: await deps.run() }), { ...this.options, concurrency: 1 });
    this.worker.on('failed', (_job, err) => deps.logger.warn({ err: err.message }, `${deps.what} failed; the next run tries again`));
  }

  async start(): Promise<void> {
    await this.queue.upsertJobScheduler(this.deps.schedulerId ?? `${this.deps.queue}-every`, { every: this.deps.everyMs }, { name: 'sweep', opts: { removeOnComplete: 100, removeOnFail: 100 } });
  }

  /** One sweep now, through the queue (what the scheduler does at each interval). */
  async runNow(): Promise<R> {
    if (!this.events) {
      this.events = new QueueEvents(this.deps.queue, { ...this.options, connection: this.connection.duplicate() });
      await this.events.waitUntilReady();
    }
    const job = await this.queue.add('sweep', {}, { removeOnComplete: 100, removeOnFail: 100 });
    return ((await job.waitUntilFinished(this.events)) as { result: R }).result;
  }

  async close(): Promise<void> {
    await this.events?.close();
    await this.worker.close();
    await this.queue.close();
    await this.connection.quit();
  }
}
