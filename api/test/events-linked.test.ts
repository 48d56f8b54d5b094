/**
 * Issue 39 item 5: the events feed of a linked Twitch channel runs whether or not the project is
 * live, even with its Twitch destination switched off (one owner elected through the lease), and a
 * channel that takes OnAir's access back shows as 'needs sign-in' in the studio: on the
 * destination row (needsSignIn) and in the chat's state, with the words to fix it. The EventSub
 * double over its real WebSocket, Helix and token endpoint; real PostgreSQL and Redis.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventSubDoubleEnv, startEventSubDouble, waitFor, type EventSubDouble } from '@onair/embedded';
import { SecretBox } from '@onair/runtime';
import { chatNeedsSignInText, type DestinationView, type LiveEvent } from '@onair/protocol';
import { CHAT_SECRETS_KEY, FAST_CHAT_ENV, StudioChatSocket } from './helpers/chat.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let double: EventSubDouble;
let api: StudioApi;
let host: TestUser;

interface Linked {
  projectId: string;
  destinationId: string;
  broadcaster: string;
  studio: StudioChatSocket;
}
let off: Linked;
let on: Linked;

async function link(name: string, broadcaster: string, enabled: boolean): Promise<Linked> {
  const project = await api.db.project.create({ data: { ownerId: host.id, name } });
  const destinationId = randomUUID();
  const box = new SecretBox(CHAT_SECRETS_KEY);
  const token = double.issueToken();
  await api.db.destination.create({
    data: {
      id: destinationId,
      projectId: project.id,
      type: 'Twitch',
      providerId: 'twitchtv',
      name: `Twitch of ${name}`,
      username: name.toLowerCase(),
      enabled,
      platformAccountId: broadcaster,
      accessTokenEnc: box.seal(token.accessToken, `${destinationId}:accessToken`),
      refreshTokenEnc: box.seal(token.refreshToken, `${destinationId}:refreshToken`),
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  return { projectId: project.id, destinationId, broadcaster, studio: await StudioChatSocket.open(api.wsUrl, host.cookie, project.id) };
}

const follow = (broadcasterId: string, id: string, name: string) => ({
  type: 'channel.follow',
  broadcasterId,
  event: { user_id: id, user_login: name.toLowerCase(), user_name: name, followed_at: new Date().toISOString() },
});

function eventsOf(l: Linked): LiveEvent[] {
  return l.studio.received.flatMap((m) => (m.type === 'events.new' ? m.events : []));
}

async function connected(l: Linked): Promise<void> {
  await waitFor(
    'the events connector connected',
    async () => ((await api.redis.get(`onair:events:state:${l.destinationId}`))?.includes('"connected"') ? true : undefined),
    20_000,
    20,
  );
}

async function destination(l: Linked): Promise<DestinationView> {
  const res = await call(api, host, 'GET', `/api/v1/projects/${l.projectId}/destinations`);
  expect(res.status).toBe(200);
  return (res.body as { destinations: DestinationView[] }).destinations.find((d) => d.id === l.destinationId)!;
}

beforeAll(async () => {
  double = await startEventSubDouble();
  api = await startStudioApi({
    env: {
      ...FAST_CHAT_ENV,
      ...eventSubDoubleEnv(double),
      CHAT_CONNECTORS: 'false',
      TWITCH_CLIENT_ID: 'eventsub-double-client',
      TWITCH_CLIENT_SECRET: 'eventsub-double-secret',
      TWITCH_TOKEN_URL: `${double.url}/oauth2/token`,
      TWITCH_EMOTE_URL: 'https://emotes.example/v2',
      EVENTSUB_KEEPALIVE_SECONDS: '1',
      EVENTSUB_KEEPALIVE_GRACE_MS: '500',
      EVENTSUB_RECONNECT_MAX_MS: '500',
    },
  });
  host = await createTestUser(api, { plan: 'Premium' });
  // Neither project has a broadcast: nothing is live.
  off = await link('Offstage', '5151', false);
  on = await link('Between', '5252', true);
});

afterAll(async () => {
  off?.studio.close();
  on?.studio.close();
  await api?.close();
  await double?.close();
});

describe('events of a linked channel, live or not', () => {
  it('reads a channel linked by a switched-off Twitch destination with no broadcast: the follow reaches the studio, the feed and the alerts', async () => {
    expect(await api.db.broadcast.count({ where: { projectId: { in: [off.projectId, on.projectId] } } })).toBe(0);
    await connected(off);
    await connected(on);
    // Each channel's subscriptions name its own broadcaster.
    const conditions = [...double.subscriptions.values()].map((s) => s.condition.broadcaster_user_id ?? s.condition.to_broadcaster_user_id);
    expect(new Set(conditions)).toEqual(new Set(['5151', '5252']));
    double.emit(follow('5151', '9001', 'Between_Streams'));
    const event = await waitFor('the follow on the studio socket', async () => eventsOf(off).find((e) => e.platformUsername === 'Between_Streams'), 10_000, 20);
    expect(event).toMatchObject({ type: 'follow', platform: 'twitch', projectId: off.projectId });
    // Only the project whose channel it is.
    expect(eventsOf(on)).toHaveLength(0);
    const feed = await call(api, host, 'GET', `/api/v1/projects/${off.projectId}/events`);
    expect(feed.status).toBe(200);
    expect((feed.body as { events: LiveEvent[] }).events.map((e) => e.platformUsername)).toEqual(['Between_Streams']);
  });

  it('runs one connector per channel and project, owned through its lease', async () => {
    const owner = await api.redis.get(`onair:events:owner:${off.destinationId}`);
    expect(owner).toBeTruthy();
    expect(await api.redis.get(`onair:events:owner:${on.destinationId}`)).toBe(owner);
    // A second Twitch destination of the same project linking the same channel adds no connector.
    const twin = randomUUID();
    const box = new SecretBox(CHAT_SECRETS_KEY);
    await api.db.destination.create({
      data: {
        id: twin,
        projectId: off.projectId,
        type: 'Twitch',
        providerId: 'twitchtv',
        name: 'Twin',
        enabled: false,
        platformAccountId: off.broadcaster,
        accessTokenEnc: box.seal(double.issueToken().accessToken, `${twin}:accessToken`),
        tokenExpiresAt: new Date(Date.now() + 3_600_000),
        createdAt: new Date(Date.now() + 60_000),
      },
    });
    // A channel linked after the twin connects: the round that read both has passed.
    const later = await link('Later', '5353', false);
    await connected(later);
    expect(await api.redis.get(`onair:events:owner:${twin}`)).toBeNull();
    later.studio.close();
    await api.db.destination.deleteMany({ where: { id: { in: [twin, later.destinationId] } } });
    await waitFor(
      'the later channel released',
      async () => ((await api.redis.get(`onair:events:owner:${later.destinationId}`)) ? undefined : true),
      10_000,
      20,
    );
  });
});

describe('connector state in the studio', () => {
  it('a channel that takes OnAir’s access back shows as needs sign-in on the destination row and in the chat, with the words to fix it; the connector stops', async () => {
    expect(await destination(on)).toMatchObject({ authenticated: true, needsSignIn: false });
    // Twitch › Connections › Disconnect: the tokens stop working and every subscription is revoked.
    expect(double.revokeAuthorization()).toBeGreaterThan(0);
    const changed = await on.studio.waitFor(
      (m) => m.type === 'destination.event' && m.destinationId === on.destinationId && m.destination?.needsSignIn === true,
      20_000,
    );
    expect(changed).toMatchObject({ event: 'Changed', destination: { authenticated: false, needsSignIn: true } });
    expect(await destination(on)).toMatchObject({ authenticated: false, needsSignIn: true });
    expect(await destination(off)).toMatchObject({ authenticated: false, needsSignIn: true });
    // The chat of the enabled destination says so, live or not, in words that say what to do.
    const before = on.studio.received.length;
    on.studio.send({ type: 'chat.history.request', projectId: on.projectId });
    await on.studio.waitFor((m) => m.type === 'chat.history' && on.studio.received.indexOf(m) >= before);
    expect(on.studio.stateOf(on.destinationId)).toMatchObject({ state: 'needsSignIn', error: chatNeedsSignInText('Twitch'), canSend: false });
    // Without tokens no connector runs for the channel: its lease and state are given back.
    for (const l of [on, off])
      await waitFor(
        'the connector stopped',
        async () => {
          const [owner, state] = await api.redis.mget(`onair:events:owner:${l.destinationId}`, `onair:events:state:${l.destinationId}`);
          return owner === null && state === null ? true : undefined;
        },
        10_000,
        20,
      );
  });

  it('a destination never connected asks to Authenticate, not to sign in again', async () => {
    const fresh = await call(api, host, 'POST', `/api/v1/projects/${on.projectId}/destinations`, { type: 'Twitch', settings: { title: 'Fresh' } });
    expect(fresh.status).toBe(201);
    expect(fresh.body).toMatchObject({ authenticated: false, needsSignIn: false });
  });
});
