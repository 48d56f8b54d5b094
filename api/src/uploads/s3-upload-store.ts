import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { OnAirError } from '@onair/protocol';
import { s3ClientOf, type S3ClientOptions } from '@onair/runtime';
import type { UploadStore } from './upload-store.ts';

export interface S3StoreOptions extends S3ClientOptions {
  bucket: string;
  /** Key prefix inside the bucket (`uploads/`). */
  prefix: string;
  /** A local folder for files being received and checked before they go to the bucket. */
  stagingDir: string;
}

/**
 * The production store: an S3-compatible bucket (AWS S3, MinIO, R2…) through @aws-sdk/client-s3.
 * A file is received and checked in a local staging folder first, exactly as with the disk store,
 * and only a file that passed every check is put into the bucket.
 */
export class S3UploadStore implements UploadStore {
  readonly stagingDir: string;
  private readonly client: S3Client;

  constructor(private readonly options: S3StoreOptions) {
    this.stagingDir = resolve(options.stagingDir);
    this.client = s3ClientOf(options);
  }

  async prepare(): Promise<void> {
    await mkdir(this.stagingDir, { recursive: true });
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const { size } = await stat(localPath);
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: this.key(key), Body: createReadStream(localPath), ContentLength: size }));
    } catch (err) {
      throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'The file could not be stored right now. Try again in a moment.', { cause: (err as Error).name });
    }
    await rm(localPath, { force: true });
  }

  async read(key: string): Promise<{ stream: Readable; sizeBytes: number }> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.key(key) })).catch((err: unknown) => {
      if ((err as { name?: string }).name === 'NoSuchKey') throw new OnAirError('NOT_FOUND', 'This file does not exist.');
      throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'The file could not be read right now. Try again in a moment.', { cause: (err as Error).name });
    });
    if (!(answer.Body instanceof Readable)) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'The file could not be read right now.');
    return { stream: answer.Body, sizeBytes: answer.ContentLength ?? 0 };
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.key(key) }));
  }

  /** The object key of an upload; keys are made by the api (`<uuid>.<ext>`). */
  private key(key: string): string {
    if (!/^[0-9a-f-]{36}\.[a-z0-9]{2,4}$/.test(key)) throw new Error(`not an upload key: ${key}`);
    return join(this.options.prefix, key);
  }

  close(): void {
    this.client.destroy();
  }
}
