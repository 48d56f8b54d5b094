import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { waitFor } from '@onair/embedded';
import type { AudienceActResult, DestinationList, DestinationPicker, DestinationView, PlatformPreparation, TestModeStatus } from '@onair/protocol';
import { redactedPaths, SecretBox } from '@onair/runtime';
import { startPlatformTestMode, type RunningPlatformTestMode } from '../../embedded/src/platform-test-mode.ts';
import { controlDouble } from '../../embedded/src/chat-doubles/double-http.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

// The platforms' test mode of the one-machine stack (issue 39): the api's own platform code
// connects Twitch, YouTube and Facebook through the doubles' consent pages over real sockets, the
// ingest is the local RTMP server, and the control panel's audience reaches the doubles. The
// doubles are the ones `./onair start` runs (embedded/src/platform-test-mode.ts).

const LOCAL_RTMP = 'rtmp://127.0.0.1:19999/live';

let api: StudioApi;
let plain: StudioApi;
let doubles: RunningPlatformTestMode;
let host: TestUser;
const logLines: string[] = [];

beforeAll(async () => {
  doubles = await startPlatformTestMode({
    platforms: ['twitch', 'youtube', 'facebook'],
    redirectOrigins: [],
    ingest: { rtmpUrl: LOCAL_RTMP },
  });
  const logger = pino({ level: 'trace', redact: { paths: redactedPaths, censor: '[redacted]' } }, { write: (line: string) => void logLines.push(line) });
  // No live broadcast here: the connectors stay idle (the e2e flow goes live).
  api = await startStudioApi({
    env: { SECRETS_KEY: SecretBox.generateKey(), LOCAL_RTMP_URL: LOCAL_RTMP, ...doubles.env },
    logger,
  });
  doubles.allowRedirectOrigin(api.url);
  plain = await startStudioApi({ env: { SECRETS_KEY: SecretBox.generateKey() } });
  host = await createTestUser(api, { plan: 'Premium' });
});
afterAll(async () => {
  await api?.close();
  await plain?.close();
  await doubles?.close();
});

async function newProject(user: TestUser = host, on: StudioApi = api): Promise<string> {
  return ((await call(on, user, 'POST', '/api/v1/projects', { name: 'Test-mode show' })).body as { id: string }).id;
}

async function add(projectId: string, body: object): Promise<DestinationView> {
  const res = await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as DestinationView;
}

async function get(projectId: string, id: string): Promise<DestinationView> {
  const list = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/destinations`)).body as DestinationList;
  return list.destinations.find((d) => d.id === id)!;
}

/** The hidden fields of the consent page's form, as the browser would post them. */
function formOf(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of page.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g))
    fields[m[1]!] = m[2]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
  return fields;
}

/** The popup as the browser runs it: OnAir → the double's consent page → Authorize (or Cancel) → OnAir's callback. */
async function connect(provider: 'twitch' | 'youtube' | 'facebook', projectId: string, destinationId: string, decision: 'allow' | 'deny', name: string) {
  const start = await fetch(`${api.url}/api/v1/destinations/auth/${provider}?projectId=${projectId}&destinationId=${destinationId}`, {
    headers: { cookie: host.cookie },
    redirect: 'manual',
  });
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get('location')!);
  const consent = await fetch(authorize);
  const page = await consent.text();
  expect(consent.status, page).toBe(200);
  const answer = await fetch(new URL(authorize.pathname, authorize.origin), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...formOf(page), name, decision }).toString(),
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  const done = await fetch(answer.headers.get('location')!, { headers: { cookie: host.cookie }, redirect: 'manual' });
  return { page, authorize, popup: await done.text(), status: done.status };
}

const act = (projectId: string, destinationId: string, body: object, user: TestUser = host) =>
  call(api, user, 'POST', `/api/v1/projects/${projectId}/test-mode/audience`, { destinationId, act: body });

describe('platforms in test mode', () => {
  it('offers Twitch, YouTube and Facebook as test mode, but not for signing in to OnAir', async () => {
    expect((await call(api, host, 'GET', '/api/v1/test-mode')).body).toEqual({ platforms: ['twitch', 'youtube', 'facebook'] } satisfies TestModeStatus);
    const projectId = await newProject();
    const picker = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/destinations/picker`)).body as DestinationPicker;
    const tile = (type: string) => picker.tiles.find((t) => t.type === type)!;
    for (const type of ['Twitch', 'YouTube', 'Facebook']) expect(tile(type)).toMatchObject({ available: true, testMode: true });
    expect(tile('CustomRTMP')).toMatchObject({ testMode: false });
    // Anyone can be anyone on a consent page of a double: it is no way into an OnAir account.
    const methods = (await call(api, null, 'GET', '/api/v1/auth/methods')).body as { oauth: { id: string }[] };
    expect(methods.oauth).toEqual([]);
  });

  it('a server with real platforms (or none) has no test mode and no audience panel', async () => {
    const user = await createTestUser(plain, { plan: 'Premium' });
    expect((await call(plain, user, 'GET', '/api/v1/test-mode')).body).toEqual({ platforms: [] });
    const projectId = await newProject(user, plain);
    const res = await call(plain, user, 'POST', `/api/v1/projects/${projectId}/test-mode/audience`, {
      destinationId: crypto.randomUUID(),
      act: { kind: 'follow', viewer: 'someone' },
    });
    expect(res).toMatchObject({ status: 404, body: { error: { code: 'TEST_MODE_OFF' } } });
  });

  it('connects Twitch through the consent page: the account, a stream key on the local RTMP server, the title before going live', async () => {
    const projectId = await newProject();
    const dest = await add(projectId, { type: 'Twitch', settings: { title: 'Test-mode speedrun' } });
    const flow = await connect('twitch', projectId, dest.id, 'allow', 'Ada_Test');
    expect(flow.page).toContain('Test mode — no real Twitch account');
    expect(flow.authorize.searchParams.get('client_id')).toBe('onair-test-mode-twitch');
    expect(flow.status).toBe(200);
    expect(flow.popup).toContain('"ok":true');
    const after = await get(projectId, dest.id);
    expect(after).toMatchObject({ authenticated: true, name: 'Ada_Test', username: 'Ada_Test', rtmpUrl: LOCAL_RTMP, streamKeyMasked: '••••••••' });

    const prepared = (
      (await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations/start-broadcast`)).body as { destinations: PlatformPreparation[] }
    ).destinations;
    expect(prepared).toEqual([{ destinationId: dest.id, ok: true, platformBroadcastId: null }]);
    expect(Object.values(await controlDouble<Record<string, string>>(doubles.twitch!.events.url, 'titles'))).toContain('Test-mode speedrun');

    // The access and refresh tokens the double handed out are sealed, never logged.
    const row = await api.db.destination.findUniqueOrThrow({ where: { id: dest.id } });
    const tokens = [...doubles.twitch!.events.tokens.access, ...doubles.twitch!.events.tokens.refresh];
    expect(tokens.length).toBeGreaterThan(0);
    for (const t of tokens) {
      expect(row.accessTokenEnc).not.toContain(t);
      expect(logLines.join('\n')).not.toContain(t);
    }
  });

  it('a cancelled consent leaves the destination needing authentication', async () => {
    const projectId = await newProject();
    const dest = await add(projectId, { type: 'Twitch', settings: { title: 'x' } });
    const flow = await connect('twitch', projectId, dest.id, 'deny', 'whoever');
    expect(flow.status).toBe(400);
    expect(flow.popup).toContain('You cancelled the connection at the platform.');
    expect(await get(projectId, dest.id)).toMatchObject({ authenticated: false });
  });

  it('refuses an unregistered redirect address and an unknown client, as a platform does', async () => {
    const twitch = doubles.twitch!.events.url;
    const elsewhere = await fetch(
      `${twitch}/oauth2/authorize?client_id=onair-test-mode-twitch&response_type=code&redirect_uri=${encodeURIComponent('http://evil.example/cb')}&state=s`,
    );
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain('is not registered');
    const stranger = await fetch(`${twitch}/oauth2/authorize?client_id=someone-else&response_type=code&redirect_uri=${encodeURIComponent(`${api.url}/cb`)}`);
    expect(stranger.status).toBe(400);
  });

  it('connects YouTube and Facebook: ingest on the local RTMP server, broadcasts with their metadata', async () => {
    const projectId = await newProject();
    const yt = await add(projectId, { type: 'YouTube', settings: { title: 'YT test', description: 'A test broadcast', privacy: 'unlisted' } });
    const fb = await add(projectId, { type: 'Facebook', settings: { title: 'FB test', description: 'On my timeline' } });
    expect((await connect('youtube', projectId, yt.id, 'allow', 'Ada Tube')).page).toContain('Test mode — no real YouTube account');
    expect((await connect('facebook', projectId, fb.id, 'allow', 'Ada Book')).page).toContain('Test mode — no real Facebook account');
    expect(await get(projectId, yt.id)).toMatchObject({ authenticated: true, name: 'Ada Tube', rtmpUrl: LOCAL_RTMP });
    expect(await get(projectId, fb.id)).toMatchObject({ authenticated: true, name: 'Ada Book' });

    const prepared = (
      (await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations/start-broadcast`)).body as { destinations: PlatformPreparation[] }
    ).destinations;
    expect(prepared.map((p) => p.ok)).toEqual([true, true]);
    expect(doubles.youtube!.chat.broadcasts.at(-1)).toMatchObject({ title: 'YT test', description: 'A test broadcast', privacyStatus: 'unlisted' });
    expect(doubles.facebook!.chat.liveVideos.at(-1)).toMatchObject({ title: 'FB test', description: 'On my timeline' });
    expect(await get(projectId, fb.id)).toMatchObject({ rtmpUrl: LOCAL_RTMP, streamKeyMasked: '••••••••' });

    // Live now on both doubles: a Super Chat and a comment reach them.
    const superChat = await act(projectId, yt.id, { kind: 'superChat', viewer: 'Big Fan', message: 'Keep going!', amount: 5, currency: 'USD' });
    expect(superChat).toMatchObject({ status: 200, body: { received: true, note: null } satisfies AudienceActResult });
    expect(doubles.youtube!.chat.items.at(-1)).toMatchObject({
      snippet: { type: 'superChatEvent', superChatDetails: { amountMicros: 5_000_000, currency: 'USD', userComment: 'Keep going!' } },
      authorDetails: { displayName: 'Big Fan' },
    });
    const comment = await act(projectId, fb.id, { kind: 'chat', viewer: 'FB Friend', text: 'Hello from Facebook' });
    expect(comment.status).toBe(200);
    expect(doubles.facebook!.chat.comments.at(-1)).toMatchObject({ message: 'Hello from Facebook', from: { name: 'FB Friend' } });
  });
});

describe('two test-mode channels at once', () => {
  it("each YouTube and Facebook channel has its own live chat and stream key; the audience panel reaches that channel's only", async () => {
    const channels = [];
    for (const name of ['Cleo Tube', 'Dan Tube']) {
      const projectId = await newProject();
      const yt = await add(projectId, { type: 'YouTube', settings: { title: `${name} live` } });
      const fb = await add(projectId, { type: 'Facebook', settings: { title: `${name} live` } });
      await connect('youtube', projectId, yt.id, 'allow', name);
      await connect('facebook', projectId, fb.id, 'allow', `${name} Book`);
      const prepared = (
        (await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations/start-broadcast`)).body as { destinations: PlatformPreparation[] }
      ).destinations;
      expect(prepared.map((p) => p.ok)).toEqual([true, true]);
      const [ytRow, fbRow] = await Promise.all([yt.id, fb.id].map((id) => api.db.destination.findUniqueOrThrow({ where: { id } })));
      channels.push({
        projectId,
        yt: yt.id,
        fb: fb.id,
        ytChannel: ytRow!.platformAccountId!,
        fbAccount: fbRow!.platformAccountId!,
        ytKey: ytRow!.streamKeyEnc,
      });
    }
    const [cleo, dan] = channels as [(typeof channels)[number], (typeof channels)[number]];
    const youtube = doubles.youtube!.chat;
    const facebook = doubles.facebook!.chat;
    // Each channel's own key (sealed differently anyway: compare what the double handed out).
    expect(doubles.streamKeys.youtube!.keyOf(cleo.ytChannel)).not.toBe(doubles.streamKeys.youtube!.keyOf(dan.ytChannel));
    expect(doubles.streamKeys.facebook!.keyOf(cleo.fbAccount)).not.toBe(doubles.streamKeys.facebook!.keyOf(dan.fbAccount));
    const cleoChat = youtube.chatOfChannel(cleo.ytChannel)!;
    const danChat = youtube.chatOfChannel(dan.ytChannel)!;
    expect(cleoChat.id).not.toBe(danChat.id);

    // Cleo's viewer writes on YouTube and Facebook while Dan is live too: only Cleo's chat and video get it.
    expect((await act(cleo.projectId, cleo.yt, { kind: 'chat', viewer: 'Cleo Fan', text: 'Hi Cleo' })).status).toBe(200);
    expect(youtube.items.at(-1)).toMatchObject({ snippet: { liveChatId: cleoChat.id, displayMessage: 'Hi Cleo' } });
    expect((await act(dan.projectId, dan.yt, { kind: 'superChat', viewer: 'Dan Fan', message: 'Go Dan', amount: 2, currency: 'USD' })).status).toBe(200);
    expect(youtube.items.at(-1)).toMatchObject({ snippet: { liveChatId: danChat.id, type: 'superChatEvent' } });
    expect((await act(cleo.projectId, cleo.fb, { kind: 'chat', viewer: 'FB Cleo Fan', text: 'Hi from FB' })).status).toBe(200);
    expect(facebook.comments.at(-1)!.id.startsWith(`${facebook.videoOfOwner(cleo.fbAccount)}_`)).toBe(true);
    expect(facebook.videoOfOwner(cleo.fbAccount)).not.toBe(facebook.videoOfOwner(dan.fbAccount));
  });
});

describe('the audience panel', () => {
  let projectId: string;
  let twitch: DestinationView;
  beforeAll(async () => {
    projectId = await newProject();
    twitch = await add(projectId, { type: 'Twitch', settings: { title: 'Audience' } });
    await connect('twitch', projectId, twitch.id, 'allow', 'audience_host');
  });

  it('sends a follow, a sub, a raid, a cheer and a chat message to the channel, and says when OnAir is not reading it', async () => {
    // Not live: the linked channel's events are read all the same (issue 39 item 5a), once its
    // connector has subscribed; its chat is read only while live, and the panel says so rather than pretending.
    await waitFor(
      'the events connector of the linked channel',
      async () => {
        const res = await act(projectId, twitch.id, { kind: 'follow', viewer: 'first_fan' });
        return (res.body as { received?: boolean }).received === true ? true : undefined;
      },
      20_000,
      250,
    );
    for (const a of [
      { kind: 'follow', viewer: 'new_fan' },
      { kind: 'sub', viewer: 'new_fan', message: 'Three months!', months: 3 },
      { kind: 'raid', viewer: 'Friendly Streamer', viewers: 25 },
      { kind: 'cheer', viewer: 'new_fan', message: 'Cheer100 go', bits: 100 },
    ]) {
      const res = await act(projectId, twitch.id, a);
      expect(res, JSON.stringify(res.body)).toMatchObject({ status: 200, body: { received: true, note: null } });
    }
    const chat = await act(projectId, twitch.id, { kind: 'chat', viewer: 'new_fan', text: 'hello' });
    expect(chat, JSON.stringify(chat.body)).toMatchObject({
      status: 200,
      body: { received: false, note: expect.stringContaining('its chat reaches the studio while the broadcast is live') },
    });
  });

  it('refuses what the platform has not, an unconnected destination, a real platform and an unknown destination', async () => {
    expect(await act(projectId, twitch.id, { kind: 'superChat', viewer: 'x', message: '', amount: 5, currency: 'USD' })).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_FAILED' } },
    });
    expect(await act(projectId, twitch.id, { kind: 'follow', viewer: '<script>' })).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_FAILED' } },
    });
    const unconnected = await add(projectId, { type: 'Twitch', settings: { title: 'Not yet' } });
    expect(await act(projectId, unconnected.id, { kind: 'follow', viewer: 'x' })).toMatchObject({
      status: 409,
      body: { error: { code: 'DESTINATION_AUTH_REQUIRED' } },
    });
    const rtmp = await add(projectId, { type: 'CustomRTMP', name: 'My server', rtmpUrl: 'rtmp://93.184.216.34/live', streamKey: 'k' });
    expect(await act(projectId, rtmp.id, { kind: 'chat', viewer: 'x', text: 'hi' })).toMatchObject({ status: 404, body: { error: { code: 'TEST_MODE_OFF' } } });
    const other = await newProject();
    expect(await act(other, twitch.id, { kind: 'follow', viewer: 'x' })).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    // YouTube not live yet: there is no live chat to write in.
    const yt = await add(projectId, { type: 'YouTube', settings: { title: 'Later' } });
    await connect('youtube', projectId, yt.id, 'allow', 'Later Tube');
    await controlDouble(doubles.youtube!.chat.url, 'end');
    expect(await act(projectId, yt.id, { kind: 'chat', viewer: 'x', text: 'hi' })).toMatchObject({
      status: 409,
      body: { error: { code: 'TEST_MODE_NOT_LIVE' } },
    });
  });

  it('is for those who run the broadcast: not a viewer or contributor of the project, not a stranger, not signed out', async () => {
    const stranger = await createTestUser(api);
    // A stranger is not told the project exists.
    expect((await act(projectId, twitch.id, { kind: 'follow', viewer: 'x' }, stranger)).status).toBe(404);
    for (const role of ['viewer', 'contributor'] as const) {
      const member = await createTestUser(api);
      await api.db.projectMember.create({ data: { projectId, userId: member.id, role } });
      expect((await act(projectId, twitch.id, { kind: 'follow', viewer: 'x' }, member)).status).toBe(403);
    }
    const cohost = await createTestUser(api);
    await api.db.projectMember.create({ data: { projectId, userId: cohost.id, role: 'cohost' } });
    expect((await act(projectId, twitch.id, { kind: 'follow', viewer: 'x' }, cohost)).status).toBe(200);
    expect(
      (await call(api, null, 'POST', `/api/v1/projects/${projectId}/test-mode/audience`, { destinationId: twitch.id, act: { kind: 'follow', viewer: 'x' } }))
        .status,
    ).toBe(401);
    expect((await call(api, null, 'GET', '/api/v1/test-mode')).status).toBe(401);
  });
});
