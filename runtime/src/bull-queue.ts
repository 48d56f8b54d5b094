import { Queue, QueueEvents, UnrecoverableError, Worker, type Job, type JobsOptions, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { OnAirError, type QueueContract } from '@onair/protocol';

export interface BullQueueOptions {
  /** The key prefix in Redis (BullMQ's 'bull' when absent); tests give each file its own. */
  prefix?: string | undefined;
  /**
   * 'own' (the default): each part (queue, worker, events) opens a connection of its own on first
   * use, BullMQ-capable (maxRetriesPerRequest: null), and close() quits them. 'shared': the queue
   * issues its commands on the caller's connection (a producer or a reader; close() leaves it open).
   */
  connection?: 'own' | 'shared';
}

/** How this process's worker holds its jobs; BullMQ's defaults where absent. */
export interface WorkSettings<T, R> {
  /** Jobs at once ('work' only; a manual fetcher takes them one by one). */
  concurrency?: number;
  /** A long-running job (a session, a page) keeps its lock this long between renewals. */
  lockDuration?: number;
  stalledInterval?: number;
  maxStalledCount?: number;
  /** Seconds a blocking fetch waits on an empty queue. */
  drainDelay?: number;
  onFailed?: (job: Job<T, R> | undefined, err: Error) => void;
  /** Connection and queue errors of the worker (BullMQ retries by itself). */
  onError?: (err: Error) => void;
}

/** A processor: the parsed payload, the job, its lock token and the signal of a cancelled job. */
export type JobProcessor<T, R> = (data: T, job: Job<T, R>, token: string | undefined, signal: AbortSignal | undefined) => Promise<R>;

/**
 * One BullMQ queue of the project, with its connection and prefix decided in one place and its
 * name and payload schema taken from its contract in protocol (queues.ts), so that producer and
 * consumer hold the same one: a job is parsed when added (JOB_INVALID when it does not parse) and
 * again when taken. The queue, its worker and its events are made on first use (a process that
 * never uses a queue holds no connection for it), and close() closes whatever was made, once
 * however often it is called.
 */
export class BullQueue<T, R = unknown> {
  private producer: Queue | null = null;
  private consumer: Worker<T, R> | null = null;
  private listener: QueueEvents | null = null;
  private readonly owned: Redis[] = [];
  private closing: Promise<void> | null = null;

  readonly name: string;

  constructor(
    private readonly redis: Redis,
    private readonly contract: QueueContract<T>,
    private readonly options: BullQueueOptions = {},
  ) {
    this.name = contract.name;
  }

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

  /** Adds a job whose payload parses with the queue's schema; throws OnAirError JOB_INVALID (nothing added) otherwise. */
  async add(name: string, data: T, options?: JobsOptions): Promise<Job> {
    return this.queue.add(name, this.produce(data), options);
  }

  /** Replaces a job's payload, parsed as `add` parses it. */
  async updateData(job: Job, data: T): Promise<void> {
    await job.updateData(this.produce(data));
  }

  /**
   * A job's payload parsed with the queue's schema, or an UnrecoverableError (code JOB_INVALID in
   * its message) to fail the job with: BullMQ then never retries it.
   */
  parse(job: Job): { ok: true; data: T } | { ok: false; error: UnrecoverableError } {
    const parsed = this.contract.schema.safeParse(job.data);
    if (parsed.success) return { ok: true, data: parsed.data };
    return { ok: false, error: new UnrecoverableError(`JOB_INVALID: invalid ${this.name} job: ${issuePaths(parsed.error.issues)}`) };
  }

  /**
   * Runs the queue's jobs in this process: each payload parsed with the schema first (a payload
   * that does not parse fails for good, never retried); a failed job is told to `onFailed`.
   */
  work(processor: JobProcessor<T, R>, settings: WorkSettings<T, R> & { concurrency: number }): Worker<T, R> {
    return this.worker(async (job, token, signal) => {
      const parsed = this.parse(job);
      if (!parsed.ok) throw parsed.error;
      return processor(parsed.data, job, token, signal);
    }, settings);
  }

  /**
   * A worker that runs nothing by itself (BullMQ's manual mode): the caller fetches each job with
   * `getNextJob` and decides whether to keep it (admission before a session starts). Its stalled
   * check is started here; the caller parses each job with `parse` and fails the ones that do not.
   */
  async fetcher(settings: Omit<WorkSettings<T, R>, 'concurrency' | 'onFailed'>): Promise<Worker<T, R>> {
    const worker = this.worker(null, { ...settings, autorun: false });
    await worker.startStalledCheckTimer();
    return worker;
  }

  private worker(processor: ConstructorParameters<typeof Worker<T, R>>[1], settings: WorkSettings<T, R> & { autorun?: boolean }): Worker<T, R> {
    if (this.consumer) throw new Error(`the ${this.name} queue has a worker already`);
    const { onFailed, onError, ...rest } = settings;
    const options: WorkerOptions = { ...this.partOptions() };
    for (const [key, value] of Object.entries(rest)) if (value !== undefined) Object.assign(options, { [key]: value });
    this.consumer = new Worker<T, R>(this.name, processor, options);
    if (onFailed) this.consumer.on('failed', (job, err) => onFailed(job, err));
    if (onError) this.consumer.on('error', onError);
    return this.consumer;
  }

  /** The worker takes no new job; the running ones go on (a drain hands them back itself). */
  async pause(): Promise<void> {
    await this.consumer?.pause(true);
  }

  /** The queue's events (to wait for a job to finish), ready to use. */
  async events(): Promise<QueueEvents> {
    if (!this.listener) {
      this.listener = new QueueEvents(this.name, this.partOptions());
      await this.listener.waitUntilReady();
    }
    return this.listener;
  }

  private produce(data: T): T {
    const parsed = this.contract.schema.safeParse(data);
    if (!parsed.success) {
      throw new OnAirError('JOB_INVALID', `A job of the ${this.name} queue was not added: ${issuePaths(parsed.error.issues)} not valid.`, {
        queue: this.name,
        issues: parsed.error.issues,
      });
    }
    return parsed.data;
  }

  /**
   * Closes the events, the worker and the queue (what was made), then quits the connections it
   * opened. `force`: the worker does not wait for its running jobs (they stay active and stall to
   * another worker, as after kill -9; a blocking fetch is cut).
   */
  close(options: { force?: boolean } = {}): Promise<void> {
    this.closing ??= (async () => {
      await this.listener?.close();
      await this.consumer?.close(options.force ?? false);
      await this.producer?.close();
      for (const connection of this.owned) await connection.quit().catch(() => undefined);
    })();
    return this.closing;
  }
}

function issuePaths(issues: readonly { path: readonly PropertyKey[] }[]): string {
  return issues.map((i) => i.path.map(String).join('.') || '(root)').join(', ');
}
