import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { isUuid, OnAirError } from '@onair/protocol';
import { uploadsBucketClient } from '@onair/runtime';
import type { UploadsConfig } from '../uploads/config.ts';

/**
 * Where finished recording parts are kept when the uploads store is a bucket (UPLOADS_BACKEND=s3):
 * the media worker writes the parts into its UPLOADS_DIR as it records, and once the broadcast has
 * ended and its parts are measured the api copies them here and removes them from the folder.
 */
export interface RecordingArchive {
  put(recordingId: string, part: number, localPath: string): Promise<void>;
  /** A part's bytes, or null when the bucket has no such part. */
  open(recordingId: string, part: number): Promise<{ stream: Readable; sizeBytes: number } | null>;
  /** Every part of the recording. */
  remove(recordingId: string): Promise<void>;
}

/** The recordings' archive in the uploads bucket: `<UPLOADS_S3_PREFIX>recordings/<id>/part-<n>.mp4`. */
export class S3RecordingArchive implements RecordingArchive {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
  ) {}

  async put(recordingId: string, part: number, localPath: string): Promise<void> {
    const { size } = await stat(localPath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.key(recordingId, part),
        Body: createReadStream(localPath),
        ContentLength: size,
        ContentType: 'video/mp4',
      }),
    );
  }

  async open(recordingId: string, part: number): Promise<{ stream: Readable; sizeBytes: number } | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(recordingId, part) }));
      if (!(answer.Body instanceof Readable)) throw new Error('no body');
      return { stream: answer.Body, sizeBytes: answer.ContentLength ?? 0 };
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchKey') return null;
      throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'The recording could not be read right now. Try again in a moment.', { cause: (err as Error).name });
    }
  }

  async remove(recordingId: string): Promise<void> {
    const listed = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.folder(recordingId) }));
    for (const object of listed.Contents ?? []) if (object.Key) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: object.Key }));
  }

  private folder(recordingId: string): string {
    if (!isUuid(recordingId)) throw new Error(`not a recording id: ${recordingId}`);
    return `${this.prefix}recordings/${recordingId}/`;
  }

  private key(recordingId: string, part: number): string {
    if (!Number.isInteger(part) || part < 1) throw new Error(`not a part number: ${part}`);
    return `${this.folder(recordingId)}part-${part}.mp4`;
  }

  close(): void {
    this.client.destroy();
  }
}

/** The archive the configuration names: the uploads bucket with UPLOADS_BACKEND=s3, none on disk (the parts stay where the worker wrote them). */
export function createRecordingArchive(config: UploadsConfig): S3RecordingArchive | undefined {
  if (config.UPLOADS_BACKEND !== 's3' || !config.UPLOADS_S3_BUCKET) return undefined;
  const client = uploadsBucketClient(config);
  return new S3RecordingArchive(client, config.UPLOADS_S3_BUCKET, config.UPLOADS_S3_PREFIX);
}
