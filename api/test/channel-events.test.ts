// The events feed in the partner area by channel (issue 40 item 5): a channel's events across all
// its projects and platforms, newest first, by type, a page at a time; replays and suppressed events
// never; the Analytics group's, like the other stream stats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { serverMessageSchema, type LiveEvent, type ServerMessage } from '@onair/protocol';
import { createLogger } from '@onair/runtime';
import { EventsStore } from '../src/events/events-store.ts';
import { collaboratorWith } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let owner: TestUser;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 18, minute));

beforeAll(async () => {
  api = await startStudioApi();
  owner = await createTestUser(api);
  const other = await createTestUser(api);
  const [main, second, foreign] = await Promise.all([
    api.db.project.create({ data: { ownerId: owner.id, name: 'Main show' } }),
    api.db.project.create({ data: { ownerId: owner.id, name: 'Second show' } }),
    api.db.project.create({ data: { ownerId: other.id, name: 'Not theirs' } }),
  ]);
  const event = (projectId: string, id: string, platform: string, type: string, minute: number, extra: Record<string, unknown> = {}) => ({
    projectId,
    platform,
    platformEventId: id,
    type,
    platformUsername: id,
    data: {},
    platformCreatedAt: at(minute),
    ...extra,
  });
  await api.db.liveEvent.createMany({
    data: [
      event(main.id, 'ann', 'twitch', 'follow', 1),
      event(second.id, 'bob', 'youtube', 'sub', 2),
      event(main.id, 'cid', 'twitch', 'twitchRaid', 3, { value: 12 }),
      event(second.id, 'dee', 'youtube', 'follow', 4),
      event(main.id, 'replayed', 'twitch', 'follow', 5, { replay: true }),
      event(main.id, 'hidden', 'twitch', 'follow', 6, { suppressed: true }),
      event(foreign.id, 'elsewhere', 'twitch', 'follow', 7),
    ],
  });
});
afterAll(async () => {
  await api?.close();
});

const feed = async (user: TestUser, query = '') => {
  const res = await call(api, user, 'GET', `/api/v1/partner/channels/${owner.id}/events${query}`);
  return res as { status: number; body: { events: LiveEvent[]; nextCursor: string | null } };
};

describe("a channel's events feed in the partner area", () => {
  it('lists the events of every project of the channel, newest first, without replays, suppressed or other channels', async () => {
    const { status, body } = await feed(owner);
    expect(status).toBe(200);
    expect(body.events.map((e) => [e.platformUsername, e.platform, e.type])).toEqual([
      ['dee', 'youtube', 'follow'],
      ['cid', 'twitch', 'twitchRaid'],
      ['bob', 'youtube', 'sub'],
      ['ann', 'twitch', 'follow'],
    ]);
    expect(body.nextCursor).toBeNull();
  });

  it('filters by type and pages by cursor', async () => {
    expect((await feed(owner, '?types=follow')).body.events.map((e) => e.platformUsername)).toEqual(['dee', 'ann']);
    const first = await feed(owner, '?limit=3');
    expect(first.body.events.map((e) => e.platformUsername)).toEqual(['dee', 'cid', 'bob']);
    const second = await feed(owner, `?limit=3&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ events: [expect.objectContaining({ platformUsername: 'ann' })], nextCursor: null });
  });

  it('is the Analytics group’s: a collaborator without it and a stranger are refused', async () => {
    const analyst = await collaboratorWith(api, owner, ['analytics']);
    expect((await feed(analyst.user)).body.events).toHaveLength(4);
    const chatter = await collaboratorWith(api, owner, ['chatbot.chat']);
    expect((await feed(chatter.user)).status).toBe(403);
    const stranger = await createTestUser(api);
    expect((await feed(stranger)).status).toBe(403);
  });
});

/** A partner page's socket that records every message it receives. */
async function socketOf(
  user: TestUser,
): Promise<{ ws: WebSocket; messages: ServerMessage[]; waitFor: (p: (m: ServerMessage) => boolean) => Promise<ServerMessage> }> {
  const ws = new WebSocket(api.wsUrl, { headers: { cookie: user.cookie } });
  const messages: ServerMessage[] = [];
  ws.on('message', (data) => messages.push(serverMessageSchema.parse(JSON.parse(data.toString()))));
  const waitFor = async (p: (m: ServerMessage) => boolean) => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = messages.find(p);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`not received; got ${JSON.stringify(messages)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await waitFor((m) => m.type === 'ready');
  return { ws, messages, waitFor };
}

describe("a channel's events feed, live over /ws (as the studio's)", () => {
  it('pushes each new event of any project of the channel to the sockets watching it, once; an analyst may watch, others are refused', async () => {
    const project = await api.db.project.create({ data: { ownerId: owner.id, name: 'Live show' } });
    const analyst = await collaboratorWith(api, owner, ['analytics']);
    const chatter = await collaboratorWith(api, owner, ['chatbot.chat']);
    const [mine, theirs, refused] = await Promise.all([socketOf(owner), socketOf(analyst.user), socketOf(chatter.user)]);
    for (const s of [mine, theirs, refused]) s.ws.send(JSON.stringify({ type: 'channel.watch', channelId: owner.id }));
    expect(await refused.waitFor((m) => m.type === 'error')).toMatchObject({ code: 'FORBIDDEN' });
    // Watching is settled once a ping sent after it is answered (messages are handled in order).
    for (const s of [mine, theirs]) {
      s.ws.send(JSON.stringify({ type: 'ping' }));
      await s.waitFor((m) => m.type === 'pong');
    }

    const store = new EventsStore(api.db, api.redis, createLogger('channel-events-test', 'silent'));
    const inbound = (id: string, type: string) => ({
      platformEventId: id,
      type,
      platformUsername: id,
      platformUserId: null,
      avatar: null,
      value: null,
      data: {},
      platformCreatedAt: new Date(),
      replay: false,
      suppressed: false,
    });
    await store.store({ id: null, projectId: project.id, platform: 'twitch' }, [inbound('live-fay', 'follow'), inbound('live-gus', 'sub')]);
    for (const s of [mine, theirs]) {
      const pushed = await s.waitFor((m) => m.type === 'channel.events.new');
      expect(pushed).toMatchObject({ channelId: owner.id, events: [{ platformUsername: 'live-fay' }, { platformUsername: 'live-gus' }] });
    }
    // Stored again (a connector's repeat): nothing new, nothing pushed.
    await store.store({ id: null, projectId: project.id, platform: 'twitch' }, [inbound('live-fay', 'follow')]);
    mine.ws.send(JSON.stringify({ type: 'ping' }));
    await new Promise((r) => setTimeout(r, 100));
    expect(mine.messages.filter((m) => m.type === 'channel.events.new')).toHaveLength(1);
    expect(refused.messages.filter((m) => m.type === 'channel.events.new')).toHaveLength(0);
    for (const s of [mine, theirs, refused]) s.ws.terminate();
  });
});
