// The ingest as the RTMP server and the studio use it: the api answers nginx-rtmp's callbacks
// (called here exactly as nginx-rtmp calls them, `notify_method get`), shows and regenerates the
// key, switches Auto Live, and starts and ends the broadcast with the feed. The real nginx-rtmp and
// ffmpeg flow is in media-worker/test/ingest.test.ts.
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestKeys, sceneToRenderPlan, type BroadcastView, type DestinationView, type IngestView, type PlanInput, type SceneDocument } from '@onair/protocol';
import { createLogger, redactedPaths, SecretBox } from '@onair/runtime';
import { testRedisUrl } from '@onair/embedded/test-services';
import { loadConfig } from '../src/config.ts';
import { startIngestWatch, type IngestWatch } from '../src/ingest/index.ts';
import { compose, type Composition } from '../src/compose.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

const CALLBACK_SECRET = 'ingest-callback-secret-for-tests-0123456789';
const LOCAL_RTMP_URL = 'rtmp://127.0.0.1:19350/live';
const secretsKey = SecretBox.generateKey();
const logLines: string[] = [];

let api: StudioApi;
let watch: IngestWatch;
let worker: Composition;
let host: TestUser;

beforeAll(async () => {
  const logger = pino({ level: 'info', redact: { paths: redactedPaths, censor: '[redacted]' } }, { write: (line: string) => void logLines.push(line) });
  const env = {
    SECRETS_KEY: secretsKey,
    LOCAL_RTMP_URL,
    INGEST_RTMP_URL: 'rtmp://ingest.example.test',
    INGEST_CALLBACK_SECRET: CALLBACK_SECRET,
    INGEST_GRACE_SECONDS: '1',
    INGEST_SWEEP_MS: '100',
    // Twitch destinations are offered only with an OAuth client; nothing here calls Twitch.
    TWITCH_CLIENT_ID: 'ingest-test-client',
    TWITCH_CLIENT_SECRET: 'ingest-test-secret',
  };
  api = await startStudioApi({ env, logger });
  const config = loadConfig({ DATABASE_URL: api.databaseUrl, REDIS_URL: testRedisUrl(), ...env });
  const silent = createLogger('ingest-watch-test', 'silent');
  worker = compose({ config, db: api.db, redis: api.redis, logger: silent });
  watch = startIngestWatch(worker);
  host = await createTestUser(api, { plan: 'Premium' });
});
afterAll(async () => {
  watch?.close();
  await worker?.close();
  await api?.close();
});

async function newProject(user: TestUser): Promise<string> {
  return ((await call(api, user, 'POST', '/api/v1/projects', { name: 'Console show' })).body as { id: string }).id;
}

/** One nginx-rtmp callback: the status and the Location of a rename. */
async function rtmp(
  call: 'publish' | 'update' | 'done',
  params: { app: string; name: string; clientid: string },
  secret = CALLBACK_SECRET,
): Promise<{ status: number; location: string | null }> {
  const nginxCall = { publish: 'publish', update: 'update_publish', done: 'publish_done' }[call];
  const query = new URLSearchParams({
    app: params.app,
    flashver: 'FMLE/3.0',
    swfurl: '',
    tcurl: `rtmp://127.0.0.1:1935/${params.app}`,
    pageurl: '',
    addr: '127.0.0.1',
    clientid: params.clientid,
    call: nginxCall,
    name: params.name,
    type: 'live',
  });
  const res = await fetch(`${api.url}/api/internal/ingest/${secret}/${call}?${query}`, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location') };
}

async function ingestOf(user: TestUser, projectId: string): Promise<IngestView> {
  const res = await call(api, user, 'GET', `/api/v1/projects/${projectId}/ingest`);
  expect(res.status).toBe(200);
  return res.body as IngestView;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function latestBroadcast(projectId: string): Promise<BroadcastView | null> {
  return ((await call(api, host, 'GET', `/api/v1/projects/${projectId}/broadcast`)).body as { broadcast: BroadcastView | null }).broadcast;
}

/** A Twitch destination linked and holding its stream key, as preparing a broadcast leaves it (sealed; no digest yet, as rows saved before digests). */
async function linkedTwitch(projectId: string, streamKey: string): Promise<string> {
  const created = (await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Twitch', settings: { title: 'Console' } }))
    .body as DestinationView;
  const sealed = new SecretBox(secretsKey).seal(streamKey, `${created.id}:streamKey`);
  await api.db.destination.update({ where: { id: created.id }, data: { streamKeyEnc: sealed, rtmpUrl: 'rtmp://live.twitch.tv/app' } });
  return created.id;
}

describe('the ingest key', () => {
  it('is shown to whoever manages the broadcast, regenerable, and refused by the RTMP server once replaced', async () => {
    const projectId = await newProject(host);
    const first = await ingestOf(host, projectId);
    expect(first).toMatchObject({
      serverUrl: 'rtmp://ingest.example.test/ingest',
      consoleServerUrl: 'rtmp://ingest.example.test/app',
      autoLive: false,
      twitchEnabled: false,
      graceSeconds: 1,
      status: { state: 'waiting' },
      feed: null,
    });
    expect(first.streamKey).toMatch(/^live_[A-Za-z0-9_-]{32}$/);
    // Shown again as it is: stored sealed (and hashed), not replaced on every read, nor by two first reads at once.
    expect((await ingestOf(host, projectId)).streamKey).toBe(first.streamKey);
    const other = await newProject(host);
    const [a, b] = await Promise.all([ingestOf(host, other), ingestOf(host, other)]);
    expect(a.streamKey).toBe(b.streamKey);
    const row = await api.db.project.findUniqueOrThrow({ where: { id: projectId } });
    expect(row.ingestKeyEnc).not.toContain(first.streamKey);
    expect(row.ingestKeyHash).toMatch(/^[0-9a-f]{64}$/);

    const regenerated = await call(api, host, 'POST', `/api/v1/projects/${projectId}/ingest/key`);
    expect(regenerated.status).toBe(200);
    const second = (regenerated.body as IngestView).streamKey;
    expect(second).not.toBe(first.streamKey);
    expect(await rtmp('publish', { app: 'ingest', name: first.streamKey, clientid: '1' })).toEqual({ status: 403, location: null });
    const accepted = await rtmp('publish', { app: 'ingest', name: second, clientid: '2' });
    expect(accepted.status).toBe(302);
    // Renamed to project and publish: the key goes no further than the api.
    expect(accepted.location).toMatch(new RegExp(`^${projectId}\\.[0-9a-f-]{36}$`));
    expect((await ingestOf(host, projectId)).status).toMatchObject({ state: 'receiving', via: 'encoder' });
    await rtmp('done', { app: 'ingest', name: accepted.location!, clientid: '2' });
  });

  it('is refused to callers without the broadcast permission and to strangers', async () => {
    const projectId = await newProject(host);
    const contributor = await createTestUser(api);
    await api.db.projectMember.create({ data: { projectId, userId: contributor.id, role: 'contributor' } });
    const cohost = await createTestUser(api);
    await api.db.projectMember.create({ data: { projectId, userId: cohost.id, role: 'cohost' } });
    const stranger = await createTestUser(api);
    for (const [method, path, body] of [
      ['GET', 'ingest', undefined],
      ['POST', 'ingest/key', undefined],
      ['PUT', 'auto-live', { enabled: false }],
    ] as const) {
      expect((await call(api, contributor, method, `/api/v1/projects/${projectId}/${path}`, body)).status).toBe(403);
      expect((await call(api, stranger, method, `/api/v1/projects/${projectId}/${path}`, body)).status).toBe(404);
      expect((await call(api, null, method, `/api/v1/projects/${projectId}/${path}`, body)).status).toBe(401);
    }
    expect((await call(api, cohost, 'GET', `/api/v1/projects/${projectId}/ingest`)).status).toBe(200);
  });

  it('refuses a wrong key and a wrong callback secret, and logs a refusal without the key', async () => {
    const projectId = await newProject(host);
    const { streamKey } = await ingestOf(host, projectId);
    const wrong = 'live_WrongKeyThatNobodyHas_0123456789ab';
    expect(await rtmp('publish', { app: 'ingest', name: wrong, clientid: '7' })).toEqual({ status: 403, location: null });
    // The project key through another application, or the right key with a forged callback.
    expect((await rtmp('publish', { app: 'live', name: streamKey, clientid: '8' })).status).toBe(403);
    expect((await rtmp('publish', { app: 'ingest', name: streamKey, clientid: '9' }, 'not-the-secret-not-the-secret-xx')).status).toBe(403);
    expect(await api.redis.get(ingestKeys.publish(projectId))).toBeNull();
    const refusals = logLines.filter((l) => l.includes('ingest publish refused'));
    expect(refusals.length).toBeGreaterThanOrEqual(2);
    expect(logLines.join('\n')).not.toContain(wrong);
    expect(logLines.join('\n')).not.toContain(streamKey);
    expect(logLines.join('\n')).not.toContain(CALLBACK_SECRET);
  });

  it('refuses a second encoder on the same key and leaves the first undisturbed', async () => {
    const projectId = await newProject(host);
    const { streamKey } = await ingestOf(host, projectId);
    const first = await rtmp('publish', { app: 'ingest', name: streamKey, clientid: '11' });
    expect(first.status).toBe(302);
    const before = await api.redis.get(ingestKeys.publish(projectId));
    expect(await rtmp('publish', { app: 'ingest', name: streamKey, clientid: '12' })).toEqual({ status: 409, location: null });
    expect(await api.redis.get(ingestKeys.publish(projectId))).toBe(before);
    // The refused one ending changes nothing; the first one's updates go on.
    await rtmp('done', { app: 'ingest', name: streamKey, clientid: '12' });
    expect(await api.redis.get(ingestKeys.publish(projectId))).toBe(before);
    expect((await rtmp('update', { app: 'ingest', name: first.location!, clientid: '11' })).status).toBe(204);
    await rtmp('done', { app: 'ingest', name: first.location!, clientid: '11' });
    expect(await api.redis.get(ingestKeys.publish(projectId))).toBeNull();
  });

  it('cuts off a running feed once its key is regenerated', async () => {
    const projectId = await newProject(host);
    const { streamKey } = await ingestOf(host, projectId);
    const accepted = await rtmp('publish', { app: 'ingest', name: streamKey, clientid: '21' });
    // nginx-rtmp may name the stream by the key it was published with or by its new name.
    expect((await rtmp('update', { app: 'ingest', name: accepted.location!, clientid: '21' })).status).toBe(204);
    expect((await rtmp('update', { app: 'ingest', name: streamKey, clientid: '21' })).status).toBe(204);
    // Another connection with the same key is not this publish.
    expect((await rtmp('update', { app: 'ingest', name: streamKey, clientid: '22' })).status).toBe(403);
    await call(api, host, 'POST', `/api/v1/projects/${projectId}/ingest/key`);
    expect((await rtmp('update', { app: 'ingest', name: streamKey, clientid: '21' })).status).toBe(403);
    expect((await ingestOf(host, projectId)).status.state).toBe('dropped');
    expect(await api.redis.get(ingestKeys.publish(projectId))).toBeNull();
  });
});

describe('consoles: the Twitch-shaped path', () => {
  it("lands a publish with the creator's Twitch stream key in the project of that Twitch destination", async () => {
    const projectId = await newProject(host);
    const twitchKey = `live_${randomUUID().replace(/-/g, '')}`;
    const destinationId = await linkedTwitch(projectId, twitchKey);
    const accepted = await rtmp('publish', { app: 'app', name: twitchKey, clientid: '31' });
    expect(accepted.status).toBe(302);
    expect(accepted.location).toMatch(new RegExp(`^${projectId}\\.`));
    expect((await ingestOf(host, projectId)).status).toMatchObject({ state: 'receiving', via: 'console' });
    // The project had no game source: the feed got one, over the whole canvas, the lowest layer (the camera in a corner over it).
    const doc = await waitFor('a game source for the feed', async () => {
      const d = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/scene`)).body as SceneDocument;
      return d.sources.some((s) => s.kind === 'game') ? d : undefined;
    });
    const game = doc.sources.find((s) => s.kind === 'game')!;
    expect(game.name).toBe('Game Source');
    const layer = doc.scenes.find((sc) => sc.id === doc.activeSceneId)!.layers.find((l) => l.sourceId === game.id);
    expect(layer).toMatchObject({ x: 0, y: 0, width: 1280, height: 720, zIndex: 0 });
    // The digest was filled in on the way, so the next lookup is direct.
    expect((await api.db.destination.findUniqueOrThrow({ where: { id: destinationId } })).streamKeyHash).toMatch(/^[0-9a-f]{64}$/);
    await rtmp('done', { app: 'app', name: accepted.location!, clientid: '31' });
    // The Twitch key is no ingest key, and a disabled Twitch destination lets nobody in.
    expect((await rtmp('publish', { app: 'ingest', name: twitchKey, clientid: '32' })).status).toBe(403);
    await api.db.destination.update({ where: { id: destinationId }, data: { enabled: false } });
    expect((await rtmp('publish', { app: 'app', name: twitchKey, clientid: '33' })).status).toBe(403);
    expect(logLines.join('\n')).not.toContain(twitchKey);
  });
});

describe('an arriving feed is always seen (issue 51)', () => {
  /** The scene document once the feed's game source is in it. */
  const withGame = (projectId: string) =>
    waitFor('a game source for the feed', async () => {
      const d = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/scene`)).body as SceneDocument;
      return d.sources.some((s) => s.kind === 'game') ? d : undefined;
    });

  it('a new project of the default template, nobody in the studio: the feed full frame on top of nothing, the camera moved to a corner', async () => {
    const projectId = await newProject(host);
    const before = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/scene`)).body as SceneDocument;
    const cameraId = before.sources.find((s) => s.kind === 'webcam')!.id;
    // Beam: the host's camera full frame.
    expect(before.scenes[0]!.layers.find((l) => l.sourceId === cameraId)).toMatchObject({ x: 0, y: 0, width: 1280, height: 720 });
    const { streamKey } = await ingestOf(host, projectId);
    const accepted = await rtmp('publish', { app: 'ingest', name: streamKey, clientid: '61' });
    expect(accepted.status).toBe(302);
    const doc = await withGame(projectId);
    const scene = doc.scenes.find((sc) => sc.id === doc.activeSceneId)!;
    const game = scene.layers.find((l) => l.sourceId === doc.sources.find((s) => s.kind === 'game')!.id)!;
    const camera = scene.layers.find((l) => l.sourceId === cameraId)!;
    expect(game).toMatchObject({ x: 0, y: 0, width: 1280, height: 720, visible: true, opacity: 1 });
    // The camera no longer covers it: in the lower right corner, over the game, and the scene follows picture in picture.
    expect(camera).toMatchObject({ x: 936, y: 516, width: 320, height: 180, visible: true });
    expect(camera.zIndex).toBeGreaterThan(game.zIndex);
    expect(scene.followedLayout).toEqual({ layout: 'picture-in-picture', mainLayerId: game.id });
    // The program with the feed there and nobody in the studio: the game drawn, the camera absent (no 'Camera Offline' card).
    const rtp = (id: string): PlanInput => ({
      id,
      kind: 'rtp',
      video: { codecs: [{ encoding: 'H264', port: 40_000, payloadType: 102 }], placeholder: '/p.png' },
    });
    const plan = sceneToRenderPlan(doc, (s) => (s.kind === 'watermark' ? { id: s.id, kind: 'image', path: '/logo.png' } : rtp(s.id)), [], {
      present: new Set([game.sourceId]),
    });
    expect(plan.absentInputs).toEqual([cameraId]);
    // The whole output frame (its profile is the plan's resolution: 1080p on Premium).
    expect(plan.scenes.find((s) => s.id === plan.activeSceneId)!.placements.find((p) => p.inputId === game.sourceId)).toMatchObject({
      x: 0,
      y: 0,
      width: plan.profile.width,
      height: plan.profile.height,
      visible: true,
      alpha: 1,
    });
    // The encoder restarts: nothing moves again.
    await rtmp('done', { app: 'ingest', name: accepted.location!, clientid: '61' });
    const again = await rtmp('publish', { app: 'ingest', name: streamKey, clientid: '62' });
    await new Promise((r) => setTimeout(r, 500));
    expect(((await call(api, host, 'GET', `/api/v1/projects/${projectId}/scene`)).body as SceneDocument).version).toBe(doc.version);
    await rtmp('done', { app: 'ingest', name: again.location!, clientid: '62' });
  });

  it('a project opening on Starting soon (Just chatting): the feed goes to the show scene, which goes on air', async () => {
    const projectId = ((await call(api, host, 'POST', '/api/v1/projects', { name: 'Chat show', template: 'Just chatting' })).body as { id: string }).id;
    const { streamKey } = await ingestOf(host, projectId);
    const accepted = await rtmp('publish', { app: 'ingest', name: streamKey, clientid: '63' });
    const doc = await withGame(projectId);
    const active = doc.scenes.find((sc) => sc.id === doc.activeSceneId)!;
    expect(active).toMatchObject({ name: 'Just chatting', kind: 'standard' });
    expect(active.layers.find((l) => l.sourceId === doc.sources.find((s) => s.kind === 'game')!.id)).toMatchObject({ width: 1280, height: 720, visible: true });
    await rtmp('done', { app: 'ingest', name: accepted.location!, clientid: '63' });
  });
});

describe('Auto Live', () => {
  it("can be switched on only with an enabled Twitch destination ('Twitch required')", async () => {
    const projectId = await newProject(host);
    const refused = await call(api, host, 'PUT', `/api/v1/projects/${projectId}/auto-live`, { enabled: true });
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error: {
          code: 'CONFLICT',
          message: "Twitch required: You must broadcast to your console's Twitch channel so that we can receive your game feed.",
          details: { rule: 'twitch-required' },
        },
      },
    });
    await linkedTwitch(projectId, `live_${randomUUID()}`);
    const on = await call(api, host, 'PUT', `/api/v1/projects/${projectId}/auto-live`, { enabled: true });
    expect(on).toMatchObject({ status: 200, body: { autoLive: true, twitchEnabled: true } });
    expect((await call(api, host, 'PUT', `/api/v1/projects/${projectId}/auto-live`, { enabled: 'yes' })).status).toBe(400);
  });

  it('starts the broadcast when a feed arrives, keeps it through a short drop, and ends it after the grace period', async () => {
    const projectId = await newProject(host);
    await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local' });
    await linkedTwitch(projectId, `live_${randomUUID()}`);
    await call(api, host, 'PUT', `/api/v1/projects/${projectId}/auto-live`, { enabled: true });
    const { streamKey } = await ingestOf(host, projectId);

    const first = await rtmp('publish', { app: 'ingest', name: streamKey, clientid: '41' });
    const live = await waitFor('the broadcast to start', async () => {
      const b = await latestBroadcast(projectId);
      return b?.state === 'live' ? b : undefined;
    });
    // A drop shorter than the grace period: the same broadcast goes on.
    await rtmp('done', { app: 'ingest', name: first.location!, clientid: '41' });
    expect((await ingestOf(host, projectId)).status).toMatchObject({ state: 'dropped', via: 'encoder' });
    const again = await rtmp('publish', { app: 'ingest', name: streamKey, clientid: '42' });
    expect(again.status).toBe(302);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await latestBroadcast(projectId)).toMatchObject({ id: live.id, state: 'live' });
    // Gone for longer than the grace period: the broadcast ends by itself.
    await rtmp('done', { app: 'ingest', name: again.location!, clientid: '42' });
    const ended = await waitFor('the broadcast to end', async () => {
      const b = await latestBroadcast(projectId);
      return b?.state === 'ended' ? b : undefined;
    });
    expect(ended.id).toBe(live.id);
    expect((await ingestOf(host, projectId)).status.state).toBe('waiting');
  });

  it('does not start anything for a refused key', async () => {
    const projectId = await newProject(host);
    await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local' });
    await linkedTwitch(projectId, `live_${randomUUID()}`);
    await call(api, host, 'PUT', `/api/v1/projects/${projectId}/auto-live`, { enabled: true });
    expect((await rtmp('publish', { app: 'ingest', name: 'live_notthekey_notthekey_notthekey', clientid: '51' })).status).toBe(403);
    await new Promise((r) => setTimeout(r, 500));
    expect(await latestBroadcast(projectId)).toBeNull();
  });

  it('does not start the broadcast when the plan has can-go-live off: the refusal is logged with GO_LIVE_NOT_IN_PLAN', async () => {
    const projectId = await newProject(host);
    await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local' });
    await linkedTwitch(projectId, `live_${randomUUID()}`);
    await call(api, host, 'PUT', `/api/v1/projects/${projectId}/auto-live`, { enabled: true });
    const { streamKey } = await ingestOf(host, projectId);
    const where = { featureId: 'can-go-live', subscription: { userId: host.id } };
    await api.db.entitlement.updateMany({ where, data: { value: 'false' } });
    try {
      const accepted = await rtmp('publish', { app: 'ingest', name: streamKey, clientid: '61' });
      expect(accepted.status).toBe(302);
      const refusal = await waitFor('the auto live refusal', async () =>
        logLines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.projectId === projectId && l.code === 'GO_LIVE_NOT_IN_PLAN'),
      );
      expect(refusal.msg).toBe('auto live: the broadcast did not start');
      expect(await latestBroadcast(projectId)).toBeNull();
      await rtmp('done', { app: 'ingest', name: accepted.location!, clientid: '61' });
    } finally {
      await api.db.entitlement.updateMany({ where, data: { value: 'true' } });
    }
  });
});
