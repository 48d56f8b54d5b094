import { Queue, QueueEvents, Worker, type Job, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { z } from 'zod';

export interface BullQueueOptions<T> {
  /** The key prefix in Redis (BullMQ's 'bull' when absent); tests give each file its own. */
  prefix?: string | undefined;
  /** Every job's payload is parsed with it before the processor sees it. */
  schema?: z.ZodType<T> | undefined;
  /**
   * 'own' (the default): each part (queue, worker, events) opens a connection of its own on first
   * use, BullMQ-capable (maxRetriesPerRequest: null), and close() quits them. 'shared': the queue
   * issues its commands on the caller's connection (a producer or a reader; close() leaves it open).
   */
  connection?: 'own' | 'shared';
}

/**
 * One BullMQ queue of the project, with its connection, prefix and payload schema decided in one
 * place: the queue, its worker and its events are made on first use (a process that never uses a
 * queue holds no connection for it), and close() closes whatever was made, once however often it
 * is called.
 */
export class BullQueue<T, R = unknown> {
  private producer: Queue | null = null;
  private consumer: Worker<T, R> | null = null;
  private listener: QueueEvents | null = null;
  private readonly owned: Redis[] = [];
  private closing: Promise<void> | null = null;

  constructor(
    private readonly redis: Redis,
    readonly name: string,
    private readonly options: BullQueueOptions<T> = {},
  ) {}

  private partOptions(): { connection: Redis; prefix?: string } {
    let connection = this.redis;
    if (this.options.connection !== 'shared') {
      connection = this.redis.duplicate({ maxRetriesPerRequest: null });
      this.owned.push(connection);
    }
    return { connection, ...(this.options.prefix ? { prefix: this.options.prefix } : {}) };
  }

  /** The BullMQ queue (adds, reads, job schedulers). */
  get queue(): Queue {
    this.producer ??= new Queue(this.name, this.partOptions());
    return this.producer;
  }

  add(name: string, data: T, options?: JobsOptions): Promise<Job> {
    return this.queue.add(name, data, options);
  }

  /** Runs the queue's jobs in this process: each payload parsed with the schema first; a failed job is told to `onFailed`. */
  work(processor: (data: T, job: Job<T, R>) => Promise<R>, options: { concurrency: number; onFailed?: (job: Job<T, R> | undefined, err: Error) => void }): Worker<T, R> {
    if (this.consumer) throw new Error(`the ${this.name} queue has a worker already`);
    const schema = this.options.schema;
    this.consumer = new Worker<T, R>(this.name, async (job) => processor(schema ? schema.parse(job.data) : job.data, job), { ...this.partOptions(), concurrency: options.concurrency });
    const onFailed = options.onFailed;
    if (onFailed) this.consumer.on('failed', (job, err) => onFailed(job, err));
    return this.consumer;
  }

  /** The queue's events (to wait for a job to finish), ready to use. */
  async events(): Promise<QueueEvents> {
    if (!this.listener) {
      this.listener = new QueueEvents(this.name, this.partOptions());
      await this.listener.waitUntilReady();
    }
    return this.listener;
  }

  /** Closes the events, the worker and the queue (what was made), then quits the connections it opened. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.listener?.close();
      await this.consumer?.close();
      await this.producer?.close();
      for (const connection of this.owned) await connection.quit().catch(() => undefined);
    })();
    return this.closing;
  }
}
