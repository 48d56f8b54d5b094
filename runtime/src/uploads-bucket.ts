import { S3Client } from '@aws-sdk/client-s3';
import { z } from 'zod';

/**
 * The uploads bucket (UPLOADS_BACKEND=s3) as every process sees it: the api stores uploads and
 * recordings in it, media workers read from it the uploads a scene shows. One set of variables
 * for all of them (the README's api table lists them).
 */
export const uploadsBucketShape = {
  /** Where uploads are kept: `disk` (UPLOADS_DIR) or `s3` (an S3-compatible bucket, UPLOADS_S3_*). */
  UPLOADS_BACKEND: z.enum(['disk', 's3']).default('disk'),
  /** The S3-compatible server (unset: AWS S3 itself), bucket, region, key prefix and credentials (unset: the SDK's default chain). */
  UPLOADS_S3_ENDPOINT: z.url().optional(),
  UPLOADS_S3_BUCKET: z.string().min(3).optional(),
  UPLOADS_S3_REGION: z.string().min(1).default('us-east-1'),
  UPLOADS_S3_PREFIX: z.string().default('uploads/'),
  UPLOADS_S3_ACCESS_KEY_ID: z.string().optional(),
  UPLOADS_S3_SECRET_ACCESS_KEY: z.string().optional(),
  UPLOADS_S3_FORCE_PATH_STYLE: z.stringbool().default(true),
};

export type UploadsBucketConfig = z.output<z.ZodObject<typeof uploadsBucketShape>>;

/** The bucket settings of a process's environment (the api reads them as part of its whole config). */
export function uploadsBucketConfig(env: NodeJS.ProcessEnv): UploadsBucketConfig {
  return z.object(uploadsBucketShape).parse(env);
}

export interface S3ClientOptions {
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style addressing (http://host/bucket/key), which S3-compatible servers mostly need. */
  forcePathStyle: boolean;
}

/** A client of an S3-compatible server (the uploads bucket's). */
export function s3ClientOf(options: S3ClientOptions): S3Client {
  return new S3Client({
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    // Checksums only where S3 requires them: with the SDK's default, bodies go out 'aws-chunked'
    // with a trailing checksum, which S3-compatible servers that do not speak it store as is.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.accessKeyId && options.secretAccessKey ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } } : {}),
  });
}

/** The client of the uploads bucket the configuration names. */
export function uploadsBucketClient(config: UploadsBucketConfig): S3Client {
  return s3ClientOf({
    endpoint: config.UPLOADS_S3_ENDPOINT,
    region: config.UPLOADS_S3_REGION,
    accessKeyId: config.UPLOADS_S3_ACCESS_KEY_ID,
    secretAccessKey: config.UPLOADS_S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.UPLOADS_S3_FORCE_PATH_STYLE,
  });
}
