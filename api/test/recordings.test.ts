// Recordings (issue 19): the real api on a test database, Go Live with `record`, the parts as the
// media worker leaves them (fragmented MP4 made by ffmpeg in the uploads store on disk), download,
// access by project role, and retention per plan with the clock advanced.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { RECORDING_NOT_IN_PLAN, sessionKeys, type BroadcastView, type Recording } from '@onair/protocol';
import { createLogger, SecretBox } from '@onair/runtime';
import { testRedisUrl } from '@onair/embedded/test-services';
import { RecordingFiles, RecordingRetentionJob, RecordingService } from '../src/recordings/index.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let store = '';
let clock = Date.parse('2026-11-25T12:00:00.000Z');
let premium: TestUser;
let free: TestUser;
const secretsKey = SecretBox.generateKey();

beforeAll(async () => {
  store = mkdtempSync(join(tmpdir(), 'onair-recordings-'));
  api = await startStudioApi({
    env: { SECRETS_KEY: secretsKey, UPLOADS_DIR: store, LOCAL_RTMP_URL: 'rtmp://127.0.0.1:19350/live' },
    now: () => new Date(clock),
  });
  premium = await createTestUser(api, { plan: 'Premium' });
  free = await createTestUser(api);
});
afterAll(async () => {
  await api?.close();
  if (store) rmSync(store, { recursive: true, force: true });
});

async function liveReadyProject(user: TestUser): Promise<string> {
  const projectId = ((await call(api, user, 'POST', '/api/v1/projects', { name: 'Show' })).body as { id: string }).id;
  const dest = await call(api, user, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local' });
  expect(dest.status).toBe(201);
  return projectId;
}

/** A part as the worker writes it: fragmented MP4 of H.264 + AAC, `seconds` long. */
function writePart(recordingId: string, part: number, seconds: number): string {
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
  return path;
}

const list = async (user: TestUser | null, projectId: string) => call(api, user, 'GET', `/api/v1/projects/${projectId}/recordings`);

describe('recording a broadcast', () => {
  it('refuses a record toggle on a plan without recording, in words, and starts nothing', async () => {
    const projectId = await liveReadyProject(free);
    const res = await call(api, free, 'POST', `/api/v1/projects/${projectId}/broadcast`, { record: true });
    expect(res).toMatchObject({ status: 403, body: { error: { code: 'PLAN_LIMIT_REACHED', message: RECORDING_NOT_IN_PLAN } } });
    expect((await call(api, free, 'GET', `/api/v1/projects/${projectId}/broadcast`)).body).toEqual({ broadcast: null });
    expect(await api.db.recording.count({ where: { projectId } })).toBe(0);
    // Without the toggle the same creator goes live, unrecorded.
    const live = await call(api, free, 'POST', `/api/v1/projects/${projectId}/broadcast`);
    expect(live).toMatchObject({ status: 201, body: { state: 'live', recordingId: null } });
    expect(await api.redis.get(sessionKeys.recording(projectId))).toBeNull();
    await call(api, free, 'POST', `/api/v1/projects/${projectId}/broadcast/end`);
    // An unknown field is refused rather than ignored.
    expect((await call(api, free, 'POST', `/api/v1/projects/${projectId}/broadcast`, { recrod: true })).status).toBe(400);
  });

  it('records a broadcast as one recording of numbered parts (a failover starts the next part), lists and downloads it', async () => {
    const projectId = await liveReadyProject(premium);
    const commands: unknown[] = [];
    const sub = new Redis(testRedisUrl());
    await sub.subscribe(sessionKeys.commands(projectId));
    sub.on('message', (_c, m: string) => commands.push(JSON.parse(m)));
    try {
      const live = await call(api, premium, 'POST', `/api/v1/projects/${projectId}/broadcast`, { record: true });
      expect(live.status).toBe(201);
      const broadcast = live.body as BroadcastView;
      const recordingId = broadcast.recordingId!;
      expect(recordingId).toMatch(/^[0-9a-f-]{36}$/);
      // What the worker reads when it starts the session, or after a failover when it picks it up.
      expect(await api.redis.get(sessionKeys.recording(projectId))).toBe(recordingId);
      await expect.poll(() => commands).toContainEqual({ type: 'setRecording', recordingId });

      // The first pipeline process wrote part 1, then a failover: the next one writes part 2.
      writePart(recordingId, 1, 3);
      writePart(recordingId, 2, 2);
      const during = (await list(premium, projectId)).body as { recordings: Recording[] };
      expect(during.recordings).toHaveLength(1);
      expect(during.recordings[0]).toMatchObject({
        id: recordingId,
        broadcastId: broadcast.id,
        state: 'recording',
        durationSeconds: null,
        endedAt: null,
        expiresAt: null,
      });
      expect(during.recordings[0]!.parts.map((p) => p.number)).toEqual([1, 2]);
      // Not deleted while it is being written.
      expect((await call(api, premium, 'DELETE', `/api/v1/projects/${projectId}/recordings/${recordingId}`)).status).toBe(409);

      const ended = await call(api, premium, 'POST', `/api/v1/projects/${projectId}/broadcast/end`);
      expect(ended.body).toMatchObject({ state: 'ended', recordingId });
      expect(await api.redis.get(sessionKeys.recording(projectId))).toBeNull();
      await expect.poll(() => commands).toContainEqual({ type: 'setRecording', recordingId: null });

      // Measured once the worker has written out its last fragment.
      clock += 10_000;
      const after = ((await list(premium, projectId)).body as { recordings: Recording[] }).recordings[0]!;
      expect(after.state).toBe('ready');
      expect(after.durationSeconds).toBeGreaterThan(4.5);
      expect(after.durationSeconds).toBeLessThan(5.5);
      expect(after.parts).toHaveLength(2);
      expect(after.sizeBytes).toBe(after.parts[0]!.sizeBytes + after.parts[1]!.sizeBytes);
      expect(Date.parse(after.expiresAt!) - Date.parse(after.endedAt!)).toBe(30 * 24 * 3600 * 1000);

      const res = await fetch(`${api.url}/api/v1/projects/${projectId}/recordings/${recordingId}/parts/1`, { headers: { cookie: premium.cookie } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="onair-recording-2026-11-25-part-1.mp4"');
      const downloaded = join(store, `${randomUUID()}.mp4`);
      await writeFile(downloaded, Buffer.from(await res.arrayBuffer()));
      expect(readFileSync(downloaded).equals(readFileSync(join(store, 'recordings', recordingId, 'part-1.mp4')))).toBe(true);
      const codecs = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', downloaded]).toString().trim().split('\n');
      expect(codecs.sort()).toEqual(['aac', 'h264']);
      expect((await fetch(`${api.url}/api/v1/projects/${projectId}/recordings/${recordingId}/parts/3`, { headers: { cookie: premium.cookie } })).status).toBe(
        404,
      );
    } finally {
      sub.disconnect();
    }
  });

  it('lets only those who manage the broadcast list, download and delete recordings', async () => {
    const projectId = await liveReadyProject(premium);
    const { recordingId } = (await call(api, premium, 'POST', `/api/v1/projects/${projectId}/broadcast`, { record: true })).body as BroadcastView;
    writePart(recordingId!, 1, 1);
    await call(api, premium, 'POST', `/api/v1/projects/${projectId}/broadcast/end`);
    const part = `/api/v1/projects/${projectId}/recordings/${recordingId}/parts/1`;

    const roles = { contributor: await createTestUser(api, { plan: 'Premium' }), viewer: await createTestUser(api), cohost: await createTestUser(api) };
    for (const role of ['contributor', 'viewer', 'cohost'] as const) await api.db.projectMember.create({ data: { projectId, userId: roles[role].id, role } });
    for (const user of [roles.contributor, roles.viewer]) {
      expect((await list(user, projectId)).body).toMatchObject({ error: { code: 'FORBIDDEN' } });
      expect((await fetch(`${api.url}${part}`, { headers: { cookie: user.cookie } })).status).toBe(403);
      expect((await call(api, user, 'DELETE', `/api/v1/projects/${projectId}/recordings/${recordingId}`)).status).toBe(403);
    }
    const stranger = await createTestUser(api, { plan: 'Premium' });
    expect((await list(stranger, projectId)).status).toBe(404);
    expect((await fetch(`${api.url}${part}`, { headers: { cookie: stranger.cookie } })).status).toBe(404);
    expect((await list(null, projectId)).status).toBe(401);
    expect((await fetch(`${api.url}${part}`)).status).toBe(401);
    // A recording id of another project is not found through this one.
    const other = await liveReadyProject(stranger);
    expect((await fetch(`${api.url}/api/v1/projects/${other}/recordings/${recordingId}/parts/1`, { headers: { cookie: stranger.cookie } })).status).toBe(404);

    expect(((await list(roles.cohost, projectId)).body as { recordings: Recording[] }).recordings.map((r) => r.id)).toEqual([recordingId]);
    expect((await fetch(`${api.url}${part}`, { headers: { cookie: roles.cohost.cookie } })).status).toBe(200);
    expect((await call(api, roles.cohost, 'DELETE', `/api/v1/projects/${projectId}/recordings/${recordingId}`)).status).toBe(204);
    expect(existsSync(join(store, 'recordings', recordingId!))).toBe(false);
    expect(((await list(premium, projectId)).body as { recordings: Recording[] }).recordings).toEqual([]);
  });

  it("deletes recordings past their plan's retention from the store (BullMQ job), and none before", async () => {
    const projectId = await liveReadyProject(premium);
    const { recordingId } = (await call(api, premium, 'POST', `/api/v1/projects/${projectId}/broadcast`, { record: true })).body as BroadcastView;
    writePart(recordingId!, 1, 1);
    await call(api, premium, 'POST', `/api/v1/projects/${projectId}/broadcast/end`);
    const logger = createLogger('retention-test', 'silent');
    const recordings = new RecordingService({ db: api.db, files: new RecordingFiles(store), logger, now: () => new Date(clock) });
    const job = new RecordingRetentionJob({ redis: api.redis, logger, recordings, everyMs: 3_600_000, prefix: `test-${randomUUID()}` });
    try {
      clock += 29 * 24 * 3600 * 1000;
      expect(await job.runNow()).toBe(0);
      expect(existsSync(join(store, 'recordings', recordingId!, 'part-1.mp4'))).toBe(true);
      clock += 2 * 24 * 3600 * 1000;
      // Every recording of this api's tests that ended 30+ days ago goes, this one with them.
      expect(await job.runNow()).toBeGreaterThanOrEqual(1);
      expect(existsSync(join(store, 'recordings', recordingId!))).toBe(false);
      expect(await api.db.recording.count({ where: { id: recordingId! } })).toBe(0);
    } finally {
      await job.close();
    }
  });
});
