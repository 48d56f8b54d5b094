/**
 * Overlays (issue 23) on the server: the channel's overlays by permission group, the secret page
 * address and its rotation, the live feed over a real WebSocket fed by the EventSub double through
 * the events connector (alerts, recent events, goal progress), platform chat under trigger access,
 * and signed overlay addresses as the studio's web-page sources. Real PostgreSQL and Redis.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { eventSubDoubleEnv, startEventSubDouble, waitFor, type EventSubDouble } from '@onair/embedded';
import { SecretBox } from '@onair/runtime';
import {
  chatChannels,
  eventChannels,
  newWidget,
  overlayFeedMessageSchema,
  type Overlay,
  type OverlayContent,
  type OverlayFeedMessage,
  type SceneDocument,
  type Widget,
} from '@onair/protocol';
import { CHAT_SECRETS_KEY, FAST_CHAT_ENV } from './helpers/chat.ts';
import { collaboratorWith } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

const BROADCASTER = '5151';
let double: EventSubDouble;
let api: StudioApi;
let owner: TestUser;
let projectId: string;

const follow = (id: string, name: string) => ({
  type: 'channel.follow',
  broadcasterId: BROADCASTER,
  event: { user_id: id, user_login: `u${id}`, user_name: name, followed_at: new Date().toISOString() },
});

class FeedSocket {
  readonly received: OverlayFeedMessage[] = [];
  closedWith: number | null = null;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.received.push(overlayFeedMessageSchema.parse(JSON.parse(data.toString()))));
    ws.on('close', (code) => {
      this.closedWith = code;
    });
  }
  static async open(pageUrl: string): Promise<FeedSocket> {
    const url = new URL(pageUrl);
    url.protocol = 'ws:';
    url.pathname += '/ws';
    const ws = new WebSocket(url);
    const socket = new FeedSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return socket;
  }
  async next<T extends OverlayFeedMessage['type']>(
    type: T,
    match: (m: Extract<OverlayFeedMessage, { type: T }>) => boolean = () => true,
  ): Promise<Extract<OverlayFeedMessage, { type: T }>> {
    return waitFor(
      `a ${type} on the overlay feed`,
      async () =>
        this.received.find((m): m is Extract<OverlayFeedMessage, { type: T }> => m.type === type && match(m as Extract<OverlayFeedMessage, { type: T }>)),
      15_000,
      20,
    );
  }
  close(): void {
    this.ws.close();
  }
}

const base = (channelId: string) => `/api/v1/partner/channels/${channelId}/overlays`;

async function createOverlay(user: TestUser, name = 'Main overlay'): Promise<Overlay> {
  const res = await call(api, user, 'POST', base(owner.id), { name });
  expect(res.status).toBe(201);
  return res.body as Overlay;
}

function content(o: Overlay, widgets: Widget[], triggerAccess: OverlayContent['triggerAccess'] = { mode: 'all', whitelist: [] }): OverlayContent {
  return { name: o.name, widgets, triggerAccess };
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
      EVENTSUB_KEEPALIVE_SECONDS: '1',
      EVENTSUB_KEEPALIVE_GRACE_MS: '500',
      EVENTSUB_RECONNECT_MAX_MS: '500',
    },
  });
  owner = await createTestUser(api, { plan: 'Premium' });
  projectId = (await api.db.project.create({ data: { ownerId: owner.id, name: 'Overlay show' } })).id;
  const destinationId = randomUUID();
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
  await waitFor('the events connector subscribed', async () => (double.subscriptions.size >= 7 ? true : undefined), 20_000, 20);
});

afterAll(async () => {
  await api?.close();
  await double?.close();
});

describe('overlays of a channel', () => {
  it('are created, edited and listed by the owner; the page address carries a key and the studio address a signature', async () => {
    const o = await createOverlay(owner);
    expect(o.widgets).toEqual([]);
    expect(o.url).toMatch(new RegExp(`^${api.url}/overlay/o/${o.id}\\?key=[A-Za-z0-9_-]{43}$`));
    expect(o.studioUrl.startsWith(`${o.url}&onair-sig=`)).toBe(true);
    const text = newWidget('text', randomUUID());
    const saved = await call(api, owner, 'PUT', `${base(owner.id)}/${o.id}`, content(o, [text]));
    expect(saved.status).toBe(200);
    expect((saved.body as Overlay).widgets).toEqual([text]);
    const list = (await call(api, owner, 'GET', base(owner.id))).body as { overlays: { id: string; widgetCount: number }[] };
    expect(list.overlays.find((x) => x.id === o.id)?.widgetCount).toBe(1);
  });

  it('refuses widgets off the canvas, too long texts and images on private addresses, with words', async () => {
    const o = await createOverlay(owner);
    const put = (w: Widget) => call(api, owner, 'PUT', `${base(owner.id)}/${o.id}`, content(o, [w]));
    const offCanvas = await put({ ...newWidget('text', randomUUID()), x: 5000 } as Widget);
    expect(offCanvas).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED' } } });
    const long = await put({ ...newWidget('text', randomUUID()), text: 'x'.repeat(481) } as Widget);
    expect(JSON.stringify(long.body)).toContain('Keep the message under 481 characters');
    const privateImage = await put({ ...newWidget('image', randomUUID()), url: 'http://169.254.169.254/latest/meta-data' } as Widget);
    expect(privateImage.status).toBe(400);
    expect(JSON.stringify(privateImage.body)).toContain('This image cannot be shown');
    expect((await put({ ...newWidget('image', randomUUID()), url: 'https://cdn.example.com/logo.png' } as Widget)).status).toBe(200);
  });

  it('lets a collaborator with View overlays read but not edit, and one with Edit overlays edit; others are refused', async () => {
    const o = await createOverlay(owner);
    const viewer = await collaboratorWith(api, owner, ['overlay.view']);
    const editor = await collaboratorWith(api, owner, ['overlay.edit']);
    const site = await collaboratorWith(api, owner, ['creator-site', 'analytics']);
    expect((await call(api, viewer.user, 'GET', `${base(owner.id)}/${o.id}`)).status).toBe(200);
    const refused = await call(api, viewer.user, 'PUT', `${base(owner.id)}/${o.id}`, content(o, []));
    expect(refused).toMatchObject({
      status: 403,
      body: {
        error: { code: 'FORBIDDEN', message: 'Your access to this channel does not include Overlay (Edit overlays). Ask the channel owner to grant it.' },
      },
    });
    expect((await call(api, viewer.user, 'POST', `${base(owner.id)}/${o.id}/secret`)).status).toBe(403);
    expect((await call(api, editor.user, 'PUT', `${base(owner.id)}/${o.id}`, content(o, [newWidget('timer', randomUUID())]))).status).toBe(200);
    expect((await call(api, site.user, 'GET', base(owner.id))).status).toBe(403);
    // An overlay of another channel is not reached through this one.
    const other = await createTestUser(api);
    const theirs = (await call(api, other, 'POST', base(other.id), { name: 'Theirs' })).body as Overlay;
    expect((await call(api, owner, 'GET', `${base(owner.id)}/${theirs.id}`)).status).toBe(404);
  });

  it('serves the page only with the right key, on a transparent background under a strict CSP; rotating the secret ends the old address and its open feed', async () => {
    const o = await createOverlay(owner);
    const page = await fetch(o.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'nonce-[^']+'/);
    expect(await page.text()).toContain('background:transparent');
    expect((await fetch(o.url.replace(/key=[^&]+/, 'key=AAAA'))).status).toBe(404);
    expect((await fetch(o.url.replace(o.id, randomUUID()))).status).toBe(404);

    const feed = await FeedSocket.open(o.url);
    await feed.next('overlay.state');
    const rotated = (await call(api, owner, 'POST', `${base(owner.id)}/${o.id}/secret`)).body as Overlay;
    expect(rotated.url).not.toBe(o.url);
    await feed.next('overlay.closed');
    await waitFor('the old feed closed', async () => (feed.closedWith === 4404 ? true : undefined), 5000, 20);
    expect((await fetch(o.url)).status).toBe(404);
    expect((await fetch(rotated.url)).status).toBe(200);
    await expect(FeedSocket.open(o.url)).rejects.toThrow(/404/);
  });
});

describe('the live feed of an overlay page', () => {
  it('shows a sponsor widget with the campaign the creator takes part in, its newest code and tracked link; drawing it counts an overlay impression', async () => {
    const o = await createOverlay(owner);
    const joined = await api.db.campaign.create({ data: { name: `Sky ${randomUUID().slice(0, 4)}`, kind: 'game-key', game: 'Skyward', status: 'active' } });
    const other = await api.db.campaign.create({ data: { name: 'Not joined', kind: 'game-key', game: 'Other', status: 'active' } });
    const application = await api.db.campaignApplication.create({ data: { campaignId: joined.id, creatorId: owner.id, status: 'accepted' } });
    const slug = `ov-${application.id.slice(0, 10)}`;
    await api.db.campaignLink.create({ data: { applicationId: application.id, slug } });
    await api.db.promoCode.create({
      data: {
        applicationId: application.id,
        code: `SKY${randomUUID()
          .slice(0, 4)
          .toUpperCase()
          .replace(/[^A-Z0-9]/g, 'X')}`,
        discountPercent: 15,
      },
    });
    const shown = { ...newWidget('sponsor', randomUUID()), campaignId: joined.id } as Widget;
    const notJoined = { ...newWidget('sponsor', randomUUID()), campaignId: other.id } as Widget;
    const saved = await call(api, owner, 'PUT', `${base(owner.id)}/${o.id}`, content(o, [shown, notJoined]));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const feed = await FeedSocket.open(o.url);
    const state = await feed.next('overlay.state');
    expect(Object.keys(state.sponsors)).toEqual([shown.id]);
    expect(state.sponsors[shown.id]).toMatchObject({
      campaignName: joined.name,
      game: 'Skyward',
      discountPercent: 15,
      link: `${api.url}/api/v1/public/campaign-links/${slug}`,
      impressionPath: `/api/v1/public/campaign-links/${slug}/impression?source=overlay`,
    });
    feed.close();
    // The page loads the pixel each time it draws the widget.
    expect((await fetch(`${api.url}${state.sponsors[shown.id]!.impressionPath}`)).status).toBe(204);
    const hits = await api.db.campaignLinkHit.findMany({ where: { channelId: owner.id } });
    expect(hits.map((h) => [h.kind, h.source])).toEqual([['impression', 'overlay']]);
  });

  it('plays alerts with the alert box’s words, lists the events and moves the goal bar, as the EventSub double sends them; a name with markup arrives as plain text', async () => {
    const o = await createOverlay(owner);
    const alertBox = newWidget('alertBox', randomUUID());
    if (alertBox.kind !== 'alertBox') throw new Error('alert box');
    alertBox.alerts.follow.message = 'Welcome {follower}!';
    alertBox.alerts.twitchRaid.enabled = false;
    const goal = { ...newWidget('goalBar', randomUUID()), since: new Date().toISOString(), target: 3 } as Widget;
    const recent = newWidget('recentEvents', randomUUID());
    await call(api, owner, 'PUT', `${base(owner.id)}/${o.id}`, content(o, [alertBox, goal, recent]));
    const feed = await FeedSocket.open(o.url);
    const state = await feed.next('overlay.state');
    expect(state.goals[goal.id]).toBe(0);

    const hostile = '<img src=x onerror=alert(1)>';
    double.emit(follow('901', hostile));
    const alert = await feed.next('overlay.alert');
    expect(alert).toMatchObject({ widgetId: alertBox.id, alert: { type: 'follow', text: `Welcome ${hostile}!`, durationMs: 5000 } });
    expect((await feed.next('overlay.events')).events[0]).toMatchObject({ type: 'follow', username: hostile, text: 'followed' });
    expect((await feed.next('overlay.goals')).goals[goal.id]).toBe(1);

    double.emit(follow('902', 'Second'));
    await feed.next('overlay.goals', (m) => m.goals[goal.id] === 2);
    // A raid is listed but its alert is off in this box.
    double.emit({
      type: 'channel.raid',
      broadcasterId: BROADCASTER,
      event: {
        from_broadcaster_user_id: '77',
        from_broadcaster_user_login: 'raider',
        from_broadcaster_user_name: 'Raider',
        to_broadcaster_user_id: BROADCASTER,
        viewers: 12,
      },
    });
    await feed.next('overlay.events', (m) => m.events.some((e) => e.type === 'twitchRaid'));
    expect(feed.received.filter((m) => m.type === 'overlay.alert').map((m) => (m.type === 'overlay.alert' ? m.alert.type : ''))).toEqual(['follow', 'follow']);
    feed.close();
  });

  it('a charity goal bar shows the donations matched to the channel’s active charity campaign (issue 40 item 7)', async () => {
    const donate = (id: string, campaignId: string, charity: string, cents: number, currency = 'USD') => ({
      type: 'channel.charity_campaign.donate',
      broadcasterId: BROADCASTER,
      event: {
        id,
        campaign_id: campaignId,
        broadcaster_user_id: BROADCASTER,
        user_id: `d${id}`,
        user_login: `donor${id}`,
        user_name: `Donor${id}`,
        charity_name: charity,
        charity_description: 'Helping',
        charity_logo: 'https://example.org/logo.png',
        charity_website: 'https://www.example-charity.org',
        amount: { value: cents, decimal_places: 2, currency },
      },
    });
    const connected = await call(api, owner, 'PUT', `/api/v1/partner/channels/${owner.id}/charity`, {
      link: 'https://www.twitch.tv/charity/ada',
      name: 'Kids First',
      active: true,
    });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    // The provider's campaign id, as a provider webhook names it.
    await api.db.charityCampaign.update({ where: { channelId: owner.id }, data: { providerId: 'campaign-kids' } });
    const o = await createOverlay(owner);
    const goal = { ...newWidget('goalBar', randomUUID()), metric: 'charity', currency: 'USD', since: new Date().toISOString(), target: 10_000 } as Widget;
    const followers = { ...newWidget('goalBar', randomUUID()), since: new Date().toISOString(), target: 5 } as Widget;
    await call(api, owner, 'PUT', `${base(owner.id)}/${o.id}`, content(o, [goal, followers]));
    const feed = await FeedSocket.open(o.url);
    expect((await feed.next('overlay.state')).goals[goal.id]).toBe(0);

    double.emit(donate('c1', 'campaign-kids', 'Kids First', 2500));
    await feed.next('overlay.goals', (m) => m.goals[goal.id] === 2500);
    // Another campaign of the same charity, and the right campaign in another currency: not counted.
    double.emit(donate('c2', 'campaign-other', 'Kids First', 9900));
    double.emit(donate('c3', 'campaign-kids', 'Kids First', 700, 'EUR'));
    double.emit(donate('c4', 'campaign-kids', 'Kids First', 1050));
    await feed.next('overlay.goals', (m) => m.goals[goal.id] === 3550);
    expect(feed.received.filter((m) => m.type === 'overlay.goals').every((m) => m.type !== 'overlay.goals' || m.goals[followers.id] === 0)).toBe(true);

    // A paused campaign moves no bar.
    await call(api, owner, 'PUT', `/api/v1/partner/channels/${owner.id}/charity`, {
      link: 'https://www.twitch.tv/charity/ada',
      name: 'Kids First',
      active: false,
    });
    double.emit(donate('c5', 'campaign-kids', 'Kids First', 100));
    await feed.next('overlay.goals', (m) => m.goals[goal.id] === 0);
    feed.close();
  });

  it('redraws when the overlay is edited, and shows chat only from viewers its trigger access allows', async () => {
    const o = await createOverlay(owner);
    const chatBox = newWidget('chatBox', randomUUID());
    await call(api, owner, 'PUT', `${base(owner.id)}/${o.id}`, content(o, [chatBox], { mode: 'none', whitelist: ['TrustedViewer'] }));
    const feed = await FeedSocket.open(o.url);
    await feed.next('overlay.state');
    const message = (id: string, displayName: string, text: string) => ({
      id,
      projectId,
      ts: new Date().toISOString(),
      direction: 'inbound',
      platform: 'twitch',
      destinationId: null,
      sender: displayName,
      displayName,
      avatar: null,
      content: text,
      segments: [{ kind: 'text', value: text }],
      toDestinations: [],
      deliveries: [],
      private: false,
    });
    const hostile = '<img src=x onerror=alert(1)>';
    await api.redis.publish(
      chatChannels.project(projectId),
      JSON.stringify({
        type: 'chat.messages',
        projectId,
        messages: [message(randomUUID(), 'Stranger', 'hidden'), message(randomUUID(), 'trustedviewer', 'shown')],
      }),
    );
    const shown = await feed.next('overlay.chat');
    expect(shown.messages.map((m) => m.text)).toEqual(['shown']);

    // Everyone may now: the page redraws with the new settings, and a hostile name is text.
    await call(api, owner, 'PUT', `${base(owner.id)}/${o.id}`, content(o, [chatBox], { mode: 'all', whitelist: [] }));
    await feed.next('overlay.state', (m) => m !== feed.received[0]);
    await api.redis.publish(
      chatChannels.project(projectId),
      JSON.stringify({ type: 'chat.messages', projectId, messages: [message(randomUUID(), hostile, 'hi')] }),
    );
    expect((await feed.next('overlay.chat', (m) => m.messages[0]?.username === hostile)).messages[0]).toEqual(
      expect.objectContaining({ username: hostile, text: 'hi' }),
    );
    feed.close();
  });

  it('follows the projects its channel makes after the page opened', async () => {
    const o = await createOverlay(owner);
    const recent = newWidget('recentEvents', randomUUID());
    await call(api, owner, 'PUT', `${base(owner.id)}/${o.id}`, content(o, [recent]));
    const feed = await FeedSocket.open(o.url);
    await feed.next('overlay.state');
    const later = await api.db.project.create({ data: { ownerId: owner.id, name: 'A new show' } });
    const event = {
      id: randomUUID(),
      projectId: later.id,
      type: 'follow',
      platform: 'twitch',
      platformUsername: 'Latecomer',
      platformCreatedAt: new Date().toISOString(),
      avatar: null,
      value: null,
      data: {},
    };
    // Published until the page has picked the new project up (it looks every few seconds).
    await waitFor(
      'the new project’s event on the feed',
      async () => {
        await api.redis.publish(eventChannels.project(later.id), JSON.stringify({ type: 'events.new', projectId: later.id, events: [event] }));
        return feed.received.some((m) => m.type === 'overlay.events' && m.events.some((e) => e.username === 'Latecomer')) ? true : undefined;
      },
      15_000,
      500,
    );
    feed.close();
  });

  it('closes an open page when its overlay is deleted', async () => {
    const o = await createOverlay(owner);
    const feed = await FeedSocket.open(o.url);
    await feed.next('overlay.state');
    expect((await call(api, owner, 'DELETE', `${base(owner.id)}/${o.id}`)).status).toBe(200);
    await feed.next('overlay.closed');
    expect((await fetch(o.url)).status).toBe(404);
  });
});

describe('overlays as studio web-page sources', () => {
  const addPage = async (url: string) => {
    const doc = (await call(api, owner, 'GET', `/api/v1/projects/${projectId}/scene`)).body as SceneDocument;
    return call(api, owner, 'PATCH', `/api/v1/projects/${projectId}/scene`, {
      baseVersion: doc.version,
      ops: [{ op: 'addSource', source: { id: randomUUID(), kind: 'webpage', settings: { config: { url } } } }],
    });
  };

  it('accepts the signed overlay address on the api’s own loopback origin, and refuses a tampered one and every other private address', async () => {
    const o = await createOverlay(owner);
    expect((await addPage(o.studioUrl)).status).toBe(200);
    // The same page under the api's other loopback name (one machine: localhost and 127.0.0.1).
    expect((await addPage(o.studioUrl.replace('127.0.0.1', 'localhost'))).status).toBe(200);
    const refused = [
      o.url, // unsigned
      o.studioUrl.replace(/onair-sig=./, (m) => `${m.slice(0, -1)}${m.endsWith('A') ? 'B' : 'A'}`),
      o.studioUrl.replace(/key=[^&]+/, 'key=AAAA'),
      o.studioUrl.replace(`/overlay/o/${o.id}`, `/overlay/o/${randomUUID()}`),
      `${api.url}/api/v1/users/me?onair-sig=${new URL(o.studioUrl).searchParams.get('onair-sig')}`,
      'http://127.0.0.1:9/',
      'http://10.0.0.5/overlay',
    ];
    for (const url of refused) {
      const res = await addPage(url);
      expect(res.status, url).toBe(422);
      expect(JSON.stringify(res.body)).toContain('private');
    }
  });
});
