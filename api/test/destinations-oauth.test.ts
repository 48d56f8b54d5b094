import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionKeys, type DestinationList, type DestinationView, type PlatformPreparation, type StreamDestinationOption } from '@onair/protocol';
import { pino } from 'pino';
import { redactedPaths, SecretBox } from '@onair/runtime';
import {
  FACEBOOK_EVENT,
  FACEBOOK_GROUP,
  FACEBOOK_PAGE,
  FACEBOOK_USER,
  startFacebookDouble,
  type FacebookDouble,
} from './helpers/platform-doubles/facebook-double.ts';
import { startTwitchDouble, TWITCH_STREAM_KEY, TWITCH_USER, type TwitchDouble } from './helpers/platform-doubles/twitch-double.ts';
import { startYouTubeDouble, YOUTUBE_CHANNEL, YOUTUBE_INGEST, type YouTubeDouble } from './helpers/platform-doubles/youtube-double.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let twitch: TwitchDouble;
let youtube: YouTubeDouble;
let facebook: FacebookDouble;
let host: TestUser;
const secretsKey = SecretBox.generateKey();
/** Every line the api logs, at the most verbose level, with the production redaction. */
const logLines: string[] = [];

beforeAll(async () => {
  [twitch, youtube, facebook] = await Promise.all([startTwitchDouble(), startYouTubeDouble(), startFacebookDouble()]);
  const logger = pino({ level: 'trace', redact: { paths: redactedPaths, censor: '[redacted]' } }, { write: (line: string) => void logLines.push(line) });
  api = await startStudioApi({ env: { SECRETS_KEY: secretsKey, ...twitch.env(), ...youtube.env(), ...facebook.env() }, logger });
  host = await createTestUser(api, { plan: 'Premium' });
});
afterAll(async () => {
  await api?.close();
  await Promise.all([twitch?.close(), youtube?.close(), facebook?.close()]);
});

async function newProject(): Promise<string> {
  return ((await call(api, host, 'POST', '/api/v1/projects', { name: 'Show' })).body as { id: string }).id;
}

async function add(projectId: string, body: object): Promise<DestinationView> {
  const res = await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations`, body);
  expect(res.status).toBe(201);
  return res.body as DestinationView;
}

async function get(projectId: string, id: string): Promise<DestinationView> {
  const list = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/destinations`)).body as DestinationList;
  return list.destinations.find((d) => d.id === id)!;
}

/**
 * The popup as a browser runs it: OnAir's /auth/{provider} redirects to the platform, the
 * platform (consenting at once) redirects back to the callback, which answers the closing page.
 */
async function authenticate(provider: string, projectId: string, destinationId: string, user: TestUser = host) {
  const start = await fetch(`${api.url}/api/v1/destinations/auth/${provider}?projectId=${projectId}&destinationId=${destinationId}`, {
    headers: { cookie: user.cookie },
    redirect: 'manual',
  });
  expect(start.status).toBe(302);
  const authorizeUrl = new URL(start.headers.get('location')!);
  const atPlatform = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(atPlatform.status).toBe(302);
  const callbackUrl = atPlatform.headers.get('location')!;
  const done = await fetch(callbackUrl, { headers: { cookie: user.cookie }, redirect: 'manual' });
  return { authorizeUrl, callbackUrl, status: done.status, page: await done.text() };
}

function popupResult(page: string): { ok: boolean; destinationId: string; error?: string } {
  const json = /postMessage\((\{.*?\}), "/.exec(page)?.[1];
  return JSON.parse(json!) as { ok: boolean; destinationId: string; error?: string };
}

const startBroadcast = async (projectId: string) =>
  ((await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations/start-broadcast`)).body as { destinations: PlatformPreparation[] }).destinations;

describe('Twitch', () => {
  it('authenticates in the popup, fetches the stream key and ingest, and sets the title before going live', async () => {
    const projectId = await newProject();
    const dest = await add(projectId, { type: 'Twitch', settings: { title: 'Speedrun night' } });
    expect(dest).toMatchObject({ authenticated: false, rtmpUrl: null, streamKeyMasked: null });

    const flow = await authenticate('twitch', projectId, dest.id);
    expect(flow.authorizeUrl.searchParams.get('client_id')).toBe(twitch.clientId);
    expect(flow.authorizeUrl.searchParams.get('redirect_uri')).toBe(`${api.url}/api/v1/destinations/auth/twitch/callback`);
    expect(flow.authorizeUrl.searchParams.get('scope')).toContain('channel:read:stream_key');
    // The events feed reads the channel's follows, subs, cheers and donations with the same login (issue 17).
    for (const scope of ['moderator:read:followers', 'channel:read:subscriptions', 'bits:read', 'channel:read:charity'])
      expect(flow.authorizeUrl.searchParams.get('scope')?.split(' ')).toContain(scope);
    expect(flow.status).toBe(200);
    expect(popupResult(flow.page)).toEqual({ source: 'onair-destination-auth', destinationId: dest.id, ok: true });
    expect(flow.page).toContain(`"${api.url}"`);
    expect(twitch.tokenRequests.at(-1)).toMatchObject({
      grant_type: 'authorization_code',
      redirect_uri: `${api.url}/api/v1/destinations/auth/twitch/callback`,
    });

    const after = await get(projectId, dest.id);
    expect(after).toMatchObject({
      authenticated: true,
      name: 'Ada',
      username: 'Ada',
      rtmpUrl: 'rtmp://live.twitch.tv/app',
      streamKeyMasked: '••••••••',
      dashboardUrl: 'https://dashboard.twitch.tv/u/ada',
      logo: TWITCH_USER.profile_image_url,
    });
    expect(twitch.calls.some((c) => c.path === '/helix/streams/key' && c.query.broadcaster_id === TWITCH_USER.id)).toBe(true);

    const prepared = await startBroadcast(projectId);
    expect(prepared).toEqual([{ destinationId: dest.id, ok: true, platformBroadcastId: null }]);
    expect(twitch.channelTitle).toBe('Speedrun night');
    const metadata = twitch.calls.filter((c) => c.method === 'PATCH' && c.path === '/helix/channels');
    expect(metadata).toEqual([expect.objectContaining({ query: { broadcaster_id: TWITCH_USER.id }, body: { title: 'Speedrun night' } })]);
  });

  it('refreshes an expired token and retries; a revoked account needs authentication again', async () => {
    const projectId = await newProject();
    const dest = await add(projectId, { type: 'Twitch', settings: { title: 'Refresh me' } });
    await authenticate('twitch', projectId, dest.id);
    twitch.expireAccessTokens();
    expect(await startBroadcast(projectId)).toEqual([{ destinationId: dest.id, ok: true, platformBroadcastId: null }]);
    expect(twitch.tokenRequests.at(-1)).toMatchObject({ grant_type: 'refresh_token', client_id: twitch.clientId });
    expect(twitch.channelTitle).toBe('Refresh me');

    const refreshed = await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations/${dest.id}/refresh-token`);
    expect(refreshed).toMatchObject({ status: 200, body: { destinationId: dest.id, authenticated: true } });
    expect(JSON.stringify(refreshed.body)).not.toContain('twitch-access');

    twitch.revokeAll();
    expect(await startBroadcast(projectId)).toEqual([
      { destinationId: dest.id, ok: false, platformBroadcastId: null, error: 'Your Twitch account requires authentication.' },
    ]);
    expect(await get(projectId, dest.id)).toMatchObject({ authenticated: false });
    expect((await call(api, host, 'GET', `/api/v1/projects/${projectId}/destinations/ensure-authentication`)).body).toEqual({
      statuses: [{ destinationId: dest.id, authenticated: false }],
    });

    await authenticate('twitch', projectId, dest.id);
    expect((await call(api, host, 'GET', `/api/v1/projects/${projectId}/destinations/ensure-authentication`)).body).toEqual({
      statuses: [{ destinationId: dest.id, authenticated: true }],
    });
  });

  it('refuses a cancelled consent, a replayed state and a callback in another account', async () => {
    const projectId = await newProject();
    const dest = await add(projectId, { type: 'Twitch', settings: { title: 'x' } });
    twitch.refuseConsent = true;
    const cancelled = await authenticate('twitch', projectId, dest.id);
    expect(cancelled.status).toBe(400);
    expect(popupResult(cancelled.page)).toMatchObject({ ok: false, error: 'You cancelled the connection at the platform.' });
    expect(await get(projectId, dest.id)).toMatchObject({ authenticated: false });

    const ok = await authenticate('twitch', projectId, dest.id);
    expect(ok.status).toBe(200);
    const replay = await fetch(ok.callbackUrl, { headers: { cookie: host.cookie } });
    expect(replay.status).toBe(400);

    const mallory = await createTestUser(api, { plan: 'Premium' });
    const start = await fetch(`${api.url}/api/v1/destinations/auth/twitch?projectId=${projectId}&destinationId=${dest.id}`, {
      headers: { cookie: mallory.cookie },
      redirect: 'manual',
    });
    expect(start.status).toBe(400); // not her project: no redirect to the platform
    const hostStart = await fetch(`${api.url}/api/v1/destinations/auth/twitch?projectId=${projectId}&destinationId=${dest.id}`, {
      headers: { cookie: host.cookie },
      redirect: 'manual',
    });
    const back = await fetch(hostStart.headers.get('location')!, { redirect: 'manual' });
    const stolen = await fetch(back.headers.get('location')!, { headers: { cookie: mallory.cookie } });
    expect(stolen.status).toBe(400);
  });
});

describe('YouTube', () => {
  it('creates a reusable stream on authentication, then a broadcast with title, description and privacy bound to it', async () => {
    const projectId = await newProject();
    const dest = await add(projectId, { type: 'YouTube', settings: { title: 'Building a synth', description: 'Live from the workshop', privacy: 'unlisted' } });
    const flow = await authenticate('youtube', projectId, dest.id);
    expect(flow.authorizeUrl.searchParams.get('access_type')).toBe('offline');
    expect(popupResult(flow.page).ok).toBe(true);
    expect(await get(projectId, dest.id)).toMatchObject({
      authenticated: true,
      name: YOUTUBE_CHANNEL.title,
      rtmpUrl: YOUTUBE_INGEST.ingestionAddress,
      streamKeyMasked: '••••••••',
    });
    expect(youtube.streams).toHaveLength(1);

    const [prepared] = await startBroadcast(projectId);
    expect(prepared).toMatchObject({ destinationId: dest.id, ok: true, platformBroadcastId: youtube.broadcasts[0]?.id });
    expect(youtube.broadcasts).toEqual([
      expect.objectContaining({
        snippet: expect.objectContaining({ title: 'Building a synth', description: 'Live from the workshop' }),
        status: expect.objectContaining({ privacyStatus: 'unlisted', lifeCycleStatus: 'ready' }),
        contentDetails: { boundStreamId: youtube.streams[0], enableAutoStart: true, enableAutoStop: true },
      }),
    ]);
    expect(youtube.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/youtube/v3/liveStreams',
      '/youtube/v3/liveBroadcasts',
      '/youtube/v3/liveBroadcasts/bind',
    ]);
  });
});

describe('Facebook', () => {
  it('lists Timeline, Pages, Groups and Events; goes live on a page with its own token and on a timeline with privacy', async () => {
    const projectId = await newProject();
    const onPage = await add(projectId, { type: 'Facebook', settings: { title: 'Page show', description: 'On the page' } });
    expect(popupResult((await authenticate('facebook', projectId, onPage.id)).page).ok).toBe(true);
    expect(await get(projectId, onPage.id)).toMatchObject({ authenticated: true, name: FACEBOOK_USER.name, rtmpUrl: null });

    const targets = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/destinations/${onPage.id}/stream-destinations`)).body as {
      targets: StreamDestinationOption[];
    };
    expect(targets.targets).toEqual([
      { id: FACEBOOK_USER.id, name: 'Timeline', type: 'timeline', disabled: false },
      { ...FACEBOOK_PAGE, type: 'page', disabled: false },
      { ...FACEBOOK_GROUP, type: 'group', disabled: false },
      { ...FACEBOOK_EVENT, type: 'event', disabled: false },
    ]);
    const page = { ...FACEBOOK_PAGE, type: 'page' };
    expect((await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/destinations/${onPage.id}`, { settings: { streamDestination: page } })).status).toBe(
      200,
    );

    // The target rule (spec §5): the page is taken; a second Facebook destination sees it disabled and cannot pick it.
    const onTimeline = await add(projectId, { type: 'Facebook', settings: { title: 'Timeline show', privacy: 'FRIENDS_OF_FRIENDS' } });
    await authenticate('facebook', projectId, onTimeline.id);
    const second = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/destinations/${onTimeline.id}/stream-destinations`)).body as {
      targets: StreamDestinationOption[];
    };
    expect(second.targets.filter((t) => t.disabled).map((t) => t.id)).toEqual([FACEBOOK_PAGE.id]);
    const taken = await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/destinations/${onTimeline.id}`, { settings: { streamDestination: page } });
    expect(taken).toMatchObject({ status: 409, body: { error: { code: 'STREAM_TARGET_IN_USE' } } });
    // …and the first one sees the second's timeline as taken.
    const first = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/destinations/${onPage.id}/stream-destinations`)).body as {
      targets: StreamDestinationOption[];
    };
    expect(first.targets.filter((t) => t.disabled).map((t) => t.id)).toEqual([FACEBOOK_USER.id]);

    const prepared = await startBroadcast(projectId);
    expect(prepared.map((p) => p.ok)).toEqual([true, true]);
    const byTarget = new Map(facebook.liveVideos.map((v) => [v.targetId, v]));
    expect(byTarget.get(FACEBOOK_PAGE.id)).toMatchObject({
      title: 'Page show',
      description: 'On the page',
      status: 'LIVE_NOW',
      privacy: null,
      token: facebook.pageToken,
    });
    expect(byTarget.get(FACEBOOK_USER.id)).toMatchObject({ title: 'Timeline show', status: 'LIVE_NOW', privacy: '{"value":"FRIENDS_OF_FRIENDS"}' });
    // The live video's RTMPS URL became the destination's ingest.
    expect(await get(projectId, onPage.id)).toMatchObject({ rtmpUrl: 'rtmps://live-api-s.facebook.com:443/rtmp', streamKeyMasked: '••••••••' });
  });
});

describe('secrets at rest and in logs', () => {
  it('holds no stream key and no token in clear text in the destinations table, nor in any log line', async () => {
    const projectId = await newProject();
    const tw = await add(projectId, { type: 'Twitch', settings: { title: 'Raw rows' } });
    await authenticate('twitch', projectId, tw.id);
    const yt = await add(projectId, { type: 'YouTube', settings: {} });
    await authenticate('youtube', projectId, yt.id);
    const fb = await add(projectId, { type: 'Facebook', settings: {} });
    await authenticate('facebook', projectId, fb.id);
    await startBroadcast(projectId);
    await add(projectId, { type: 'CustomRTMP', name: 'Raw', rtmpUrl: 'rtmp://93.184.216.34/live', streamKey: 'custom-secret-key-42' });

    const secrets = new Set<string>([TWITCH_STREAM_KEY, YOUTUBE_INGEST.streamName, 'custom-secret-key-42', ...facebook.liveVideos.map((v) => v.streamKey)]);
    for (const d of [twitch, youtube, facebook]) for (const c of d.calls) if (c.token) secrets.add(c.token);
    expect(secrets.size).toBeGreaterThan(6);

    const rows = await api.db.$queryRaw<Record<string, unknown>[]>`SELECT * FROM destinations WHERE project_id = ${projectId}::uuid`;
    expect(rows).toHaveLength(4);
    const raw = JSON.stringify(rows);
    for (const secret of secrets) expect(raw, 'a secret in clear text').not.toContain(secret);
    // …and yet the keys are there, sealed.
    for (const row of rows) expect(String(row.stream_key_enc)).toMatch(/^v1\./);
    expect(rows.filter((r) => r.access_token_enc !== null).every((r) => String(r.access_token_enc).startsWith('v1.'))).toBe(true);

    // The api did log these flows (requests, authentications)…
    expect(logLines.some((l) => l.includes('destination authenticated'))).toBe(true);
    expect(logLines.some((l) => l.includes('/destinations/auth/twitch/callback'))).toBe(true);
    // …and no line carries a key, a token or an OAuth code.
    const log = logLines.join('\n');
    for (const secret of secrets) expect(log, 'a secret in a log line').not.toContain(secret);
    expect(log).not.toMatch(/[?&]code=/);
  });
});

describe('Go Live and End Broadcast', () => {
  /** What the session placement holds for the media worker: the outputs, sealed with SECRETS_KEY. */
  async function sessionOutputs(projectId: string): Promise<{ id: string; url: string; key?: string }[]> {
    const sealed = await api.redis.get(sessionKeys.outputs(projectId));
    return JSON.parse(new SecretBox(secretsKey).open(sealed!, `session:${projectId}`)) as { id: string; url: string; key?: string }[];
  }

  it('prepares the platforms, hands every enabled destination to the session, follows toggles while live, and stops all', async () => {
    const projectId = await newProject();
    const tw = await add(projectId, { type: 'Twitch', settings: { title: 'Going live' } });
    await authenticate('twitch', projectId, tw.id);
    const custom = await add(projectId, { type: 'CustomRTMP', name: 'Backup', rtmpUrl: 'rtmp://93.184.216.34/live', streamKey: 'backup-key' });
    const off = await add(projectId, { type: 'CustomRTMP', name: 'Off', rtmpUrl: 'rtmp://93.184.216.35/live', streamKey: 'off-key' });
    await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/destinations/${off.id}`, { enabled: false });
    const metadataCalls = twitch.calls.filter((c) => c.method === 'PATCH').length;
    try {
      const live = await call(api, host, 'POST', `/api/v1/projects/${projectId}/broadcast`);
      expect(live).toMatchObject({ status: 201, body: { projectId, state: 'live', failureReason: null } });
      const body = live.body as { startedAt: string; endsAt: string };
      // Premium: 48 hours.
      expect(Date.parse(body.endsAt) - Date.parse(body.startedAt)).toBe(48 * 3600 * 1000);
      expect(twitch.calls.filter((c) => c.method === 'PATCH').length).toBe(metadataCalls + 1);
      expect(await sessionOutputs(projectId)).toEqual([
        // Neither may reach a private address: the worker checks again before connecting.
        // Each on the canvas its destination takes (horizontal by default for Twitch and custom RTMP).
        // The Twitch key came from Twitch through OnAir (a refusal must not tell the creator to check it); the custom one was typed.
        { id: tw.id, url: 'rtmp://live.twitch.tv/app', key: TWITCH_STREAM_KEY, allowPrivate: false, canvas: 'horizontal', keySetByOnAir: true },
        { id: custom.id, url: 'rtmp://93.184.216.34/live', key: 'backup-key', allowPrivate: false, canvas: 'horizontal', keySetByOnAir: false },
      ]);
      expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/broadcast`)).body).toMatchObject({
        error: { code: 'CONFLICT', message: 'This project is already live.' },
      });

      // Toggled while live: only that output changes.
      await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/destinations/${custom.id}`, { enabled: false });
      expect((await sessionOutputs(projectId)).map((o) => o.id)).toEqual([tw.id]);
      await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/destinations/${off.id}`, { enabled: true });
      expect((await sessionOutputs(projectId)).map((o) => o.id)).toEqual([tw.id, off.id]);

      const ended = await call(api, host, 'POST', `/api/v1/projects/${projectId}/broadcast/end`);
      expect(ended).toMatchObject({ status: 200, body: { state: 'ended', endedAt: expect.any(String) } });
      expect(await sessionOutputs(projectId)).toEqual([]);
      expect((await call(api, host, 'GET', `/api/v1/projects/${projectId}/broadcast`)).body).toMatchObject({ broadcast: { state: 'ended' } });
      expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/broadcast/end`)).status).toBe(409);
    } finally {
      await call(api, host, 'DELETE', `/api/v1/projects/${projectId}/session`);
    }
  });

  it('fails the broadcast, with the reason, when no enabled destination can receive the stream', async () => {
    const projectId = await newProject();
    await add(projectId, { type: 'YouTube', settings: {} });
    const res = await call(api, host, 'POST', `/api/v1/projects/${projectId}/broadcast`);
    expect(res).toMatchObject({ status: 400, body: { error: { message: 'Your YouTube account requires authentication.' } } });
    expect((await call(api, host, 'GET', `/api/v1/projects/${projectId}/broadcast`)).body).toMatchObject({
      broadcast: { state: 'failed', failureReason: 'Your YouTube account requires authentication.' },
    });
    expect(await api.redis.get(sessionKeys.outputs(projectId))).toBeNull();
  });
});
