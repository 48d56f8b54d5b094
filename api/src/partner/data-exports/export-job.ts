import type { Redis } from 'ioredis';
import { queues, type DataExportJob } from '@onair/protocol';
import { BullQueue, type Logger } from '@onair/runtime';
import type { DataExportService } from './export-service.ts';

/**
 * The data-exports queue: the api enqueues, a worker in every api replica builds (one at a time
 * each). Connections are opened on first use: an api that never exports holds none.
 */
export class DataExportQueue {
  private readonly jobs: BullQueue<DataExportJob, void>;

  constructor(redis: Redis, options: { prefix?: string } = {}) {
    this.jobs = new BullQueue(redis, queues.dataExports, { prefix: options.prefix });
  }

  async enqueue(job: DataExportJob): Promise<void> {
    await this.jobs.add('export', job, { jobId: job.exportId, attempts: 1, removeOnComplete: 100, removeOnFail: 100 });
  }

  /** Starts building exports in this process. */
  work(service: DataExportService, logger: Logger): void {
    this.jobs.work(
      async ({ exportId, userId }, job) => {
        await service.build(exportId, userId, (percent) => job.updateProgress(percent));
      },
      { concurrency: 1, onFailed: (job, err) => logger.warn({ err: err.message, exportId: job?.data.exportId }, 'data export failed') },
    );
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}
