/**
 * Events feed (issue 17) on the server: the EventSub connector over a real WebSocket to the
 * EventSub double, its Helix subscriptions, the store (deduplicated by platform id), the get-feed
 * endpoint and live delivery over the api's /ws. Real PostgreSQL and Redis.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventSubDoubleEnv, startEventSubDouble, waitFor, type EventSubDouble } from '@onair/embedded';
import { SecretBox } from '@onair/runtime';
import { alertPlaySchema, DEFAULT_ALERT_SETTINGS, type AlertPlay, type AlertSettings, type LiveEvent } from '@onair/protocol';
import { CHAT_SECRETS_KEY, FAST_CHAT_ENV, StudioChatSocket } from './helpers/chat.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

const BROADCASTER = '4242';
const ALL_TYPES = [
  'channel.follow',
  'channel.subscribe',
  'channel.subscription.message',
  'channel.subscription.gift',
  'channel.raid',
  'channel.cheer',
  'channel.charity_campaign.donate',
];

let double: EventSubDouble;
let api: StudioApi;
let host: TestUser;
let projectId: string;
let destinationId: string;
let studio: StudioChatSocket;

function received(): LiveEvent[] {
  return studio.received.flatMap((m) => (m.type === 'events.new' ? m.events : []));
}

async function waitForEvent(match: (e: LiveEvent) => boolean, timeoutMs = 10_000): Promise<LiveEvent> {
  return waitFor('an event on the studio socket', async () => received().find(match), timeoutMs, 20);
}

/** The double's subscriptions of the connector's current session, once all seven exist. */
async function subscribed(notSession?: string): Promise<string> {
  return waitFor(
    'the seven subscriptions of a session',
    async () => {
      const subs = [...double.subscriptions.values()];
      const session = subs[0]?.sessionId;
      if (!session || session === notSession || subs.length !== ALL_TYPES.length || subs.some((s) => s.sessionId !== session)) return undefined;
      return session;
    },
    15_000,
    20,
  );
}

/** The connector has created (and recorded) its subscriptions: its state says connected. */
async function connected(): Promise<void> {
  await waitFor(
    'the events connector connected',
    async () => ((await api.redis.get(`onair:events:state:${destinationId}`))?.includes('"connected"') ? true : undefined),
    15_000,
    20,
  );
}

const follow = (id: string, name: string) => ({
  type: 'channel.follow',
  broadcasterId: BROADCASTER,
  event: { user_id: id, user_login: name.toLowerCase(), user_name: name, followed_at: new Date().toISOString() },
});

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
  const project = await api.db.project.create({ data: { ownerId: host.id, name: 'Events' } });
  projectId = project.id;
  destinationId = randomUUID();
  const box = new SecretBox(CHAT_SECRETS_KEY);
  const token = double.issueToken();
  await api.db.destination.create({
    data: {
      id: destinationId,
      projectId,
      type: 'Twitch',
      providerId: 'twitchtv',
      name: 'Twitch of Ada',
      username: 'ada',
      platformAccountId: BROADCASTER,
      accessTokenEnc: box.seal(token.accessToken, `${destinationId}:accessToken`),
      refreshTokenEnc: box.seal(token.refreshToken, `${destinationId}:refreshToken`),
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  await api.db.broadcast.create({ data: { projectId, state: 'live', startedAt: new Date() } });
  studio = await StudioChatSocket.open(api.wsUrl, host.cookie, projectId);
});

afterAll(async () => {
  studio?.close();
  await api?.close();
  await double?.close();
});

describe('EventSub session', () => {
  it('creates the feed’s seven subscriptions on the welcomed session, with the client id, the channel’s token and the keepalive asked for', async () => {
    const session = await subscribed();
    await connected();
    const subs = [...double.subscriptions.values()];
    expect(subs.map((s) => s.type).sort()).toEqual([...ALL_TYPES].sort());
    expect(subs.find((s) => s.type === 'channel.follow')!.condition).toEqual({ broadcaster_user_id: BROADCASTER, moderator_user_id: BROADCASTER });
    expect(subs.find((s) => s.type === 'channel.raid')!.condition).toEqual({ to_broadcaster_user_id: BROADCASTER });
    expect(subs.every((s) => s.sessionId === session && double.access.has(s.token))).toBe(true);
    const posts = double.calls.filter((c) => c.method === 'POST' && c.path === '/helix/eventsub/subscriptions');
    expect(posts).toHaveLength(ALL_TYPES.length);
  });

  it('brings follow, sub, resub, gift, raid, cheer and charity to the studio socket, normalised, in order, with avatars', async () => {
    const steps = [
      follow('101', 'Follower_One'),
      {
        type: 'channel.subscribe',
        broadcasterId: BROADCASTER,
        event: { user_id: '102', user_login: 'subber', user_name: 'Subber', tier: '1000', is_gift: false },
      },
      {
        type: 'channel.subscription.message',
        broadcasterId: BROADCASTER,
        event: {
          user_id: '103',
          user_login: 'resubber',
          user_name: 'Resubber',
          tier: '2000',
          message: {
            text: 'Kappa 7 months PogChamp',
            emotes: [
              { begin: 0, end: 4, id: '25' },
              { begin: 15, end: 22, id: '88' },
            ],
          },
          cumulative_months: 7,
          duration_months: 1,
        },
      },
      {
        type: 'channel.subscription.gift',
        broadcasterId: BROADCASTER,
        event: { user_id: '104', user_login: 'gifter', user_name: 'Gifter', total: 5, tier: '1000', is_anonymous: false },
      },
      {
        type: 'channel.raid',
        broadcasterId: BROADCASTER,
        event: { from_broadcaster_user_id: '105', from_broadcaster_user_login: 'raider', from_broadcaster_user_name: 'Raider', viewers: 321 },
      },
      {
        type: 'channel.cheer',
        broadcasterId: BROADCASTER,
        event: { user_id: null, user_login: null, user_name: null, is_anonymous: true, message: 'cheer100 go go', bits: 100 },
      },
      {
        type: 'channel.charity_campaign.donate',
        broadcasterId: BROADCASTER,
        event: {
          id: 'd1',
          campaign_id: 'c1',
          user_id: '107',
          user_login: 'donor',
          user_name: 'Donor',
          charity_name: 'Good Cause',
          charity_website: 'https://good.example',
          amount: { value: 1250, decimal_places: 2, currency: 'usd' },
        },
      },
    ];
    const before = received().length;
    await double.script(steps);
    await waitFor('seven events', async () => (received().length >= before + 7 ? true : undefined), 10_000, 20);
    const events = received().slice(before);
    expect(events.map((e) => e.type)).toEqual(['follow', 'sub', 'resub', 'sub', 'twitchRaid', 'twitchCheer', 'charity']);
    expect(events.every((e) => e.platform === 'twitch' && e.projectId === projectId)).toBe(true);
    expect(events[0]).toMatchObject({ platformUsername: 'Follower_One', value: null, avatar: `${double.url}/avatars/101.svg` });
    expect(events[1]).toMatchObject({ platformUsername: 'Subber', data: { tier: '1000' } });
    expect(events[2]).toMatchObject({ platformUsername: 'Resubber', value: 7, data: { message: 'Kappa 7 months PogChamp' } });
    expect(events[2]!.data.parsedMessage).toEqual([
      { kind: 'emote', value: 'Kappa', url: 'https://emotes.example/v2/25/default/dark/1.0' },
      { kind: 'text', value: ' 7 months ' },
      { kind: 'emote', value: 'PogChamp', url: 'https://emotes.example/v2/88/default/dark/1.0' },
    ]);
    expect(events[3]).toMatchObject({ platformUsername: 'Gifter', value: 5, data: { gifted: true, gifter: { platformUsername: 'Gifter' }, giftCount: 5 } });
    expect(events[4]).toMatchObject({ platformUsername: 'Raider', value: 321 });
    expect(events[5]).toMatchObject({ platformUsername: 'Anonymous', value: 100, avatar: null, data: { message: 'cheer100 go go' } });
    expect(events[6]).toMatchObject({
      platformUsername: 'Donor',
      value: 12.5,
      data: { currency: 'USD', charityName: 'Good Cause', link: 'https://good.example/' },
    });
    // Each one is stored, and the avatar is a picture the platform serves.
    expect(await api.db.liveEvent.count({ where: { projectId, id: { in: events.map((e) => e.id) } } })).toBe(7);
    expect((await fetch(events[0]!.avatar!)).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('keeps a repeated delivery once, and skips a notification of an unknown subscription, malformed messages and payloads, without losing the events around them', async () => {
    const before = received().length;
    double.emit({ ...follow('201', 'Twice'), messageId: 'repeated-1', times: 2 });
    double.notifyUnknown('channel.follow');
    double.raw('{"metadata": not json');
    double.raw(JSON.stringify({ metadata: { message_id: 'x', message_type: 'notification', message_timestamp: new Date().toISOString() }, payload: 'nope' }));
    double.emit({
      type: 'channel.cheer',
      broadcasterId: BROADCASTER,
      event: { user_id: '9', user_login: 'x', user_name: 'X', is_anonymous: false, bits: 'lots' },
    });
    double.emit(follow('202', '<img src=x onerror=alert(1)><b>Mark</b>'));
    double.emit(follow('203', 'After'));
    await waitForEvent((e) => e.platformUsername === 'After');
    const events = received().slice(before);
    expect(events.map((e) => e.platformUsername)).toEqual(['Twice', '<img src=x onerror=alert(1)><b>Mark</b>', 'After']);
    expect(events.some((e) => e.platformUsername === 'Ghost')).toBe(false);
    expect(await api.db.liveEvent.count({ where: { projectId, platformEventId: 'repeated-1' } })).toBe(1);
  });

  it('moves to the reconnect URL on session_reconnect without losing or repeating an event, and keeps its subscriptions', async () => {
    const session = await subscribed();
    const postsBefore = double.calls.filter((c) => c.method === 'POST').length;
    const before = received().length;
    double.emit(follow('301', 'BeforeReconnect'));
    double.reconnectAll();
    // Raised while the session moves: Twitch holds them for the new connection.
    double.emit(follow('302', 'DuringReconnect1'));
    double.emit(follow('303', 'DuringReconnect2'));
    await waitForEvent((e) => e.platformUsername === 'DuringReconnect2');
    double.emit(follow('304', 'AfterReconnect'));
    await waitForEvent((e) => e.platformUsername === 'AfterReconnect');
    await new Promise((r) => setTimeout(r, 300));
    const names = received()
      .slice(before)
      .map((e) => e.platformUsername);
    expect(names).toEqual(['BeforeReconnect', 'DuringReconnect1', 'DuringReconnect2', 'AfterReconnect']);
    expect(await api.db.liveEvent.count({ where: { projectId, platformUsername: { in: names } } })).toBe(4);
    // The same session, the same subscriptions: nothing created again.
    expect(await subscribed()).toBe(session);
    expect(double.calls.filter((c) => c.method === 'POST').length).toBe(postsBefore);
  });

  it('opens a new session and creates the subscriptions again when the connection drops', async () => {
    const session = await subscribed();
    double.drop(300);
    const next = await subscribed(session);
    expect(next).not.toBe(session);
    await connected();
    double.emit(follow('401', 'AfterDrop'));
    await waitForEvent((e) => e.platformUsername === 'AfterDrop');
  });

  it('replaces a session whose keepalives stop coming', async () => {
    const session = await subscribed();
    double.stall();
    const next = await subscribed(session);
    expect(next).not.toBe(session);
    await connected();
    double.emit(follow('501', 'AfterSilence'));
    await waitForEvent((e) => e.platformUsername === 'AfterSilence');
  });

  it('forgets a revoked subscription and goes on with the others', async () => {
    await subscribed();
    await connected();
    expect(double.revoke('channel.cheer', 'authorization_revoked')).toBe(1);
    expect(
      double.emit({
        type: 'channel.cheer',
        broadcasterId: BROADCASTER,
        event: { user_id: '9', user_login: 'x', user_name: 'X', is_anonymous: false, message: '', bits: 5 },
      }).delivered,
    ).toBe(0);
    await waitFor(
      'the revocation noted',
      async () => ((await api.redis.get(`onair:events:state:${destinationId}`))?.includes('channel.cheer') ? true : undefined),
      5000,
      20,
    );
    double.emit(follow('601', 'AfterRevoke'));
    await waitForEvent((e) => e.platformUsername === 'AfterRevoke');
    // A later session asks for all seven again (the creator may have authorised again meanwhile).
    const session = [...double.subscriptions.values()][0]!.sessionId;
    double.drop(200);
    await subscribed(session);
  });

  it('refreshes the channel’s token before it expires, and after Twitch refuses it', async () => {
    await api.db.destination.update({ where: { id: destinationId }, data: { tokenExpiresAt: new Date(Date.now() + 1000) } });
    const before = await api.db.destination.findUniqueOrThrow({ where: { id: destinationId } });
    const session = await subscribed();
    double.drop(200);
    await subscribed(session);
    await connected();
    const after = await api.db.destination.findUniqueOrThrow({ where: { id: destinationId } });
    expect(after.accessTokenEnc).not.toBe(before.accessTokenEnc);
    expect(after.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 3_600_000);
    // Every token the double handed out so far stops working: the next session refreshes once after the 401.
    double.expireTokens();
    const again = await subscribed();
    double.drop(200);
    await subscribed(again);
    await connected();
    const latest = await api.db.destination.findUniqueOrThrow({ where: { id: destinationId } });
    expect(latest.accessTokenEnc).not.toBe(after.accessTokenEnc);
    double.emit(follow('701', 'AfterRefresh'));
    await waitForEvent((e) => e.platformUsername === 'AfterRefresh');
  });
});

describe('get-feed', () => {
  it('pages through the feed newest first, filters by type, and never shows replayed or suppressed events', async () => {
    const other = await api.db.project.create({ data: { ownerId: host.id, name: 'Feed' } });
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 10, 0, s));
    const rows = [
      { type: 'follow', platformUsername: 'a', platformCreatedAt: at(1) },
      { type: 'sub', platformUsername: 'b', platformCreatedAt: at(2) },
      { type: 'follow', platformUsername: 'c', platformCreatedAt: at(3) },
      { type: 'follow', platformUsername: 'replayed', platformCreatedAt: at(4), replay: true },
      { type: 'follow', platformUsername: 'suppressed', platformCreatedAt: at(5), suppressed: true },
      { type: 'tip', platformUsername: 'd', platformCreatedAt: at(6), value: 5, data: { currency: 'EUR', message: 'thanks' } },
      { type: 'mysteryBox', platformUsername: 'e', platformCreatedAt: at(7) },
    ];
    await api.db.liveEvent.createMany({
      data: rows.map((r, i) => ({ data: {}, platform: 'twitch', platformEventId: `feed-${i}`, projectId: other.id, ...r })),
    });
    const page1 = await call(api, host, 'GET', `/api/v1/projects/${other.id}/events?limit=2`);
    expect(page1.status).toBe(200);
    const body1 = page1.body as { events: LiveEvent[]; nextCursor: string | null };
    expect(body1.events.map((e) => e.platformUsername)).toEqual(['e', 'd']);
    expect(body1.events[1]).toMatchObject({ type: 'tip', value: 5, data: { currency: 'EUR', message: 'thanks' } });
    const page2 = (await call(api, host, 'GET', `/api/v1/projects/${other.id}/events?limit=2&cursor=${body1.nextCursor}`)).body as typeof body1;
    expect(page2.events.map((e) => e.platformUsername)).toEqual(['c', 'b']);
    const page3 = (await call(api, host, 'GET', `/api/v1/projects/${other.id}/events?limit=2&cursor=${page2.nextCursor}`)).body as typeof body1;
    expect(page3.events.map((e) => e.platformUsername)).toEqual(['a']);
    expect(page3.nextCursor).toBeNull();
    const follows = (await call(api, host, 'GET', `/api/v1/projects/${other.id}/events?types=follow,tip`)).body as typeof body1;
    expect(follows.events.map((e) => e.platformUsername)).toEqual(['d', 'c', 'a']);
    // …and with the types the feed does not know (shown as unsupported, never filtered out), paged the same way.
    const withOthers = (await call(api, host, 'GET', `/api/v1/projects/${other.id}/events?types=follow&others=true&limit=2`)).body as typeof body1;
    expect(withOthers.events.map((e) => e.platformUsername)).toEqual(['e', 'c']);
    const othersNext = (await call(api, host, 'GET', `/api/v1/projects/${other.id}/events?types=follow&others=true&limit=2&cursor=${withOthers.nextCursor}`))
      .body as typeof body1;
    expect(othersNext.events.map((e) => e.platformUsername)).toEqual(['a']);
  });

  it('refuses a bad cursor or type, and answers 404 to someone without a role in the project', async () => {
    const bad = await call(api, host, 'GET', `/api/v1/projects/${projectId}/events?cursor=garbage`);
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { code: string } }).error.code).toBe('VALIDATION_FAILED');
    expect((await call(api, host, 'GET', `/api/v1/projects/${projectId}/events?types=<script>`)).status).toBe(400);
    expect((await call(api, host, 'GET', `/api/v1/projects/${projectId}/events?limit=1000`)).status).toBe(400);
    const stranger = await createTestUser(api);
    expect((await call(api, stranger, 'GET', `/api/v1/projects/${projectId}/events`)).status).toBe(404);
    expect((await call(api, null, 'GET', `/api/v1/projects/${projectId}/events`)).status).toBe(401);
  });
});

/** An open alerts overlay stream: every alert it receives, as the page would. */
async function openAlertStream(url: string, lastEventId?: string): Promise<{ alerts: AlertPlay[]; ids: string[]; close(): void }> {
  const controller = new AbortController();
  const res = await fetch(`${url.replace('?', '/stream?')}`, { signal: controller.signal, headers: lastEventId ? { 'last-event-id': lastEventId } : {} });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const alerts: AlertPlay[] = [];
  const ids: string[] = [];
  const reader = res.body!.getReader();
  let buffer = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += new TextDecoder().decode(value);
      let at;
      while ((at = buffer.indexOf('\n\n')) >= 0) {
        const chunk = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        for (const line of chunk.split('\n')) {
          if (line.startsWith('id: ')) ids.push(line.slice(4));
          if (line.startsWith('data: ')) alerts.push(alertPlaySchema.parse(JSON.parse(line.slice(6))));
        }
      }
    }
  })();
  // Subscribed once the first comment is in.
  await new Promise((r) => setTimeout(r, 200));
  return { alerts, ids, close: () => controller.abort() };
}

describe('alerts', () => {
  it('has defaults, saves a change, and refuses bad settings or a role that cannot update the project', async () => {
    const view = await call(api, host, 'GET', `/api/v1/projects/${projectId}/alerts`);
    expect(view.status).toBe(200);
    const body = view.body as { settings: AlertSettings; overlayUrl: string };
    expect(body.settings).toEqual(DEFAULT_ALERT_SETTINGS);
    expect(body.overlayUrl).toMatch(new RegExp(`^${api.url}/overlay/alerts/${projectId}\\?key=[A-Za-z0-9_-]{43}&onair-sig=[A-Za-z0-9_-]{43}$`));
    const settings = {
      ...DEFAULT_ALERT_SETTINGS,
      sub: { ...DEFAULT_ALERT_SETTINGS.sub, enabled: false },
      follow: { ...DEFAULT_ALERT_SETTINGS.follow, message: 'Welcome {follower}!', durationMs: 2000 },
    };
    const saved = await call(api, host, 'PUT', `/api/v1/projects/${projectId}/alerts`, { settings });
    expect(saved.status).toBe(200);
    expect((saved.body as { settings: AlertSettings }).settings).toEqual(settings);
    expect(
      (await call(api, host, 'PUT', `/api/v1/projects/${projectId}/alerts`, { settings: { ...settings, follow: { ...settings.follow, durationMs: 100 } } }))
        .status,
    ).toBe(400);
    expect(
      (
        await call(api, host, 'PUT', `/api/v1/projects/${projectId}/alerts`, {
          settings: { ...settings, follow: { ...settings.follow, imageUrl: 'javascript:alert(1)' } },
        })
      ).status,
    ).toBe(400);
    const viewer = await createTestUser(api);
    await api.db.projectMember.create({ data: { projectId, userId: viewer.id, role: 'viewer' } });
    expect((await call(api, viewer, 'PUT', `/api/v1/projects/${projectId}/alerts`, { settings })).status).toBe(403);
    expect((await call(api, viewer, 'POST', `/api/v1/projects/${projectId}/alerts/test`, { type: 'follow' })).status).toBe(403);
  });

  it('serves the overlay page and its stream only with the project’s key', async () => {
    const { overlayUrl } = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/alerts`)).body as { overlayUrl: string };
    const pageRes = await fetch(overlayUrl);
    expect(pageRes.status).toBe(200);
    expect(pageRes.headers.get('content-security-policy')).toContain("script-src 'nonce-");
    expect(await pageRes.text()).toContain('new EventSource');
    const wrong = overlayUrl.replace(/key=.*/, 'key=AAAA');
    expect((await fetch(wrong)).status).toBe(404);
    expect((await fetch(wrong.replace('?', '/stream?'))).status).toBe(404);
    const otherProject = overlayUrl.replace(projectId, randomUUID());
    expect((await fetch(otherProject)).status).toBe(404);
  });

  it('plays each new event of a type whose alert is on, once, with its values as plain text; a test alert plays even when its type is off', async () => {
    const { overlayUrl } = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/alerts`)).body as { overlayUrl: string };
    const stream = await openAlertStream(overlayUrl);
    try {
      await subscribed();
      double.emit({ ...follow('801', '<b>Bold</b>'), messageId: 'alert-follow', times: 2 });
      double.emit({
        type: 'channel.subscribe',
        broadcasterId: BROADCASTER,
        event: { user_id: '802', user_login: 's', user_name: 'Quiet', tier: '1000', is_gift: false },
      });
      double.emit({
        type: 'channel.raid',
        broadcasterId: BROADCASTER,
        event: { from_broadcaster_user_id: '803', from_broadcaster_user_login: 'r', from_broadcaster_user_name: 'Raider', viewers: 12 },
      });
      await waitFor('two alerts', async () => (stream.alerts.length >= 2 ? true : undefined), 10_000, 20);
      const test = await call(api, host, 'POST', `/api/v1/projects/${projectId}/alerts/test`, { type: 'sub' });
      expect(test.status).toBe(202);
      await waitFor('the test alert', async () => (stream.alerts.length >= 3 ? true : undefined), 10_000, 20);
      await new Promise((r) => setTimeout(r, 200));
      expect(stream.alerts.map((a) => [a.type, a.text, a.test])).toEqual([
        ['follow', 'Welcome <b>Bold</b>!', false],
        ['twitchRaid', 'Raider is raiding with 12 viewers!', false],
        ['sub', 'TestSubscriber just subscribed!', true],
      ]);
      expect(stream.alerts[0]).toMatchObject({ durationMs: 2000, sound: 'chime', animation: 'pop', imageUrl: null });
      // An overlay whose connection dropped after the first alert resumes with the ones after it, once each.
      expect(stream.ids).toHaveLength(3);
      const resumed = await openAlertStream(overlayUrl, stream.ids[0]);
      try {
        await waitFor('the missed alerts', async () => (resumed.alerts.length >= 2 ? true : undefined), 5000, 20);
        await new Promise((r) => setTimeout(r, 200));
        expect(resumed.alerts.map((a) => a.text)).toEqual(['Raider is raiding with 12 viewers!', 'TestSubscriber just subscribed!']);
        expect(resumed.ids).toEqual(stream.ids.slice(1));
      } finally {
        resumed.close();
      }
      // Alerts that go out while a resumed overlay's missed ones are being read back reach it after
      // them, in order, each once (they are held until the read-back has gone out).
      const before = stream.ids.length;
      const live = Promise.all(Array.from({ length: 5 }, () => call(api, host, 'POST', `/api/v1/projects/${projectId}/alerts/test`, { type: 'follow' })));
      const again = await openAlertStream(overlayUrl, stream.ids[0]);
      try {
        expect((await live).map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
        await waitFor(
          'every alert after the first',
          async () => (stream.ids.length >= before + 5 && again.ids.length >= stream.ids.length - 1 ? true : undefined),
          10_000,
          20,
        );
        await new Promise((r) => setTimeout(r, 200));
        expect(again.ids).toEqual(stream.ids.slice(1));
      } finally {
        again.close();
      }
    } finally {
      stream.close();
    }
  });
});
