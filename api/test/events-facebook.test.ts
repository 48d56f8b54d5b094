/**
 * Issue 39 item 5b: the Facebook events the Graph API offers a live video's feed. Comments are
 * the platform chat's; what the feed adds is the live reactions, read from the streaming Graph
 * API's `live_reactions` (server-sent events of counts by type, never who) while the broadcast is
 * live. The Facebook double over its real HTTP server; real PostgreSQL and Redis.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFacebookChatDouble, waitFor, type FacebookChatDouble } from '@onair/embedded';
import { SecretBox } from '@onair/runtime';
import type { LiveEvent } from '@onair/protocol';
import { reactionsEvent } from '../src/events/facebook-reactions.ts';
import { CHAT_SECRETS_KEY, FAST_CHAT_ENV, StudioChatSocket } from './helpers/chat.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let facebook: FacebookChatDouble;
let api: StudioApi;
let host: TestUser;
let projectId: string;
let destinationId: string;
let studio: StudioChatSocket;

function received(): LiveEvent[] {
  return studio.received.flatMap((m) => (m.type === 'events.new' ? m.events : []));
}

beforeAll(async () => {
  facebook = await startFacebookChatDouble();
  api = await startStudioApi({
    env: {
      ...FAST_CHAT_ENV,
      CHAT_CONNECTORS: 'false',
      FACEBOOK_GRAPH_URL: `${facebook.url}/${facebook.version}`,
      FACEBOOK_STREAMING_URL: `${facebook.url}/${facebook.version}`,
      FACEBOOK_CLIENT_ID: 'facebook-double-client',
      FACEBOOK_CLIENT_SECRET: 'facebook-double-secret',
      FACEBOOK_TOKEN_URL: `${facebook.url}/${facebook.version}/oauth/access_token`,
    },
  });
  host = await createTestUser(api, { plan: 'Premium' });
  projectId = (await api.db.project.create({ data: { ownerId: host.id, name: 'Facebook events' } })).id;
  destinationId = randomUUID();
  const box = new SecretBox(CHAT_SECRETS_KEY);
  const token = facebook.issueToken();
  await api.db.destination.create({
    data: {
      id: destinationId,
      projectId,
      type: 'Facebook',
      providerId: 'facebook',
      name: 'Ada',
      username: 'Ada',
      platformAccountId: facebook.ownerId,
      accessTokenEnc: box.seal(token.accessToken, `${destinationId}:accessToken`),
      refreshTokenEnc: box.seal(token.refreshToken, `${destinationId}:refreshToken`),
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  studio = await StudioChatSocket.open(api.wsUrl, host.cookie, projectId);
});

afterAll(async () => {
  studio?.close();
  await api?.close();
  await facebook?.close();
});

describe('Facebook live reactions in the events feed', () => {
  it('reads nothing while the project is not live', async () => {
    // Reactions exist only on a live video: a project whose broadcast is live gets a connector, ours not yet.
    facebook.goLive();
    const other = await api.db.project.create({ data: { ownerId: host.id, name: 'Live elsewhere' } });
    await api.db.broadcast.create({ data: { projectId: other.id, state: 'live', startedAt: new Date() } });
    const box = new SecretBox(CHAT_SECRETS_KEY);
    const otherId = randomUUID();
    await api.db.destination.create({
      data: {
        id: otherId,
        projectId: other.id,
        type: 'Facebook',
        providerId: 'facebook',
        name: 'Other',
        platformAccountId: facebook.ownerId,
        accessTokenEnc: box.seal(facebook.issueToken().accessToken, `${otherId}:accessToken`),
        tokenExpiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    await waitFor('the live project’s reaction stream', async () => (facebook.openReactionStreams === 1 ? true : undefined), 15_000, 20);
    expect(await api.redis.get(`onair:events:owner:${otherId}`)).toBeTruthy();
    expect(await api.redis.get(`onair:events:owner:${destinationId}`)).toBeNull();
    await api.db.destination.delete({ where: { id: otherId } });
    await waitFor('its stream closed', async () => (facebook.openReactionStreams === 0 ? true : undefined), 15_000, 20);
  });

  it('goes live: each burst of reactions reaches the studio and the feed as one event with its counts by type', async () => {
    await api.db.broadcast.create({ data: { projectId, state: 'live', startedAt: new Date() } });
    // The video is live at Facebook: the connector opens its reaction stream.
    await waitFor('the reaction stream open', async () => (facebook.openReactionStreams === 1 ? true : undefined), 15_000, 20);
    await waitFor(
      'the events connector connected',
      async () => ((await api.redis.get(`onair:events:state:${destinationId}`))?.includes('"connected"') ? true : undefined),
      10_000,
      20,
    );
    expect(facebook.react({ LIKE: 3, LOVE: 2, WOW: 0 })).toBe(1);
    const first = await waitFor('the reactions on the studio socket', async () => received().find((e) => e.type === 'facebookReactions'), 10_000, 20);
    expect(first).toMatchObject({
      type: 'facebookReactions',
      platform: 'facebook',
      platformUsername: 'Facebook viewers',
      value: 5,
      data: { reactions: { LIKE: 3, LOVE: 2 } },
      avatar: null,
    });
    facebook.react({ HAHA: 1 });
    await waitFor('the second burst', async () => (received().filter((e) => e.type === 'facebookReactions').length === 2 ? true : undefined), 10_000, 20);
    const feed = await call(api, host, 'GET', `/api/v1/projects/${projectId}/events?types=facebookReactions`);
    expect(feed.status).toBe(200);
    expect((feed.body as { events: LiveEvent[] }).events.map((e) => e.value)).toEqual([1, 5]);
    // The stream carries the live video's reactions only; comments stay in the chat.
    expect(await api.db.chatMessage.count({ where: { projectId } })).toBe(0);
  });

  it('ends with the broadcast: the connector stops and gives its lease back', async () => {
    await api.db.broadcast.updateMany({ where: { projectId }, data: { state: 'ended', endedAt: new Date() } });
    await waitFor('the reaction stream closed', async () => (facebook.openReactionStreams === 0 ? true : undefined), 10_000, 20);
    await waitFor('the lease given back', async () => ((await api.redis.get(`onair:events:owner:${destinationId}`)) === null ? true : undefined), 10_000, 20);
  });
});

describe('a burst of reactions, normalised', () => {
  it('counts by type, drops zero counts, and is nothing without a reaction or in another shape', () => {
    const at = new Date('2026-11-28T10:00:00Z');
    expect(
      reactionsEvent(
        'v1',
        {
          reaction_stream: [
            { key: 'LIKE', value: 2 },
            { key: 'CARE', value: 1 },
          ],
        },
        at,
      ),
    ).toMatchObject({
      type: 'facebookReactions',
      value: 3,
      data: { reactions: { LIKE: 2, CARE: 1 } },
      platformCreatedAt: at,
    });
    expect(reactionsEvent('v1', { reaction_stream: [{ key: 'LIKE', value: 0 }] }, at)).toBeNull();
    expect(reactionsEvent('v1', { reaction_stream: [{ key: '<b>', value: 1 }] }, at)).toBeNull();
    expect(reactionsEvent('v1', { comments: [] }, at)).toBeNull();
  });
});
