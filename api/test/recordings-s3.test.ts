// Recordings with UPLOADS_BACKEND=s3 (issue 19): the parts the media worker wrote into its folder are
// copied into the uploads bucket once the broadcast has ended and they are measured, removed from
// the folder, downloaded from the bucket, and deleted from it (by hand, and by retention). The
// bucket is s3rver, an S3-compatible server from npm, on a real loopback socket.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BroadcastView, Recording } from '@onair/protocol';
import { createLogger, SecretBox } from '@onair/runtime';
import { loadConfig } from '../src/config.ts';
import { createRecordingArchive, RecordingFiles, RecordingRetentionJob, RecordingService } from '../src/recordings/index.ts';
import { testRedisUrl } from '@onair/embedded/test-services';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

const BUCKET = 'onair-test-recordings';
let work = '';
let store = '';
let server: S3rver;
let s3: S3Client;
let api: StudioApi;
let premium: TestUser;
let clock = Date.parse('2026-11-25T12:00:00.000Z');
let env: Record<string, string> = {};

const objects = async () => ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key!).sort();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'onair-rec-s3-'));
  store = join(work, 'uploads');
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(work, 's3'), configureBuckets: [{ name: BUCKET, configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  s3 = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  env = {
    SECRETS_KEY: SecretBox.generateKey(),
    LOCAL_RTMP_URL: 'rtmp://127.0.0.1:19350/live',
    UPLOADS_BACKEND: 's3',
    UPLOADS_DIR: store,
    UPLOADS_S3_ENDPOINT: endpoint,
    UPLOADS_S3_BUCKET: BUCKET,
    UPLOADS_S3_ACCESS_KEY_ID: credentials.accessKeyId,
    UPLOADS_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  };
  api = await startStudioApi({ env, now: () => new Date(clock) });
  premium = await createTestUser(api, { plan: 'Premium' });
});
afterAll(async () => {
  await api?.close();
  s3?.destroy();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A part as the worker writes it into its UPLOADS_DIR: fragmented MP4 of H.264 + AAC. */
function writePart(recordingId: string, part: number, seconds: number): Buffer {
  const dir = join(store, 'recordings', recordingId);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `part-${part}.mp4`);
  execFileSync('ffmpeg', [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=320x180:rate=30:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-g',
    '30',
    '-c:a',
    'aac',
    '-shortest',
    '-movflags',
    'frag_keyframe+empty_moov+default_base_moof',
    path,
  ]);
  return readFileSync(path);
}

/** A recorded broadcast of `parts` (seconds each), ended. */
async function recordedBroadcast(parts: number[]): Promise<{ projectId: string; recordingId: string; bytes: Buffer[] }> {
  const projectId = ((await call(api, premium, 'POST', '/api/v1/projects', { name: 'Show' })).body as { id: string }).id;
  expect((await call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local' })).status).toBe(201);
  const live = await call(api, premium, 'POST', `/api/v1/projects/${projectId}/broadcast`, { record: true });
  expect(live.status).toBe(201);
  const recordingId = (live.body as BroadcastView).recordingId!;
  const bytes = parts.map((seconds, i) => writePart(recordingId, i + 1, seconds));
  expect((await call(api, premium, 'POST', `/api/v1/projects/${projectId}/broadcast/end`)).status).toBe(200);
  return { projectId, recordingId, bytes };
}

const list = async (projectId: string) =>
  ((await call(api, premium, 'GET', `/api/v1/projects/${projectId}/recordings`)).body as { recordings: Recording[] }).recordings;
const download = (projectId: string, recordingId: string, part: number) =>
  fetch(`${api.url}/api/v1/projects/${projectId}/recordings/${recordingId}/parts/${part}`, { headers: { cookie: premium.cookie } });

describe('recordings in an S3-compatible bucket', () => {
  it('copies the parts into the bucket once measured, serves downloads from there, and deletes them there', async () => {
    const { projectId, recordingId, bytes } = await recordedBroadcast([2, 1]);
    const keys = [`uploads/recordings/${recordingId}/part-1.mp4`, `uploads/recordings/${recordingId}/part-2.mp4`];
    // Just ended: still the worker's files, served from the folder; nothing in the bucket yet.
    expect((await list(projectId))[0]).toMatchObject({ state: 'ready', durationSeconds: null });
    expect((await objects()).filter((k) => k.includes(recordingId))).toEqual([]);
    expect(Buffer.from(await (await download(projectId, recordingId, 1)).arrayBuffer()).equals(bytes[0]!)).toBe(true);

    clock += 10_000;
    // The page's request starts the copy and answers at once; the row says measured once the parts are in the bucket.
    await expect.poll(async () => (await list(projectId))[0]!.durationSeconds, { timeout: 20_000, interval: 200 }).not.toBeNull();
    const [measured] = await list(projectId);
    expect(measured!.durationSeconds).toBeGreaterThan(2.5);
    expect(measured!.parts.map((p) => p.number)).toEqual([1, 2]);
    expect((await objects()).filter((k) => k.includes(recordingId))).toEqual(keys);
    const stored = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: keys[1] }));
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(bytes[1]!)).toBe(true);
    // The worker's folder is emptied: the bucket is where the parts are now.
    expect(existsSync(join(store, 'recordings', recordingId))).toBe(false);

    const res = await download(projectId, recordingId, 2);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="onair-recording-2026-11-25-part-2.mp4"');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes[1]!)).toBe(true);
    expect((await download(projectId, recordingId, 3)).status).toBe(404);
    // Listing again measures nothing twice and keeps serving from the bucket.
    expect((await list(projectId))[0]).toMatchObject({ durationSeconds: measured!.durationSeconds, sizeBytes: bytes[0]!.length + bytes[1]!.length });

    expect((await call(api, premium, 'DELETE', `/api/v1/projects/${projectId}/recordings/${recordingId}`)).status).toBe(204);
    expect((await objects()).filter((k) => k.includes(recordingId))).toEqual([]);
    expect((await download(projectId, recordingId, 1)).status).toBe(404);
  });

  it('is copied by the retention job without anyone opening the page, and deleted from the bucket past its retention', async () => {
    const { recordingId, bytes } = await recordedBroadcast([1]);
    const logger = createLogger('rec-s3-test', 'silent');
    const config = loadConfig({ DATABASE_URL: api.databaseUrl, REDIS_URL: testRedisUrl(), LOG_LEVEL: 'silent', ...env });
    const archive = createRecordingArchive(config)!;
    const recordings = new RecordingService({ db: api.db, files: new RecordingFiles(store), logger, archive, now: () => new Date(clock) });
    const job = new RecordingRetentionJob({ redis: api.redis, logger, recordings, everyMs: 3_600_000, prefix: `test-${randomUUID()}` });
    try {
      clock += 10_000;
      await job.runNow();
      expect((await objects()).filter((k) => k.includes(recordingId))).toEqual([`uploads/recordings/${recordingId}/part-1.mp4`]);
      expect(existsSync(join(store, 'recordings', recordingId))).toBe(false);
      const opened = await archive.open(recordingId, 1);
      expect(opened?.sizeBytes).toBe(bytes[0]!.length);
      opened?.stream.destroy();

      clock += 31 * 24 * 3600 * 1000;
      expect(await job.runNow()).toBeGreaterThanOrEqual(1);
      expect((await objects()).filter((k) => k.includes(recordingId))).toEqual([]);
      expect(await api.db.recording.count({ where: { id: recordingId } })).toBe(0);
    } finally {
      await job.close();
      archive.close();
    }
  });
});
