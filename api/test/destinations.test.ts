import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  destinationFieldMessages,
  MASKED_STREAM_KEY,
  pipelineErrorCatalogue,
  serverMessageSchema,
  sessionKeys,
  sessionStatusKeys,
  type BroadcastView,
  type DestinationList,
  type DestinationPicker,
  type DestinationView,
  type ServerMessage,
} from '@onair/protocol';
import { createLogger, SecretBox } from '@onair/runtime';
import { testRedisUrl } from '@onair/embedded/test-services';
import { loadConfig } from '../src/config.ts';
import { startBroadcastWatch } from '../src/destinations/index.ts';
import { compose } from '../src/compose.ts';
import { startTwitchDouble, type TwitchDouble } from './helpers/platform-doubles/twitch-double.ts';
import { startYouTubeDouble, type YouTubeDouble } from './helpers/platform-doubles/youtube-double.ts';
import { startFacebookDouble, type FacebookDouble } from './helpers/platform-doubles/facebook-double.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

const LOCAL_RTMP_URL = 'rtmp://127.0.0.1:19350/live';

let api: StudioApi;
let lan: StudioApi;
let twitch: TwitchDouble;
let youtube: YouTubeDouble;
let facebook: FacebookDouble;
let free: TestUser;
let premium: TestUser;
const secretsKey = SecretBox.generateKey();

beforeAll(async () => {
  [twitch, youtube, facebook] = await Promise.all([startTwitchDouble(), startYouTubeDouble(), startFacebookDouble()]);
  const env = { SECRETS_KEY: secretsKey, LOCAL_RTMP_URL, ...twitch.env(), ...youtube.env(), ...facebook.env() };
  api = await startStudioApi({ env });
  // An operator who lets creators push to their own network.
  lan = await startStudioApi({ databaseUrl: api.databaseUrl, env: { ...env, ALLOW_PRIVATE_RTMP: 'true' } });
  free = await createTestUser(api);
  premium = await createTestUser(api, { plan: 'Premium' });
});
afterAll(async () => {
  await lan?.close();
  await api?.close();
  await Promise.all([twitch?.close(), youtube?.close(), facebook?.close()]);
});

async function newProject(user: TestUser): Promise<string> {
  const res = await call(api, user, 'POST', '/api/v1/projects', { name: 'Show' });
  return (res.body as { id: string }).id;
}

const custom = (over: Record<string, unknown> = {}) => ({
  type: 'CustomRTMP',
  name: 'My server',
  rtmpUrl: 'rtmp://93.184.216.34/live',
  streamKey: 'sk_live_abc123',
  ...over,
});

describe('destinations CRUD', () => {
  it('adds, lists, edits, toggles and removes a custom RTMP destination; the key is never returned', async () => {
    const projectId = await newProject(premium);
    const created = await call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, custom());
    expect(created.status).toBe(201);
    const view = created.body as DestinationView;
    expect(view).toMatchObject({
      type: 'CustomRTMP',
      providerId: 'custom',
      name: 'My server',
      enabled: true,
      rtmpUrl: 'rtmp://93.184.216.34/live',
      streamKeyMasked: MASKED_STREAM_KEY,
      authenticated: true,
    });
    expect(JSON.stringify(created.body)).not.toContain('sk_live_abc123');

    const edited = await call(api, premium, 'PATCH', `/api/v1/projects/${projectId}/destinations/${view.id}`, { name: 'Renamed', streamKey: 'sk_live_new' });
    expect(edited).toMatchObject({ status: 200, body: { name: 'Renamed', streamKeyMasked: MASKED_STREAM_KEY } });
    const off = await call(api, premium, 'PATCH', `/api/v1/projects/${projectId}/destinations/${view.id}`, { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, name: 'Renamed' });

    const list = await call(api, premium, 'GET', `/api/v1/projects/${projectId}/destinations`);
    expect(list.status).toBe(200);
    expect((list.body as DestinationList).destinations.map((d) => [d.id, d.enabled])).toEqual([[view.id, false]]);
    expect((list.body as DestinationList).limit).toEqual({ maximum: null, count: 1, reached: false });
    expect(JSON.stringify(list.body)).not.toMatch(/sk_live/);

    expect((await call(api, premium, 'DELETE', `/api/v1/projects/${projectId}/destinations/${view.id}`)).status).toBe(204);
    expect(((await call(api, premium, 'GET', `/api/v1/projects/${projectId}/destinations`)).body as DestinationList).destinations).toEqual([]);
    expect((await call(api, premium, 'DELETE', `/api/v1/projects/${projectId}/destinations/${view.id}`)).status).toBe(404);
  });

  it('each destination gets a canvas (issue 20): vertical by default for TikTok and Instagram, horizontal for the others, editable, validated', async () => {
    const projectId = await newProject(premium);
    const post = (body: object) => call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, body);
    const tiktok = await post({ type: 'TikTok', rtmpUrl: 'rtmp://93.184.216.34/live', streamKey: 'sk_tiktok' });
    expect(tiktok).toMatchObject({ status: 201, body: { type: 'TikTok', canvas: 'vertical' } });
    expect((await post({ type: 'Instagram', streamKey: 'sk_ig' })).body).toMatchObject({ canvas: 'vertical' });
    const wide = await post(custom());
    expect(wide.body).toMatchObject({ canvas: 'horizontal' });
    expect((await post(custom({ name: 'Tall', canvas: 'vertical' }))).body).toMatchObject({ canvas: 'vertical' });
    expect((await post(custom({ canvas: 'diagonal' }))).status).toBe(400);

    const id = (wide.body as DestinationView).id;
    expect(await call(api, premium, 'PATCH', `/api/v1/projects/${projectId}/destinations/${id}`, { canvas: 'vertical' })).toMatchObject({
      status: 200,
      body: { canvas: 'vertical', name: 'My server' },
    });
    expect((await call(api, premium, 'PATCH', `/api/v1/projects/${projectId}/destinations/${id}`, { canvas: 'square' })).status).toBe(400);
    const list = (await call(api, premium, 'GET', `/api/v1/projects/${projectId}/destinations`)).body as DestinationList;
    expect(list.destinations.find((d) => d.id === id)?.canvas).toBe('vertical');
    // Another creator cannot change it.
    const other = await createTestUser(api, { plan: 'Premium' });
    expect((await call(api, other, 'PATCH', `/api/v1/projects/${projectId}/destinations/${id}`, { canvas: 'horizontal' })).status).toBe(404);
  });

  it("hides another creator's destinations", async () => {
    const projectId = await newProject(premium);
    const { body } = await call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, custom());
    const other = await createTestUser(api, { plan: 'Premium' });
    expect((await call(api, other, 'GET', `/api/v1/projects/${projectId}/destinations`)).status).toBe(404);
    expect((await call(api, other, 'PATCH', `/api/v1/projects/${projectId}/destinations/${(body as DestinationView).id}`, { enabled: false })).status).toBe(
      404,
    );
    expect((await call(api, null, 'GET', `/api/v1/projects/${projectId}/destinations`)).status).toBe(401);
  });
});

describe('validation (spec §5)', () => {
  it('custom RTMP: name 1 to 100, rtmp:// or rtmps:// in any case', async () => {
    const projectId = await newProject(premium);
    const post = (body: object) => call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, body);
    const tooLong = await post(custom({ name: 'x'.repeat(101) }));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({
      error: { code: 'VALIDATION_FAILED', details: { issues: [{ path: ['name'], message: destinationFieldMessages.name }] } },
    });
    expect((await post(custom({ name: '' }))).status).toBe(400);
    const http = await post(custom({ rtmpUrl: 'http://93.184.216.34/live' }));
    expect(http.body).toMatchObject({ error: { details: { issues: [{ path: ['rtmpUrl'], message: destinationFieldMessages.rtmpUrl }] } } });
    expect((await post(custom({ rtmpUrl: 'RTMPS://93.184.216.34:443/app', name: 'x'.repeat(100) }))).status).toBe(201);
    expect((await post(custom({ streamKey: '' }))).status).toBe(201);
  });

  it('refuses private and loopback RTMP hosts unless the operator allows them; the local destination is always allowed', async () => {
    const projectId = await newProject(premium);
    for (const rtmpUrl of ['rtmp://127.0.0.1/live', 'rtmp://10.1.2.3/live', 'rtmp://localhost:1935/live', 'rtmp://[::1]/live', 'rtmp://169.254.169.254/x']) {
      const res = await call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, custom({ rtmpUrl }));
      expect(res.status, rtmpUrl).toBe(422);
      expect(res.body).toMatchObject({ error: { code: 'DESTINATION_ADDRESS_REFUSED', details: { field: 'rtmpUrl' } } });
    }
    const ok = await call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, custom());
    const id = (ok.body as DestinationView).id;
    expect((await call(api, premium, 'PATCH', `/api/v1/projects/${projectId}/destinations/${id}`, { rtmpUrl: 'rtmp://192.168.1.20/live' })).status).toBe(422);

    const onLan = await call(lan, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, custom({ rtmpUrl: 'rtmp://192.168.1.20/live' }));
    expect(onLan.status).toBe(201);
    // …but never the cloud metadata service.
    const metadata = await call(lan, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, custom({ rtmpUrl: 'rtmp://169.254.169.254/live' }));
    expect(metadata).toMatchObject({
      status: 422,
      body: { error: { code: 'DESTINATION_ADDRESS_REFUSED', message: expect.stringContaining('cloud metadata') } },
    });

    const local = await call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local' });
    expect(local).toMatchObject({ status: 201, body: { type: 'Local', rtmpUrl: LOCAL_RTMP_URL, streamKeyMasked: MASKED_STREAM_KEY } });
  });

  it('Twitch: title required and at most 100; YouTube and Facebook: title at most 100, description at most 1500', async () => {
    const projectId = await newProject(premium);
    const post = (body: object) => call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, body);
    expect((await post({ type: 'Twitch', settings: { title: '' } })).body).toMatchObject({
      error: { details: { issues: [{ path: ['settings', 'title'], message: 'Enter a title.' }] } },
    });
    expect((await post({ type: 'Twitch', settings: {} })).status).toBe(400);
    expect((await post({ type: 'Twitch', settings: { title: 'x'.repeat(101) } })).status).toBe(400);
    expect((await post({ type: 'Twitch', settings: { title: 'x'.repeat(100) } })).status).toBe(201);
    for (const type of ['YouTube', 'Facebook']) {
      expect((await post({ type, settings: { title: 'x'.repeat(101) } })).status).toBe(400);
      expect((await post({ type, settings: { description: 'x'.repeat(1501) } })).status).toBe(400);
      const ok = await post({ type, settings: { title: 'x'.repeat(100), description: 'y'.repeat(1500) } });
      expect(ok).toMatchObject({ status: 201, body: { type, authenticated: false } });
      // An edit obeys the same rules.
      expect(
        (
          await call(api, premium, 'PATCH', `/api/v1/projects/${projectId}/destinations/${(ok.body as DestinationView).id}`, {
            settings: { description: 'z'.repeat(1501) },
          })
        ).status,
      ).toBe(400);
    }
  });

  it('YouTube by stream key is listed but not offered', async () => {
    const projectId = await newProject(premium);
    const res = await call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'YouTubeManual', name: 'Manual', streamKey: 'k' });
    expect(res).toMatchObject({ status: 422, body: { error: { code: 'DESTINATION_TYPE_UNAVAILABLE' } } });
    expect(
      (await call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'YouTubeManual', name: 'x'.repeat(101), streamKey: 'k' })).status,
    ).toBe(400);
  });

  it("'Apply metadata to all destinations' copies title and description within each platform's rules", async () => {
    const projectId = await newProject(premium);
    const post = async (body: object) => (await call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, body)).body as DestinationView;
    const tw = await post({ type: 'Twitch', settings: { title: 'Old title' } });
    const fb = await post({ type: 'Facebook', settings: {} });
    const rtmp = await post(custom());
    const yt = await post({ type: 'YouTube', settings: {} });
    const res = await call(api, premium, 'PATCH', `/api/v1/projects/${projectId}/destinations/${yt.id}`, {
      settings: { title: 'Speedrun night', description: 'Any% attempts' },
      applyMetadataToAll: true,
    });
    expect(res.status).toBe(200);
    const byId = new Map(
      ((await call(api, premium, 'GET', `/api/v1/projects/${projectId}/destinations`)).body as DestinationList).destinations.map((d) => [d.id, d]),
    );
    expect(byId.get(tw.id)?.settings).toEqual({ title: 'Speedrun night' });
    expect(byId.get(fb.id)?.settings).toMatchObject({ title: 'Speedrun night', description: 'Any% attempts', privacy: 'EVERYONE' });
    expect(byId.get(rtmp.id)?.settings).toEqual({});
    // An empty title is not copied to Twitch, which requires one.
    await call(api, premium, 'PATCH', `/api/v1/projects/${projectId}/destinations/${yt.id}`, { settings: { title: '' }, applyMetadataToAll: true });
    const after = ((await call(api, premium, 'GET', `/api/v1/projects/${projectId}/destinations`)).body as DestinationList).destinations;
    expect(after.find((d) => d.id === tw.id)?.settings.title).toBe('Speedrun night');
    expect(after.find((d) => d.id === fb.id)?.settings.title).toBe('');
  });
});

describe('plan rules (spec §5, §6)', () => {
  it('Free: at most 2 destinations (Add Destination disabled at the limit), custom kinds locked with the upgrade tooltips', async () => {
    const projectId = await newProject(free);
    const picker = (await call(api, free, 'GET', `/api/v1/projects/${projectId}/destinations/picker`)).body as DestinationPicker;
    const tile = (type: string) => picker.tiles.find((t) => t.type === type);
    expect(tile('CustomRTMP')).toMatchObject({ locked: true, upgradeTooltip: 'Add Custom RTMP destinations...', available: true });
    expect(tile('Vimeo')).toMatchObject({ locked: true, upgradeTooltip: 'Add more destinations' });
    expect(tile('Twitch')).toMatchObject({ locked: false, upgradeTooltip: null, available: true, brandColor: '#9146FF' });
    expect(tile('YouTubeManual')).toMatchObject({ available: false });
    expect(picker.limit).toEqual({ maximum: 2, count: 0, reached: false });

    const paid = await call(api, free, 'POST', `/api/v1/projects/${projectId}/destinations`, custom());
    expect(paid).toMatchObject({
      status: 403,
      body: {
        error: {
          code: 'PLAN_LIMIT_REACHED',
          message: 'Custom RTMP destinations come with Premium. Upgrade to add one.',
          details: { rule: 'custom-destinations', tooltip: 'Add Custom RTMP destinations...' },
        },
      },
    });

    expect((await call(api, free, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local' })).status).toBe(201);
    expect((await call(api, free, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Twitch', settings: { title: 'Hi' } })).status).toBe(201);
    const third = await call(api, free, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'YouTube', settings: {} });
    expect(third).toMatchObject({
      status: 403,
      body: {
        error: {
          code: 'PLAN_LIMIT_REACHED',
          message: 'Your plan streams to at most 2 destinations. Upgrade to add more.',
          details: { rule: 'maximum-destinations', maximum: 2, tooltip: 'Add more destinations' },
        },
      },
    });
    expect(((await call(api, free, 'GET', `/api/v1/projects/${projectId}/destinations`)).body as DestinationList).limit).toEqual({
      maximum: 2,
      count: 2,
      reached: true,
    });
  });

  it('Premium: Unlimited destinations and every kind', async () => {
    const projectId = await newProject(premium);
    for (let i = 0; i < 4; i++)
      expect((await call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, custom({ name: `Server ${i}` }))).status).toBe(201);
    expect((await call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Trovo', streamKey: 'trovo-key' })).body).toMatchObject({
      name: 'Trovo',
      rtmpUrl: 'rtmp://livepush.trovo.live/live',
    });
    const picker = (await call(api, premium, 'GET', `/api/v1/projects/${projectId}/destinations/picker`)).body as DestinationPicker;
    expect(picker.tiles.every((t) => !t.locked)).toBe(true);
    expect(picker.limit).toEqual({ maximum: null, count: 5, reached: false });
  });

  it('two concurrent adds cannot both pass the limit', async () => {
    const projectId = await newProject(free);
    const results = await Promise.all(
      [0, 1, 2, 3].map(() => call(api, free, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Twitch', settings: { title: 'Race' } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 403, 403]);
  });
});

describe('destination events on /ws (spec §4)', () => {
  it('pushes Added, Changed and Removed to every open studio of the project, on any replica', async () => {
    const projectId = await newProject(premium);
    const sockets = await Promise.all([studio(api, premium, projectId), studio(lan, premium, projectId)]);
    try {
      const created = (await call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, custom())).body as DestinationView;
      await call(api, premium, 'PATCH', `/api/v1/projects/${projectId}/destinations/${created.id}`, { enabled: false });
      await call(api, premium, 'DELETE', `/api/v1/projects/${projectId}/destinations/${created.id}`);
      for (const s of sockets) {
        const events = await s.events(3);
        expect(events.map((e) => [e.event, e.destinationId, e.destination?.enabled ?? null])).toEqual([
          ['Added', created.id, true],
          ['Changed', created.id, false],
          ['Removed', created.id, null],
        ]);
        expect(JSON.stringify(events)).not.toContain('sk_live');
      }
    } finally {
      for (const s of sockets) s.ws.terminate();
    }
  });
});

type DestinationEvent = Extract<ServerMessage, { type: 'destination.event' }>;

/** A studio's socket subscribed to a project, collecting destination events. */
async function studio(
  target: StudioApi,
  user: TestUser,
  projectId: string,
): Promise<{ ws: WebSocket; messages: ServerMessage[]; events: (n: number) => Promise<DestinationEvent[]> }> {
  const ws = new WebSocket(target.wsUrl, { headers: { cookie: user.cookie } });
  const messages: ServerMessage[] = [];
  ws.on('message', (data) => messages.push(serverMessageSchema.parse(JSON.parse(data.toString()))));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'subscribe', projectId }));
  await waitUntil(() => messages.some((m) => m.type === 'subscribed'));
  return {
    ws,
    messages,
    events: async (n) => {
      const found = () => messages.filter((m): m is DestinationEvent => m.type === 'destination.event');
      await waitUntil(() => found().length >= n);
      return found();
    },
  };
}

async function waitUntil(ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('Auto Live (spec §5)', () => {
  it('keeps the last enabled Twitch destination while Auto Live is on', async () => {
    const projectId = await newProject(premium);
    const post = async (body: object) => ((await call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, body)).body as DestinationView).id;
    const first = await post({ type: 'Twitch', settings: { title: 'Console' } });
    const second = await post({ type: 'Twitch', settings: { title: 'Console 2' } });
    await api.db.project.update({ where: { id: projectId }, data: { autoLive: true } });
    const at = (id: string) => `/api/v1/projects/${projectId}/destinations/${id}`;

    expect(((await call(api, premium, 'GET', `/api/v1/projects/${projectId}/destinations`)).body as DestinationList).autoLive).toBe(true);
    expect((await call(api, premium, 'PATCH', at(second), { enabled: false })).status).toBe(200);
    const off = await call(api, premium, 'PATCH', at(first), { enabled: false });
    expect(off).toMatchObject({
      status: 409,
      body: {
        error: {
          code: 'CONFLICT',
          message: "Twitch required: You must broadcast to your console's Twitch channel so that we can receive your game feed.",
          details: { rule: 'twitch-required' },
        },
      },
    });
    expect((await call(api, premium, 'DELETE', at(first))).status).toBe(409);
    // A disabled Twitch destination may go; so may the last one once Auto Live is off.
    expect((await call(api, premium, 'DELETE', at(second))).status).toBe(204);
    await api.db.project.update({ where: { id: projectId }, data: { autoLive: false } });
    expect((await call(api, premium, 'DELETE', at(first))).status).toBe(204);
  });
});

describe('stream health and the plan limit while live', () => {
  /** A session's stats report as the owning worker's pipeline sends it, with these outputs. */
  const sessionStats = (projectId: string, bitrateKbps: number, outputs: object[]) => ({
    sessionId: projectId,
    at: new Date().toISOString(),
    state: 'playing',
    fps: 30,
    framesOut: 900,
    droppedFrames: 0,
    bitrateKbps,
    planVersion: 1,
    outputs,
  });

  /**
   * A project with two custom destinations, the api's broadcast watch running (as startApi runs
   * it) and a studio socket listening; the session is closed afterwards.
   */
  async function withWatchedProject(
    body: (ctx: {
      projectId: string;
      a: string;
      b: string;
      s: Awaited<ReturnType<typeof studio>>;
      watch: Awaited<ReturnType<typeof startBroadcastWatch>>;
    }) => Promise<void>,
  ): Promise<void> {
    const projectId = await newProject(premium);
    const post = async (body: object) => ((await call(api, premium, 'POST', `/api/v1/projects/${projectId}/destinations`, body)).body as DestinationView).id;
    const a = await post(custom({ name: 'A' }));
    const b = await post(custom({ name: 'B', rtmpUrl: 'rtmp://93.184.216.35/live' }));
    const logger = createLogger('watch-test', 'silent');
    const config = loadConfig({ DATABASE_URL: api.databaseUrl, REDIS_URL: testRedisUrl(), SECRETS_KEY: secretsKey, LOG_LEVEL: 'silent' });
    const services = compose({ config, db: api.db, redis: api.redis, logger });
    const watch = await startBroadcastWatch({ ...services, sweepEveryMs: 60_000 });
    const s = await studio(api, premium, projectId);
    try {
      await body({ projectId, a, b, s, watch });
    } finally {
      s.ws.terminate();
      await watch.close();
      await call(api, premium, 'DELETE', `/api/v1/projects/${projectId}/session`);
      await services.close();
    }
  }

  it('fails a live broadcast whose every destination gave up, with the reasons, and stops its outputs', async () => {
    await withWatchedProject(async ({ projectId, a, b, s }) => {
      const live = (await call(api, premium, 'POST', `/api/v1/projects/${projectId}/broadcast`)).body as BroadcastView;
      const report = (states: [string, string][]) => ({
        sessionId: projectId,
        type: 'stats',
        stats: sessionStats(
          projectId,
          0,
          states.map(([id, state]) => ({
            id,
            state,
            bytesSent: 0,
            bitrateKbps: 0,
            reconnects: 3,
            ...(state === 'failed' ? { errorCode: 'DESTINATION_REFUSED' } : {}),
          })),
        ),
      });
      // One still reconnecting: the broadcast stays live.
      await api.redis.publish(
        sessionStatusKeys.channel(projectId),
        JSON.stringify(
          report([
            [a, 'failed'],
            [b, 'reconnecting'],
          ]),
        ),
      );
      await waitUntil(() => s.messages.some((m) => m.type === 'broadcast.health'));
      expect(((await call(api, premium, 'GET', `/api/v1/projects/${projectId}/broadcast`)).body as { broadcast: BroadcastView }).broadcast.state).toBe('live');
      // Both gave up.
      await api.redis.publish(
        sessionStatusKeys.channel(projectId),
        JSON.stringify(
          report([
            [a, 'failed'],
            [b, 'failed'],
          ]),
        ),
      );
      await waitUntil(() => s.messages.some((m) => m.type === 'broadcast.state' && m.broadcast.state === 'failed'));
      const failed = ((await call(api, premium, 'GET', `/api/v1/projects/${projectId}/broadcast`)).body as { broadcast: BroadcastView }).broadcast;
      expect(failed).toMatchObject({
        id: live.id,
        state: 'failed',
        failureReason: `Every destination failed. ${pipelineErrorCatalogue.DESTINATION_REFUSED.message}`,
      });
      expect(failed.endedAt).not.toBeNull();
      const sealed = await api.redis.get(sessionKeys.outputs(projectId));
      expect(JSON.parse(new SecretBox(secretsKey).open(sealed!, `session:${projectId}`))).toEqual([]);
      // The creator can go live again.
      expect(((await call(api, premium, 'POST', `/api/v1/projects/${projectId}/broadcast`)).body as BroadcastView).state).toBe('live');
    });
  });

  it('ends a broadcast held on the holding slate past SLATE_MAX_SECONDS (600 by default), not before', async () => {
    await withWatchedProject(async ({ projectId, a, s }) => {
      const live = (await call(api, premium, 'POST', `/api/v1/projects/${projectId}/broadcast`)).body as BroadcastView;
      const onSlateFor = (seconds: number) => {
        const stats = sessionStats(projectId, 2980, [{ id: a, state: 'live', bytesSent: 1_000_000, bitrateKbps: 2980, reconnects: 0 }]);
        return { sessionId: projectId, type: 'stats', stats: { ...stats, slateSince: new Date(Date.parse(stats.at) - seconds * 1000).toISOString() } };
      };
      await api.redis.publish(sessionStatusKeys.channel(projectId), JSON.stringify(onSlateFor(599)));
      await waitUntil(() => s.messages.some((m) => m.type === 'broadcast.health'));
      expect(((await call(api, premium, 'GET', `/api/v1/projects/${projectId}/broadcast`)).body as { broadcast: BroadcastView }).broadcast.state).toBe('live');
      await api.redis.publish(sessionStatusKeys.channel(projectId), JSON.stringify(onSlateFor(601)));
      await waitUntil(() => s.messages.some((m) => m.type === 'broadcast.state' && m.broadcast.state === 'ended'));
      const ended = ((await call(api, premium, 'GET', `/api/v1/projects/${projectId}/broadcast`)).body as { broadcast: BroadcastView }).broadcast;
      expect(ended).toMatchObject({ id: live.id, state: 'ended', failureReason: null });
      const sealed = await api.redis.get(sessionKeys.outputs(projectId));
      expect(JSON.parse(new SecretBox(secretsKey).open(sealed!, `session:${projectId}`))).toEqual([]);
    });
  });

  it('relays per-destination output stats to the studios, and ends the broadcast at the plan limit', async () => {
    await withWatchedProject(async ({ projectId, a, b, s, watch }) => {
      const live = (await call(api, premium, 'POST', `/api/v1/projects/${projectId}/broadcast`)).body as BroadcastView;
      expect(live.state).toBe('live');

      // What the owning media worker publishes (SessionHost: {sessionId, ...report}; the session id is the project id).
      const stats = {
        ...sessionStats(projectId, 2980, []),
        outputs: [
          { id: a, state: 'live', bytesSent: 1_000_000, bitrateKbps: 2980, reconnects: 1 },
          { id: b, state: 'failed', bytesSent: 0, bitrateKbps: 0, reconnects: 3, errorCode: 'DESTINATION_REFUSED' },
          { id: 'not-a-destination', state: 'live', bytesSent: 1, bitrateKbps: 1, reconnects: 0 },
        ],
        // The worker ran short of CPU: the session's encoder stepped down to a faster preset.
        encoder: { step: 1, steps: 3, preset: 'superfast', width: 1280, height: 720 },
      };
      await api.redis.publish(sessionStatusKeys.channel(projectId), JSON.stringify({ sessionId: projectId, type: 'stats', stats }));
      await waitUntil(() => s.messages.some((m) => m.type === 'broadcast.health'));
      const health = s.messages.filter((m) => m.type === 'broadcast.health');
      expect(health).toEqual([
        {
          type: 'broadcast.health',
          projectId,
          broadcastId: live.id,
          at: stats.at,
          outputs: [
            { destinationId: a, state: 'live', bitrateKbps: 2980, reconnects: 1 },
            {
              destinationId: b,
              state: 'failed',
              bitrateKbps: 0,
              reconnects: 3,
              errorCode: 'DESTINATION_REFUSED',
              reason: pipelineErrorCatalogue.DESTINATION_REFUSED.message,
            },
          ],
          encoder: { step: 1, steps: 3, preset: 'superfast', width: 1280, height: 720 },
        },
      ]);
      // A studio opened now reads the same health with the broadcast.
      expect(
        ((await call(api, premium, 'GET', `/api/v1/projects/${projectId}/broadcast`)).body as { broadcast: BroadcastView }).broadcast.outputs,
      ).toHaveLength(2);

      // Past the plan's limit, the sweep ends it: every output stops and the studios hear of it.
      await api.db.broadcast.update({ where: { id: live.id }, data: { endsAt: new Date(Date.now() - 1000) } });
      expect(await watch.sweep()).toBe(1);
      expect(((await call(api, premium, 'GET', `/api/v1/projects/${projectId}/broadcast`)).body as { broadcast: BroadcastView }).broadcast.state).toBe('ended');
      const sealed = await api.redis.get(sessionKeys.outputs(projectId));
      expect(JSON.parse(new SecretBox(secretsKey).open(sealed!, `session:${projectId}`))).toEqual([]);
      await waitUntil(() => s.messages.some((m) => m.type === 'broadcast.state' && m.broadcast.state === 'ended'));
    });
  });
});
