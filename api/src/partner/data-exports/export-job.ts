import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { DATA_EXPORTS_QUEUE, dataExportJobSchema, type DataExportJob } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import type { DataExportService } from './export-service.ts';

/** The data-exports queue: the api enqueues, a worker in every api replica builds (one at a time each). */
export class DataExportQueue {
  // Connections are opened on first use: an api that never exports holds none.
  private queue: Queue<DataExportJob> | null = null;
  private worker: Worker<DataExportJob> | null = null;
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

  async enqueue(job: DataExportJob): Promise<void> {
    this.queue ??= new Queue<DataExportJob>(DATA_EXPORTS_QUEUE, this.options());
    await this.queue.add('export', job, { jobId: job.exportId, attempts: 1, removeOnComplete: 100, removeOnFail: 100 });
  }

  /** Starts building exports in this process. */
  work(service: DataExportService, logger: Logger): void {
    this.worker = new Worker<DataExportJob>(
      DATA_EXPORTS_QUEUE,
      async (job) => {
        const { exportId, userId } = dataExportJobSchema.parse(job.data);
        await service.build(exportId, userId, (percent) => job.updateProgress(percent));
      },
      { ...this.options(), concurrency: 1 },
    );
    this.worker.on('failed', (job, err) => logger.warn({ err: err.message, exportId: job?.data.exportId }, 'data export failed'));
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
