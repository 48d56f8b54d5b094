/**
 * Events feed (issue 17): YouTube's Super Chats, Super Stickers and memberships, read from the
 * live chat poll of its chat connector (issue 16) against the YouTube double, stored once and
 * pushed over /ws. Real PostgreSQL and Redis.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chatDoublesEnv, startChatDoubles, waitFor, type ChatDoubles } from '@onair/embedded';
import { SecretBox } from '@onair/runtime';
import type { LiveEvent } from '@onair/protocol';
import { CHAT_SECRETS_KEY, FAST_CHAT_ENV, StudioChatSocket } from './helpers/chat.ts';
import { createTestUser, startStudioApi, type StudioApi } from './helpers/studio-api.ts';

let doubles: ChatDoubles;
let api: StudioApi;
let projectId: string;
let studio: StudioChatSocket;

const received = (): LiveEvent[] => studio.received.flatMap((m) => (m.type === 'events.new' ? m.events : []));

beforeAll(async () => {
  doubles = await startChatDoubles();
  api = await startStudioApi({ env: { ...chatDoublesEnv(doubles), ...FAST_CHAT_ENV, EVENTS_CONNECTORS: 'false' } });
  const host = await createTestUser(api, { plan: 'Premium' });
  projectId = (await api.db.project.create({ data: { ownerId: host.id, name: 'YouTube events' } })).id;
  const id = randomUUID();
  const box = new SecretBox(CHAT_SECRETS_KEY);
  const token = doubles.youtube.issueToken();
  await api.db.destination.create({
    data: {
      id,
      projectId,
      type: 'YouTube',
      providerId: 'youtube',
      name: 'YouTube of Ada',
      username: 'Ada Live',
      platformAccountId: doubles.youtube.owner.channelId,
      accessTokenEnc: box.seal(token.accessToken, `${id}:accessToken`),
      refreshTokenEnc: box.seal(token.refreshToken, `${id}:refreshToken`),
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  await api.db.broadcast.create({ data: { projectId, state: 'live', startedAt: new Date() } });
  doubles.youtube.goLive();
  studio = await StudioChatSocket.open(api.wsUrl, host.cookie, projectId);
  await studio.waitForState(id, 'live');
});

afterAll(async () => {
  studio?.close();
  await api?.close();
  await doubles?.close();
});

it('brings Super Chats, Super Stickers, new members, milestones and gifted memberships to the feed, once each, chat messages staying chat', async () => {
  doubles.youtube.post('Chatter', 'just chatting');
  const superChat = doubles.youtube.postEvent(
    'Big Fan',
    'superChatEvent',
    { superChatDetails: { amountMicros: '5000000', currency: 'EUR', amountDisplayString: '€5.00', userComment: 'Love the <b>stream</b>', tier: 2 } },
    '€5.00 Love the stream',
  );
  doubles.youtube.postEvent('Sticker Fan', 'superStickerEvent', {
    superStickerDetails: { amountMicros: '2000000', currency: 'usd', superStickerMetadata: { stickerId: 's1', altText: 'Happy cat' } },
  });
  doubles.youtube.postEvent('New Member', 'newSponsorEvent', { newSponsorDetails: { memberLevelName: 'Gold', isUpgrade: false } });
  doubles.youtube.postEvent('Loyal', 'memberMilestoneChatEvent', {
    memberMilestoneChatDetails: { memberMonth: 12, memberLevelName: 'Gold', userComment: 'a year!' },
  });
  doubles.youtube.postEvent('Generous', 'membershipGiftingEvent', { membershipGiftingDetails: { giftMembershipsCount: 3, giftMembershipsLevelName: 'Gold' } });
  doubles.youtube.postEvent('Broken', 'superChatEvent', { superChatDetails: { currency: 'EUR' } });
  await waitFor('five YouTube events', async () => (received().length >= 5 ? true : undefined), 15_000, 20);
  await studio.waitForChat((m) => m.content === 'just chatting');
  const events = received();
  expect(events.map((e) => [e.type, e.platformUsername, e.value])).toEqual([
    ['tip', 'Big Fan', 5],
    ['tip', 'Sticker Fan', 2],
    ['sub', 'New Member', null],
    ['resub', 'Loyal', 12],
    ['sub', 'Generous', 3],
  ]);
  expect(events.every((e) => e.platform === 'youtube')).toBe(true);
  expect(events[0]!.data).toEqual({ currency: 'EUR', message: 'Love the <b>stream</b>', parsedMessage: [{ kind: 'text', value: 'Love the <b>stream</b>' }] });
  expect(events[0]!.avatar).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/avatars\//);
  expect(events[1]!.data).toMatchObject({ currency: 'USD', message: 'Happy cat' });
  expect(events[2]!.data).toEqual({ tier: 'Gold' });
  expect(events[4]!.data).toMatchObject({ gifted: true, giftCount: 3 });
  // Polled again: still once each.
  const polls = doubles.youtube.calls.length;
  await waitFor('two more polls', async () => (doubles.youtube.calls.length >= polls + 2 ? true : undefined), 10_000, 20);
  expect(await api.db.liveEvent.count({ where: { projectId } })).toBe(5);
  expect(await api.db.liveEvent.count({ where: { projectId, platformEventId: superChat } })).toBe(1);
  expect(received()).toHaveLength(5);
});
