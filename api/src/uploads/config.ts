import { z } from 'zod';

/** Environment of the uploads store, merged into the api's config schema (README's api table mirrors it). */
export const uploadsConfigShape = {
  /** Folder of the disk uploads store; media workers on the same machine read the same folder (their UPLOADS_DIR). */
  UPLOADS_DIR: z.string().min(1).default('.data/uploads'),
  /** Largest image accepted, in bytes (checked from Content-Length before the body is read). */
  UPLOAD_MAX_IMAGE_BYTES: z.coerce.number().int().positive().default(20 * 1024 * 1024),
  /** Largest video accepted, in bytes. */
  UPLOAD_MAX_VIDEO_BYTES: z.coerce.number().int().positive().default(2 * 1024 * 1024 * 1024),
  /** Storage each account may use across its projects, in bytes. */
  UPLOAD_QUOTA_BYTES: z.coerce.number().int().positive().default(5 * 1024 * 1024 * 1024),
  /** Longest side of an image or a video picture accepted, in pixels. */
  UPLOAD_MAX_DIMENSION: z.coerce.number().int().positive().default(8192),
};

export interface UploadLimits {
  maxImageBytes: number;
  maxVideoBytes: number;
  quotaBytes: number;
  maxDimension: number;
}

export function uploadLimits(config: { UPLOAD_MAX_IMAGE_BYTES: number; UPLOAD_MAX_VIDEO_BYTES: number; UPLOAD_QUOTA_BYTES: number; UPLOAD_MAX_DIMENSION: number }): UploadLimits {
  return { maxImageBytes: config.UPLOAD_MAX_IMAGE_BYTES, maxVideoBytes: config.UPLOAD_MAX_VIDEO_BYTES, quotaBytes: config.UPLOAD_QUOTA_BYTES, maxDimension: config.UPLOAD_MAX_DIMENSION };
}
