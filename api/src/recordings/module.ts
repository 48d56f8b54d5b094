import { recordingEndpoints } from '@onair/protocol';
import type { SessionResolver } from '../http/auth-context.ts';
import type { Platform, Running } from '../module.ts';
import { createRecordingArchive } from './recording-archive.ts';
import { RecordingFiles } from './recording-files.ts';
import { RecordingService } from './recording-service.ts';
import { RecordingRetentionJob } from './retention-job.ts';
import { recordingRoutes } from './routes.ts';

export interface RecordingsServices {
  recordings: RecordingService;
}

/** Recordings of broadcasts: listed, deleted, kept per plan, copied to the bucket with UPLOADS_BACKEND=s3. */
export const recordingsModule = {
  name: 'recordings',
  build: (deps: Platform): RecordingsServices => {
    const archive = createRecordingArchive(deps.config);
    return {
      recordings: new RecordingService({
        db: deps.db,
        files: new RecordingFiles(deps.config.UPLOADS_DIR),
        logger: deps.logger,
        ...(archive ? { archive } : {}),
        ...(deps.now ? { now: deps.now } : {}),
      }),
    };
  },
  http: {
    routes: {
      endpoints: recordingEndpoints,
      mount: (c: Platform & RecordingsServices & { resolveSession: SessionResolver }) =>
        recordingRoutes({ db: c.db, recordings: c.recordings, resolveSession: c.resolveSession }),
    },
  },
  jobs: {
    // Issue 19: recordings past their plan's retention are deleted from the uploads store by this job
    // (which also copies ended recordings into the bucket with UPLOADS_BACKEND=s3).
    retention: {
      name: 'recording retention',
      start: async (c: Platform & RecordingsServices): Promise<Running> => {
        const job = new RecordingRetentionJob({
          redis: c.redis,
          logger: c.logger,
          recordings: c.recordings,
          everyMs: c.config.RECORDING_RETENTION_INTERVAL_SECONDS * 1000,
        });
        await job.start();
        return job;
      },
    },
  },
};
