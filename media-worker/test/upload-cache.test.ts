/**
 * Uploads in a bucket (UPLOADS_BACKEND=s3, issue 19): a media worker does not share the api's
 * folder, so the files a scene shows are fetched from the bucket before the scene is planned and
 * resolved from the worker's cache as uploads on disk are. The bucket is s3rver, an S3-compatible
 * server from npm, on a real loopback socket.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SceneDocument, Source } from '@onair/protocol';
import { createLogger, s3ClientOf } from '@onair/runtime';
import { createInputResolver } from '../src/placement/input-resolver.ts';
import { UploadCache } from '../src/uploads/upload-cache.ts';

const BUCKET = 'onair-test-uploads';
let work = '';
let server: S3rver;
let s3: S3Client;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'onair-upload-cache-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(work, 's3'), configureBuckets: [{ name: BUCKET, configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  s3 = s3ClientOf({
    endpoint: `http://127.0.0.1:${address.port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  });
});
afterAll(async () => {
  s3?.destroy();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

function source(kind: 'image' | 'video', uploadId: string): Source {
  const settings = kind === 'image' ? { opacity: 1, url: '', uploadId } : { opacity: 1, volume: 1, muted: false, uploadId, loop: true, restartOnShow: false };
  return { id: randomUUID(), kind, name: `${kind} ${uploadId.slice(0, 4)}`, settings } as Source;
}

describe('upload cache', () => {
  it('fetches the images and video files a scene shows from the bucket once, for the resolver to find; a missing one is left out', async () => {
    const picture = join(work, 'blue.png');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=blue:s=64x36', '-frames:v', '1', picture]);
    const clip = join(work, 'clip.webm');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=green:s=64x36:r=30', '-t', '1', '-c:v', 'libvpx', clip]);
    const [image, video, gone] = [randomUUID(), randomUUID(), randomUUID()];
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `uploads/${image}.png`, Body: readFileSync(picture) }));
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `uploads/${video}.webm`, Body: readFileSync(clip) }));

    const cache = new UploadCache(s3, BUCKET, 'uploads/', join(work, 'cache'), createLogger('upload-cache-test', 'silent'));
    const sources = [source('image', image), source('video', video), source('image', gone)];
    const document = { sources } as unknown as SceneDocument;
    // Twice at once, as two scene updates in a row would: one download each.
    await Promise.all([cache.fetch(document), cache.fetch(document)]);

    expect(readFileSync(join(cache.dir, `${image}.png`)).equals(readFileSync(picture))).toBe(true);
    expect(readFileSync(join(cache.dir, `${video}.webm`)).equals(readFileSync(clip))).toBe(true);
    expect(existsSync(join(cache.dir, `${gone}.png`))).toBe(false);
    const resolve = createInputResolver(undefined, cache.dir);
    expect(resolve(sources[0]!)).toMatchObject({ kind: 'image', path: join(cache.dir, `${image}.png`) });
    expect(resolve(sources[1]!)).toMatchObject({ kind: 'video-file', path: join(cache.dir, `${video}.webm`), loop: true });
    expect(resolve(sources[2]!)).toBeUndefined();

    // Already here: not fetched again.
    const fetchedAt = statSync(join(cache.dir, `${image}.png`)).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    await cache.fetch(document);
    expect(statSync(join(cache.dir, `${image}.png`)).mtimeMs).toBe(fetchedAt);
  });
});
