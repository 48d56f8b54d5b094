// 'Stream a video file as live' (issue 19): the real api on a test database and Redis, the real
// BullMQ delayed job, an uploaded video made by ffmpeg; the broadcast starts at the scheduled time
// with nobody in the studio and ends when the video has played.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANVAS, queues, sessionKeys, type BroadcastView, type ScheduledBroadcast, type SceneDocument } from '@onair/protocol';
import { createLogger, SecretBox } from '@onair/runtime';
import { testRedisUrl } from '@onair/embedded/test-services';
import { loadConfig } from '../src/config.ts';
import { ScheduledBroadcastQueue, startScheduledBroadcasts } from '../src/schedules/index.ts';
import { compose, type Composition } from '../src/compose.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let host: TestUser;
let store = '';
let queue: ScheduledBroadcastQueue;
let worker: Composition;
const prefix = `test-${randomUUID()}`;
const secretsKey = SecretBox.generateKey();

beforeAll(async () => {
  store = mkdtempSync(join(tmpdir(), 'onair-schedules-'));
  const env = { SECRETS_KEY: secretsKey, UPLOADS_DIR: store, LOCAL_RTMP_URL: 'rtmp://127.0.0.1:19350/live' };
  const redis = new Redis(testRedisUrl());
  queue = new ScheduledBroadcastQueue(redis, { prefix });
  api = await startStudioApi({ env, scheduleQueue: queue });
  // The worker side, as api/src/main.ts runs it.
  const logger = createLogger('schedules-test', 'silent');
  const config = loadConfig({ DATABASE_URL: api.databaseUrl, REDIS_URL: testRedisUrl(), LOG_LEVEL: 'silent', ...env });
  worker = compose({ config, db: api.db, redis: api.redis, logger, scheduleQueue: queue });
  startScheduledBroadcasts(worker);
  host = await createTestUser(api, { plan: 'Premium' });
});
afterAll(async () => {
  await queue?.close();
  await worker?.close();
  await api?.close();
  if (store) rmSync(store, { recursive: true, force: true });
});

async function projectWithVideo(owner: TestUser = host): Promise<{ projectId: string; videoId: string; imageId: string }> {
  const projectId = ((await call(api, owner, 'POST', '/api/v1/projects', { name: 'Scheduled' })).body as { id: string }).id;
  expect((await call(api, owner, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local' })).status).toBe(201);
  const video = join(store, `${randomUUID()}.mp4`);
  execFileSync('ffmpeg', [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=320x180:rate=30:duration=2',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=2',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    video,
  ]);
  const image = join(store, `${randomUUID()}.png`);
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=blue:s=64x64', '-frames:v', '1', image]);
  const upload = async (file: string, purpose: string, name: string) => {
    const res = await fetch(`${api.url}/api/v1/projects/${projectId}/uploads?purpose=${purpose}&name=${name}`, {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: readFileSync(file),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  return { projectId, videoId: await upload(video, 'video', 'tone.mp4'), imageId: await upload(image, 'background', 'blue.png') };
}

const documentOf = async (projectId: string, user: TestUser = host) =>
  (await call(api, user, 'GET', `/api/v1/projects/${projectId}/scene`)).body as SceneDocument;
const liveSceneNames = (doc: SceneDocument) => doc.scenes.filter((s) => s.deletedAt === null).map((s) => s.name);

const scheduled = async (projectId: string) =>
  ((await call(api, host, 'GET', `/api/v1/projects/${projectId}/scheduled-broadcasts`)).body as { scheduled: ScheduledBroadcast[] }).scheduled;

describe('scheduled video broadcasts', () => {
  it('goes live at the scheduled time with the video full frame, nobody in the studio, and ends when it has played', async () => {
    const { projectId, videoId } = await projectWithVideo();
    const startAt = new Date(Date.now() + 1500).toISOString();
    const created = await call(api, host, 'POST', `/api/v1/projects/${projectId}/scheduled-broadcasts`, { uploadId: videoId, startAt });
    expect(created).toMatchObject({ status: 201, body: { state: 'scheduled', uploadId: videoId, startAt, broadcastId: null } });
    expect(((await call(api, host, 'GET', `/api/v1/projects/${projectId}/broadcast`)).body as { broadcast: null }).broadcast).toBeNull();

    await expect.poll(async () => (await scheduled(projectId))[0]?.state, { timeout: 20_000, interval: 200 }).toBe('live');
    const [live] = await scheduled(projectId);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(startAt));
    const broadcast = ((await call(api, host, 'GET', `/api/v1/projects/${projectId}/broadcast`)).body as { broadcast: BroadcastView }).broadcast;
    expect(broadcast).toMatchObject({ id: live!.broadcastId, state: 'live' });
    const sealed = await api.redis.get(sessionKeys.outputs(projectId));
    expect(JSON.parse(new SecretBox(secretsKey).open(sealed!, `session:${projectId}`))).toHaveLength(1);
    const doc = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/scene`)).body as SceneDocument;
    const shown = doc.scenes.find((s) => s.id === doc.activeSceneId)!;
    expect(shown.name).toBe('Scheduled: tone.mp4');
    const video = doc.sources.find((s) => s.kind === 'video')!;
    expect(video.settings).toMatchObject({ uploadId: videoId, loop: false, restartOnShow: true });
    expect(shown.layers.find((l) => l.sourceId === video.id)).toMatchObject({ x: 0, y: 0, width: CANVAS.width, height: CANVAS.height });

    await expect.poll(async () => (await scheduled(projectId))[0]?.state, { timeout: 20_000, interval: 200 }).toBe('done');
    expect(((await call(api, host, 'GET', `/api/v1/projects/${projectId}/broadcast`)).body as { broadcast: BroadcastView }).broadcast).toMatchObject({
      id: live!.broadcastId,
      state: 'ended',
    });
    // Its scene and its video source are gone with it; the project shows its first scene again.
    await expect.poll(async () => liveSceneNames(await documentOf(projectId)), { timeout: 10_000, interval: 200 }).toEqual(['Scene 1']);
    const after = await documentOf(projectId);
    expect(after.sources.some((s) => s.kind === 'video')).toBe(false);
    expect(after.activeSceneId).toBe(after.scenes.find((s) => s.name === 'Scene 1')!.id);
    await call(api, host, 'DELETE', `/api/v1/projects/${projectId}/session`);
  });

  it("plays at the plan's scene limit: its scene is not counted, and only the api makes such scenes", async () => {
    const limited = await createTestUser(api, { plan: 'Premium' });
    await api.db.entitlement.updateMany({ where: { featureId: 'maximum-scenes', subscription: { userId: limited.id } }, data: { value: '2' } });
    const { projectId, videoId } = await projectWithVideo(limited);
    const addScene = async (name: string, kind?: string) => {
      const doc = await documentOf(projectId, limited);
      return call(api, limited, 'PATCH', `/api/v1/projects/${projectId}/scene`, {
        baseVersion: doc.version,
        ops: [{ op: 'addScene', sceneId: randomUUID(), name, ...(kind ? { kind } : {}) }],
      });
    };
    expect((await addScene('Scene 2')).status).toBe(200);
    // At the limit (2 of 2): no third scene of the creator's…
    expect(await addScene('Scene 3')).toMatchObject({ status: 403, body: { error: { code: 'PLAN_LIMIT_REACHED', details: { rule: 'scene-limit-reached' } } } });
    // …nor one of the api's kind by hand.
    expect(await addScene('Scheduled: mine', 'scheduled')).toMatchObject({
      status: 422,
      body: {
        error: {
          code: 'SCENE_RULE_VIOLATED',
          message: 'Scenes of scheduled broadcasts are made by OnAir when the broadcast starts. Schedule a video from the Media dialog instead.',
          details: { rule: 'scene-kind-reserved' },
        },
      },
    });

    const startAt = new Date(Date.now() + 1500).toISOString();
    expect((await call(api, limited, 'POST', `/api/v1/projects/${projectId}/scheduled-broadcasts`, { uploadId: videoId, startAt })).status).toBe(201);
    const list = async () =>
      ((await call(api, limited, 'GET', `/api/v1/projects/${projectId}/scheduled-broadcasts`)).body as { scheduled: ScheduledBroadcast[] }).scheduled;
    await expect.poll(async () => (await list())[0]?.state, { timeout: 20_000, interval: 200 }).toBe('live');
    const live = await documentOf(projectId, limited);
    expect(live.scenes.find((s) => s.id === live.activeSceneId)).toMatchObject({ name: 'Scheduled: tone.mp4', kind: 'scheduled' });
    expect(liveSceneNames(live)).toHaveLength(3);
    // While it plays the creator's own limit is as it was.
    expect((await addScene('Scene 3')).status).toBe(403);

    await expect.poll(async () => (await list())[0]?.state, { timeout: 20_000, interval: 200 }).toBe('done');
    await expect.poll(async () => liveSceneNames(await documentOf(projectId, limited)), { timeout: 10_000, interval: 200 }).toEqual(['Scene 1', 'Scene 2']);
    await call(api, limited, 'DELETE', `/api/v1/projects/${projectId}/session`);
  });

  it('cancels a schedule before its time (its job leaves the queue), and refuses what cannot be played', async () => {
    const { projectId, videoId, imageId } = await projectWithVideo();
    const later = new Date(Date.now() + 3600_000).toISOString();
    const { id } = (await call(api, host, 'POST', `/api/v1/projects/${projectId}/scheduled-broadcasts`, { uploadId: videoId, startAt: later }))
      .body as ScheduledBroadcast;
    const bull = new Queue(queues.scheduledBroadcasts.name, { connection: new Redis(testRedisUrl(), { maxRetriesPerRequest: null }), prefix });
    try {
      expect(await bull.getJob(`${id}-start`)).toBeTruthy();
      expect((await call(api, host, 'DELETE', `/api/v1/projects/${projectId}/scheduled-broadcasts/${id}`)).status).toBe(204);
      expect(await bull.getJob(`${id}-start`)).toBeUndefined();
    } finally {
      await bull.close();
    }
    expect((await scheduled(projectId)).map((s) => s.state)).toEqual(['cancelled']);
    expect((await call(api, host, 'DELETE', `/api/v1/projects/${projectId}/scheduled-broadcasts/${id}`)).status).toBe(409);

    const post = (body: object) => call(api, host, 'POST', `/api/v1/projects/${projectId}/scheduled-broadcasts`, body);
    expect(await post({ uploadId: imageId, startAt: later })).toMatchObject({
      body: { error: { code: 'VALIDATION_FAILED', message: 'Choose a video to stream; a picture cannot be played as a broadcast.' } },
    });
    expect(await post({ uploadId: videoId, startAt: new Date(Date.now() - 1000).toISOString() })).toMatchObject({
      body: { error: { message: 'Choose a time in the future.' } },
    });
    expect(await post({ uploadId: videoId, startAt: new Date(Date.now() + 31 * 24 * 3600_000).toISOString() })).toMatchObject({
      body: { error: { message: 'Choose a time within the next 30 days.' } },
    });
    const other = await projectWithVideo();
    expect((await post({ uploadId: other.videoId, startAt: later })).status).toBe(404);
  });

  it('is for those who manage the broadcast', async () => {
    const { projectId, videoId } = await projectWithVideo();
    const contributor = await createTestUser(api, { plan: 'Premium' });
    await api.db.projectMember.create({ data: { projectId, userId: contributor.id, role: 'contributor' } });
    const later = new Date(Date.now() + 3600_000).toISOString();
    expect((await call(api, contributor, 'POST', `/api/v1/projects/${projectId}/scheduled-broadcasts`, { uploadId: videoId, startAt: later })).status).toBe(
      403,
    );
    expect((await call(api, contributor, 'GET', `/api/v1/projects/${projectId}/scheduled-broadcasts`)).status).toBe(403);
    // Cancelling is refused as well, and the schedule stays.
    const { id } = (await call(api, host, 'POST', `/api/v1/projects/${projectId}/scheduled-broadcasts`, { uploadId: videoId, startAt: later }))
      .body as ScheduledBroadcast;
    const cancel = `/api/v1/projects/${projectId}/scheduled-broadcasts/${id}`;
    const viewer = await createTestUser(api, { plan: 'Premium' });
    await api.db.projectMember.create({ data: { projectId, userId: viewer.id, role: 'viewer' } });
    expect(await call(api, contributor, 'DELETE', cancel)).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect((await call(api, viewer, 'DELETE', cancel)).status).toBe(403);
    const stranger = await createTestUser(api, { plan: 'Premium' });
    expect((await call(api, stranger, 'DELETE', cancel)).status).toBe(404);
    expect((await call(api, null, 'DELETE', cancel)).status).toBe(401);
    expect((await scheduled(projectId)).map((s) => s.state)).toEqual(['scheduled']);
    expect((await call(api, host, 'DELETE', cancel)).status).toBe(204);
    expect((await call(api, stranger, 'GET', `/api/v1/projects/${projectId}/scheduled-broadcasts`)).status).toBe(404);
    expect((await call(api, null, 'GET', `/api/v1/projects/${projectId}/scheduled-broadcasts`)).status).toBe(401);
  });
});
