import type { Redis } from 'ioredis';
import { queues } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { SweepJob } from '../jobs/sweep-job.ts';
import type { RecordingService } from './recording-service.ts';

/**
 * Retention per plan (issue 19): a BullMQ job scheduler runs one sweep every interval, once across
 * all api replicas, and the sweep deletes the recordings past their plan's retention from the
 * uploads store (after measuring, and with a bucket copying, those that ended since). `runNow()`
 * resolves with how many were deleted.
 */
export class RecordingRetentionJob extends SweepJob<number> {
  constructor(deps: { redis: Redis; logger: Logger; recordings: RecordingService; everyMs: number; prefix?: string }) {
    super({
      ...deps,
      queue: queues.recordingRetention,
      schedulerId: 'delete-expired-recordings',
      what: 'recording retention sweep',
      run: async () => {
        await deps.recordings.settleEnded();
        return deps.recordings.deleteExpired();
      },
    });
  }
}
