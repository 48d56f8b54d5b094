// The events feed in the partner area by channel (issue 40 item 5): a channel's events across all
// its projects and platforms, newest first, by type, a page at a time; replays and suppressed events
// never; the Analytics group's, like the other stream stats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '@onair/protocol';
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
