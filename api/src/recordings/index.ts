export { recordingsConfigShape } from './config.ts';
export { RecordingFiles } from './recording-files.ts';
export { createRecordingArchive, S3RecordingArchive, type RecordingArchive } from './recording-archive.ts';
export { RecordingService, RECORDING_SETTLE_MS } from './recording-service.ts';
export { RecordingRetentionJob } from './retention-job.ts';
export { recordingRoutes } from './routes.ts';
