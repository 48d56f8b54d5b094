// The S3 backend of the uploads store (issue 19) against s3rver, an S3-compatible server from npm,
// on a real loopback socket: what the api accepts is put into the bucket, read back from it, and
// deleted from it; a refused file never reaches it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

const BUCKET = 'onair-test-uploads';
let work = '';
let server: S3rver;
let endpoint = '';
let s3: S3Client;
let api: StudioApi;
let premium: TestUser;
let projectId = '';

const objects = async () => ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key!).sort();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'onair-s3-'));
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=red:s=64x48', '-frames:v', '1', join(work, 'red.png')]);
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(work, 's3'), configureBuckets: [{ name: BUCKET, configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  endpoint = `http://127.0.0.1:${address.port}`;
  // s3rver takes any credentials (S3RVER's own pair is the documented one).
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  s3 = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  api = await startStudioApi({
    env: {
      UPLOADS_BACKEND: 's3',
      UPLOADS_DIR: join(work, 'staging-root'),
      UPLOADS_S3_ENDPOINT: endpoint,
      UPLOADS_S3_BUCKET: BUCKET,
      UPLOADS_S3_ACCESS_KEY_ID: credentials.accessKeyId,
      UPLOADS_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
  });
  premium = await createTestUser(api, { plan: 'Premium' });
  projectId = ((await call(api, premium, 'POST', '/api/v1/projects', { name: 'S3' })).body as { id: string }).id;
});
afterAll(async () => {
  await api?.close();
  s3?.destroy();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('uploads in an S3-compatible bucket', () => {
  it('puts an accepted file into the bucket, serves it back from there and deletes it there', async () => {
    const res = await fetch(`${api.url}/api/v1/projects/${projectId}/uploads?purpose=logo&name=red.png`, {
      method: 'POST',
      headers: { cookie: premium.cookie, 'content-type': 'application/octet-stream' },
      body: readFileSync(join(work, 'red.png')),
    });
    expect(res.status).toBe(201);
    const upload = (await res.json()) as { id: string; sizeBytes: number };
    expect(await objects()).toEqual([`uploads/${upload.id}.png`]);
    const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: `uploads/${upload.id}.png` }));
    const inBucket = Buffer.from(await object.Body!.transformToByteArray());
    expect(inBucket.length).toBe(upload.sizeBytes);

    const content = await fetch(`${api.url}/api/v1/projects/${projectId}/uploads/${upload.id}/content`, { headers: { cookie: premium.cookie } });
    expect(content.status).toBe(200);
    expect(Buffer.from(await content.arrayBuffer()).equals(inBucket)).toBe(true);

    // A file that lies about its type never reaches the bucket.
    const lie = await fetch(`${api.url}/api/v1/projects/${projectId}/uploads?purpose=logo&name=logo.png`, {
      method: 'POST',
      headers: { cookie: premium.cookie, 'content-type': 'application/octet-stream' },
      body: Buffer.from('not a picture at all, just words'.repeat(300)),
    });
    expect(lie.status).toBe(415);
    expect(await objects()).toEqual([`uploads/${upload.id}.png`]);

    expect((await call(api, premium, 'DELETE', `/api/v1/projects/${projectId}/uploads/${upload.id}`)).status).toBe(204);
    expect(await objects()).toEqual([]);
  });
});
