import { join } from 'node:path';
import { z } from 'zod';
import { uploadsBucketShape } from '@onair/runtime';
import { S3UploadStore } from './s3-upload-store.ts';
import { DiskUploadStore, type UploadStore } from './upload-store.ts';

/** Environment of the uploads store, merged into the api's config schema (README's api table mirrors it). */
export const uploadsConfigShape = {
  /** Folder of the disk uploads store; media workers on the same machine read the same folder (their UPLOADS_DIR). */
  UPLOADS_DIR: z.string().min(1).default('.data/uploads'),
  /** Largest image accepted, in bytes (checked from Content-Length before the body is read). */
  UPLOAD_MAX_IMAGE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(20 * 1024 * 1024),
  /** Largest video accepted, in bytes. */
  UPLOAD_MAX_VIDEO_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 1024 * 1024 * 1024),
  /** Largest sound accepted (alert sounds), in bytes. */
  UPLOAD_MAX_AUDIO_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  /** Storage each account may use across its projects, in bytes. */
  UPLOAD_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024 * 1024),
  ...uploadsBucketShape,
  /** Longest side of an image or a video picture accepted, in pixels. */
  UPLOAD_MAX_DIMENSION: z.coerce.number().int().positive().default(8192),
};

export interface UploadLimits {
  maxImageBytes: number;
  maxVideoBytes: number;
  maxAudioBytes: number;
  quotaBytes: number;
  maxDimension: number;
}

/** The uploads part of the api's configuration, as parsed. */
export type UploadsConfig = z.output<z.ZodObject<typeof uploadsConfigShape>>;

/** The store the configuration names; files being checked are staged under UPLOADS_DIR either way. */
export function createUploadStore(config: UploadsConfig): UploadStore {
  if (config.UPLOADS_BACKEND === 'disk') return new DiskUploadStore(config.UPLOADS_DIR);
  if (!config.UPLOADS_S3_BUCKET) throw new Error('UPLOADS_BACKEND=s3 needs UPLOADS_S3_BUCKET');
  return new S3UploadStore({
    endpoint: config.UPLOADS_S3_ENDPOINT,
    region: config.UPLOADS_S3_REGION,
    bucket: config.UPLOADS_S3_BUCKET,
    prefix: config.UPLOADS_S3_PREFIX,
    accessKeyId: config.UPLOADS_S3_ACCESS_KEY_ID,
    secretAccessKey: config.UPLOADS_S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.UPLOADS_S3_FORCE_PATH_STYLE,
    stagingDir: join(config.UPLOADS_DIR, '.staging'),
  });
}

export function uploadLimits(config: {
  UPLOAD_MAX_IMAGE_BYTES: number;
  UPLOAD_MAX_VIDEO_BYTES: number;
  UPLOAD_MAX_AUDIO_BYTES: number;
  UPLOAD_QUOTA_BYTES: number;
  UPLOAD_MAX_DIMENSION: number;
}): UploadLimits {
  return {
    maxImageBytes: config.UPLOAD_MAX_IMAGE_BYTES,
    maxVideoBytes: config.UPLOAD_MAX_VIDEO_BYTES,
    maxAudioBytes: config.UPLOAD_MAX_AUDIO_BYTES,
    quotaBytes: config.UPLOAD_QUOTA_BYTES,
    maxDimension: config.UPLOAD_MAX_DIMENSION,
  };
}
