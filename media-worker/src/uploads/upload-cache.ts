import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { SceneDocument } from '@onair/protocol';
import type { Logger } from '@onair/runtime';

/** The names an upload's file may have: images are stored as PNG, videos as they came (the api's storageKeyOf). */
function candidateKeys(kind: 'image' | 'video', uploadId: string): string[] {
  return kind === 'image' ? [`${uploadId}.png`] : [`${uploadId}.mp4`, `${uploadId}.webm`];
}

/**
 * The uploads a scene shows, on this worker's disk, when the uploads store is a bucket
 * (UPLOADS_BACKEND=s3): the api and the media workers do not share a folder there. Before the
 * session plans a scene, every image and video file it shows that is not here yet is downloaded
 * into `dir` (under a temporary name, renamed once whole), where the input resolver finds it as it
 * finds uploads on disk. A file that cannot be fetched is left out of the program, as a deleted
 * upload is; the session goes on.
 */
export class UploadCache {
  readonly dir: string;
  /** Downloads under way, by key: a scene applied twice in a row waits for the same one. */
  private readonly fetching = new Map<string, Promise<void>>();

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
    dir: string,
    private readonly logger: Logger,
  ) {
    this.dir = resolve(dir);
  }

  async fetch(document: SceneDocument): Promise<void> {
    const wanted: { kind: 'image' | 'video'; uploadId: string }[] = [];
    for (const source of document.sources) {
      if ((source.kind === 'image' || source.kind === 'video') && source.settings.uploadId)
        wanted.push({ kind: source.kind, uploadId: source.settings.uploadId });
    }
    if (wanted.length === 0) return;
    await mkdir(this.dir, { recursive: true });
    await Promise.all(wanted.map((w) => this.fetchOne(w.kind, w.uploadId)));
  }

  private async fetchOne(kind: 'image' | 'video', uploadId: string): Promise<void> {
    const keys = candidateKeys(kind, uploadId);
    if (keys.some((key) => existsSync(join(this.dir, key)))) return;
    const first = keys[0]!;
    const running = this.fetching.get(first);
    if (running) return running;
    const download = this.download(keys).finally(() => this.fetching.delete(first));
    this.fetching.set(first, download);
    return download;
  }

  private async download(keys: string[]): Promise<void> {
    for (const key of keys) {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: `${this.prefix}${key}` })).catch((err: unknown) => {
        if ((err as { name?: string }).name === 'NoSuchKey') return undefined;
        this.logger.warn({ key, err: (err as Error).name }, 'upload not fetched from the bucket; its source is left out');
        return null;
      });
      if (answer === null) return;
      if (!answer) continue;
      if (!(answer.Body instanceof Readable)) return;
      const target = join(this.dir, key);
      const partial = `${target}.${process.pid}.part`;
      try {
        await pipeline(answer.Body, createWriteStream(partial));
        await rename(partial, target);
        this.logger.info({ key, bytes: answer.ContentLength }, 'upload fetched from the bucket');
      } catch (err) {
        await rm(partial, { force: true });
        this.logger.warn({ key, err: (err as Error).message }, 'upload not fetched from the bucket; its source is left out');
      }
      return;
    }
    this.logger.warn({ keys }, 'upload not in the bucket (deleted?); its source is left out');
  }
}
