/**
 * Platform chat (issue 16) end to end on the server: the real connectors (tmi.js over a real
 * WebSocket, fetch polling, a real server-sent event stream) against the chat doubles, through
 * the store and the api's /ws to a studio socket. Real PostgreSQL and Redis.
 */
import tmi from 'tmi.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatDoublesEnv, startChatDoubles, waitFor, type ChatDoubles } from '@onair/embedded';
import { CHAT_PLATFORM_TEXT_MAX } from '@onair/protocol';
import { createLiveChatProject, FAST_CHAT_ENV, StudioChatSocket, type ChatProject } from './helpers/chat.ts';
import { createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let doubles: ChatDoubles;
let api: StudioApi;
let host: TestUser;
let project: ChatProject;
let studio: StudioChatSocket;
const channel = 'adalive';

beforeAll(async () => {
  doubles = await startChatDoubles();
  api = await startStudioApi({ env: { ...chatDoublesEnv(doubles), ...FAST_CHAT_ENV } });
  host = await createTestUser(api, { plan: 'Premium' });
  // YouTube and Facebook are not live yet: their connectors wait (spec §9 retries).
  project = await createLiveChatProject(api.db, doubles, host.id, channel);
  studio = await StudioChatSocket.open(api.wsUrl, host.cookie, project.projectId);
});

afterAll(async () => {
  studio?.close();
  await api?.close();
  await doubles?.close();
});

/**
 * A Facebook comment that the studio receives. The connector gives a silent comment stream up after
 * CHAT_STREAM_STALL_MS (1.5 s here) and opens it again, and a comment posted in between is lost as
 * it would be on Facebook: it is posted once a stream is open, and again if it went to a stream that
 * was given up before the connector read it. Returns the id of the comment that arrived.
 */
async function facebookSays(text: string): Promise<string> {
  return waitFor(
    `'${text}' through Facebook`,
    async () => {
      if (doubles.facebook.openStreams === 0) return undefined;
      const id = doubles.facebook.comment('FB Friend', text);
      return (await studio.waitForChat((m) => m.content === text, 3000).catch(() => undefined)) ? id : undefined;
    },
    45_000,
    50,
  );
}

describe('connectors', () => {
  it('waits for YouTube and Facebook to go live, and says a platform without a connector is coming soon', async () => {
    const youtube = await studio.waitForState(project.youtube, 'connecting');
    await waitFor(
      'YouTube waiting for its broadcast',
      async () => (studio.stateOf(project.youtube)?.error === 'Waiting for YouTube to start the broadcast.' ? true : undefined),
      10_000,
      20,
    );
    expect(youtube.canSend).toBe(true);
    await waitFor(
      'Facebook waiting for its live video',
      async () => (studio.stateOf(project.facebook)?.error === 'Waiting for Facebook to start the live video.' ? true : undefined),
      10_000,
      20,
    );
    expect(studio.stateOf(project.trovo)).toMatchObject({ state: 'unsupported', error: 'Support for Trovo chat is coming soon.', canSend: false });
    expect(studio.stateOf(project.facebook)?.canSend).toBe(false);
    // The not-live retry asks again: going live is picked up.
    doubles.youtube.goLive();
    doubles.facebook.goLive();
    await studio.waitForState(project.youtube, 'live');
    await studio.waitForState(project.facebook, 'live');
    await studio.waitForState(project.twitch, 'live');
  });

  it('brings Twitch, YouTube and Facebook messages to one studio socket, with emotes and avatars', async () => {
    const twitchId = doubles.twitch.say(channel, { login: 'kappa_fan', displayName: 'Kappa_Fan', text: 'Kappa hello PogChamp', emotes: '25:0-4/88:12-19' });
    const youtubeId = doubles.youtube.post('YT Viewer', 'hi from youtube.com/live');
    const facebookId = await facebookSays('hello from facebook');
    const t = await studio.waitForChat((m) => m.platform === 'twitch' && m.content === 'Kappa hello PogChamp');
    expect(t.destinationId).toBe(project.twitch);
    expect(t.displayName).toBe('Kappa_Fan');
    expect(t.segments).toEqual([
      { kind: 'emoticon', value: 'Kappa', url: `${doubles.twitch.url}/emoticons/v2/25/default/dark/1.0` },
      { kind: 'text', value: ' hello ' },
      { kind: 'emoticon', value: 'PogChamp', url: `${doubles.twitch.url}/emoticons/v2/88/default/dark/1.0` },
    ]);
    expect((await fetch(t.segments[0]!.kind === 'emoticon' ? t.segments[0]!.url : '')).headers.get('content-type')).toBe('image/svg+xml');
    const y = await studio.waitForChat((m) => m.platform === 'youtube' && m.displayName === 'YT Viewer');
    expect(y.segments).toEqual([
      { kind: 'text', value: 'hi from ' },
      { kind: 'link', value: 'youtube.com/live', href: 'https://youtube.com/live' },
    ]);
    expect(y.avatar).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/avatars\//);
    const f = await studio.waitForChat((m) => m.platform === 'facebook' && m.content === 'hello from facebook');
    expect(f.avatar).toMatch(/\/pictures\/\d+\.png$/);
    const stored = await api.db.chatMessage.findMany({ where: { projectId: project.projectId, platformMessageId: { in: [twitchId, youtubeId, facebookId] } } });
    expect(stored.map((r) => r.platform).sort()).toEqual(['facebook', 'twitch', 'youtube']);
    expect(stored.every((r) => r.broadcastId === project.broadcastId)).toBe(true);
    // YouTube was polled as the API asks: up to 2000 items a page, from the last page token on.
    const polls = doubles.youtube.calls.filter((c) => c.path.endsWith('/liveChat/messages') && c.method === 'GET');
    expect(polls.every((c) => c.query.maxResults === '2000')).toBe(true);
    expect(polls.some((c) => c.query.pageToken !== undefined)).toBe(true);
    // Facebook's stream was asked for the comment rate and fields, and the avatar at 450×450.
    expect(doubles.facebook.streamsOpened.at(-1)).toMatchObject({ commentRate: 'one_hundred_per_second', fields: 'from{name,id},message,created_time' });
    expect(doubles.facebook.calls.some((c) => c.path.endsWith('/picture') && c.query.height === '450' && c.query.width === '450')).toBe(true);
  });

  it('stores and shows a platform message once, whatever the platform repeats', async () => {
    const id = 'repeated-twitch-id';
    doubles.twitch.say(channel, { login: 'echo', text: 'once', id });
    doubles.twitch.say(channel, { login: 'echo', text: 'once', id });
    doubles.youtube.post('Echo', 'once on youtube', 'yt-repeated');
    doubles.youtube.post('Echo', 'once on youtube', 'yt-repeated');
    doubles.twitch.say(channel, { login: 'echo', text: 'after' });
    await studio.waitForChat((m) => m.content === 'after');
    await studio.waitForChat((m) => m.content === 'once on youtube');
    // A later poll of YouTube would show a third copy by now if the store let it through.
    const pollsBefore = doubles.youtube.calls.length;
    await waitFor('two more YouTube polls', async () => (doubles.youtube.calls.length >= pollsBefore + 2 ? true : undefined), 10_000, 20);
    await new Promise((r) => setTimeout(r, 100));
    expect(studio.chatMessages().filter((m) => m.content === 'once')).toHaveLength(1);
    expect(studio.chatMessages().filter((m) => m.content === 'once on youtube')).toHaveLength(1);
    expect(await api.db.chatMessage.count({ where: { platformMessageId: { in: [id, 'yt-repeated'] } } })).toBe(2);
  });

  it('answers the PING of Twitch with PONG', async () => {
    const before = doubles.twitch.pongs;
    doubles.twitch.ping();
    await waitFor('a PONG', async () => (doubles.twitch.pongs > before ? true : undefined), 5000, 20);
  });

  it('answers the PING of tmi.js (its keep-alive) with the PONG it measures latency by', async () => {
    // tmi.js pings every minute and drops the connection when no prefix-less PONG comes back
    // (a ":tmi.twitch.tv PONG" line is "a message it cannot parse", then a ping timeout).
    const url = new URL(doubles.twitch.wsUrl);
    const client = new tmi.Client({
      connection: { server: url.hostname, port: Number(url.port), secure: false, reconnect: false },
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    });
    await client.connect();
    try {
      const [latency] = await client.ping();
      expect(latency).toBeGreaterThanOrEqual(0);
    } finally {
      await client.disconnect();
    }
  });
});

describe('sending', () => {
  it('sends to two platforms at once, records the message once with an outcome per platform, and does not show YouTube’s copy again', async () => {
    studio.send({ type: 'chat.send', projectId: project.projectId, text: '  thanks for watching!  ', targets: [project.twitch, project.youtube] });
    const sent = await studio.waitForChat(
      (m) => m.direction === 'outbound' && m.content === 'thanks for watching!' && m.deliveries.every((d) => d.state !== 'pending'),
    );
    const byId = (a: { destinationId: string }, b: { destinationId: string }) => a.destinationId.localeCompare(b.destinationId);
    expect(sent.deliveries).toEqual(
      [
        { destinationId: project.twitch, state: 'sent' },
        { destinationId: project.youtube, state: 'sent' },
      ].sort(byId),
    );
    expect(doubles.twitch.sent).toContainEqual({ login: channel, channel: `#${channel}`, text: 'thanks for watching!' });
    expect(doubles.youtube.inserted.map((i) => i.text)).toContain('thanks for watching!');
    expect(await api.db.chatMessage.count({ where: { projectId: project.projectId, content: 'thanks for watching!' } })).toBe(1);
    // YouTube lists the inserted message in its next page: it is the same message, not a new one.
    const pollsBefore = doubles.youtube.calls.length;
    await waitFor('two more YouTube polls', async () => (doubles.youtube.calls.length >= pollsBefore + 2 ? true : undefined), 10_000, 20);
    await new Promise((r) => setTimeout(r, 100));
    expect(studio.chatMessages().filter((m) => m.content === 'thanks for watching!')).toHaveLength(1);
  });

  it('shows a failure on one platform beside the message while the other succeeds', async () => {
    doubles.youtube.failNext(500, 1, 'POST');
    studio.send({ type: 'chat.send', projectId: project.projectId, text: 'second reply', targets: [project.twitch, project.youtube] });
    const sent = await studio.waitForChat((m) => m.content === 'second reply' && m.deliveries.every((d) => d.state !== 'pending'));
    expect(sent.deliveries).toHaveLength(2);
    expect(sent.deliveries).toContainEqual({ destinationId: project.twitch, state: 'sent' });
    expect(sent.deliveries).toContainEqual({ destinationId: project.youtube, state: 'failed', error: 'YouTube did not answer. Try again in a moment.' });
    expect(doubles.twitch.sent.map((s) => s.text)).toContain('second reply');
  });

  it('refuses text outside 1–200 characters, Facebook as a target, and anyone whose role does not manage the broadcast', async () => {
    studio.send({ type: 'chat.send', projectId: project.projectId, text: 'x'.repeat(201), targets: [project.twitch] });
    await studio.waitFor((m) => m.type === 'error' && m.code === 'VALIDATION_FAILED' && /at most 200/.test(m.message));
    studio.send({ type: 'chat.send', projectId: project.projectId, text: 'hi', targets: [project.facebook] });
    await studio.waitFor((m) => m.type === 'error' && m.code === 'CHAT_TARGET_INVALID');
    const viewer = await createTestUser(api);
    await api.db.projectMember.create({ data: { projectId: project.projectId, userId: viewer.id, role: 'contributor' } });
    const other = await StudioChatSocket.open(api.wsUrl, viewer.cookie, project.projectId);
    other.send({ type: 'chat.send', projectId: project.projectId, text: 'hi', targets: [project.twitch] });
    await other.waitFor((m) => m.type === 'error' && m.code === 'FORBIDDEN');
    other.close();
  });
});

describe('history', () => {
  it('gives a studio that opens the recent non-private messages of the broadcast', async () => {
    doubles.twitch.whisper(channel, { login: 'secret_fan', text: 'a private whisper' });
    await studio.waitForChat((m) => m.content === 'a private whisper' && m.private);
    const guest = await createTestUser(api);
    await api.db.projectMember.create({ data: { projectId: project.projectId, userId: guest.id, role: 'guest' } });
    const late = await StudioChatSocket.open(api.wsUrl, guest.cookie, project.projectId);
    late.send({ type: 'chat.history.request', projectId: project.projectId });
    const history = await late.waitFor((m) => m.type === 'chat.history');
    if (history.type !== 'chat.history') throw new Error('not a history');
    expect(history.live).toBe(true);
    const contents = history.messages.map((m) => m.content);
    expect(contents).toContain('Kappa hello PogChamp');
    expect(contents).toContain('thanks for watching!');
    expect(contents).not.toContain('a private whisper');
    // Each platform message once, though 'once' was said twice on Twitch and listed twice by YouTube.
    expect(contents.filter((c) => c === 'once')).toHaveLength(1);
    late.close();
  });
});

describe('bad input and failures', () => {
  it('shows markup as the text it is, cuts a 10 000-character message, and ignores malformed IRC lines', async () => {
    doubles.twitch.raw(channel, '@badtags :::: PRIVMSG');
    doubles.twitch.raw(channel, 'complete garbage without structure');
    doubles.twitch.say(channel, { login: 'markup', text: '<script>alert(1)</script><b>bold</b>' });
    doubles.twitch.say(channel, { login: 'flood', text: 'y'.repeat(10_000) });
    doubles.twitch.say(channel, { login: 'after', text: 'still reading' });
    const markup = await studio.waitForChat((m) => m.displayName === 'markup');
    expect(markup.content).toBe('<script>alert(1)</script><b>bold</b>');
    expect(markup.segments).toEqual([{ kind: 'text', value: '<script>alert(1)</script><b>bold</b>' }]);
    const flood = await studio.waitForChat((m) => m.displayName === 'flood');
    expect(flood.content.length).toBe(CHAT_PLATFORM_TEXT_MAX + 1);
    await studio.waitForChat((m) => m.content === 'still reading');
  });

  it('drops Facebook events that are not comments, and opens a stalled stream again', async () => {
    await waitFor('an open comment stream', async () => (doubles.facebook.openStreams > 0 ? true : undefined), 10_000, 20);
    doubles.facebook.garbage('{not json');
    doubles.facebook.garbage(JSON.stringify({ hello: 'no id' }));
    await facebookSays('after the garbage');
    const opened = doubles.facebook.streamsOpened.length;
    await fetch(`${doubles.facebook.url}/_double/stall`, { method: 'POST' });
    doubles.facebook.comment('FB Friend', 'sent while stalled');
    // The stalled stream is given up after CHAT_STREAM_STALL_MS and opened again.
    await waitFor('a new comment stream', async () => (doubles.facebook.streamsOpened.length > opened ? true : undefined), 10_000, 20);
    doubles.facebook.comment('FB Friend', 'after the stall');
    await studio.waitForChat((m) => m.content === 'after the stall');
  });

  it('retries YouTube after 500s and 429s and Twitch after a lost connection, while the others go on', async () => {
    doubles.youtube.failNext(429, 2, 'GET');
    await studio.waitForState(project.youtube, 'reconnecting');
    doubles.twitch.say(channel, { login: 'during', text: 'twitch while youtube fails' });
    await studio.waitForChat((m) => m.content === 'twitch while youtube fails');
    await studio.waitForState(project.youtube, 'live');
    doubles.youtube.post('YT Viewer', 'youtube is back');
    await studio.waitForChat((m) => m.content === 'youtube is back');

    doubles.twitch.drop(1000);
    await studio.waitForState(project.twitch, 'reconnecting');
    await facebookSays('facebook while twitch is down');
    await studio.waitForState(project.twitch, 'live');
    doubles.twitch.say(channel, { login: 'back', text: 'twitch is back' });
    await studio.waitForChat((m) => m.content === 'twitch is back');
  });

  it("refreshes the token once after Twitch's 'Login authentication failed' and reconnects", async () => {
    const before = await api.db.destination.findUniqueOrThrow({ where: { id: project.twitch } });
    doubles.twitch.expireTokens();
    doubles.twitch.drop(300);
    await waitFor(
      'a refreshed Twitch token',
      async () => {
        const row = await api.db.destination.findUniqueOrThrow({ where: { id: project.twitch } });
        return row.accessTokenEnc !== before.accessTokenEnc ? true : undefined;
      },
      15_000,
      50,
    );
    await studio.waitForState(project.twitch, 'live');
    studio.send({ type: 'chat.send', projectId: project.projectId, text: 'sent with the new token', targets: [project.twitch] });
    const sent = await studio.waitForChat((m) => m.content === 'sent with the new token' && m.deliveries[0]?.state !== 'pending');
    expect(sent.deliveries[0]?.state).toBe('sent');
    expect(doubles.twitch.sent.map((s) => s.text)).toContain('sent with the new token');
  });

  it('refreshes the token once after a YouTube 401 and polls on', async () => {
    const before = await api.db.destination.findUniqueOrThrow({ where: { id: project.youtube } });
    doubles.youtube.expireTokens();
    await waitFor(
      'a refreshed YouTube token',
      async () => {
        const row = await api.db.destination.findUniqueOrThrow({ where: { id: project.youtube } });
        return row.accessTokenEnc !== before.accessTokenEnc ? true : undefined;
      },
      15_000,
      50,
    );
    doubles.youtube.post('YT Viewer', 'after the refresh');
    await studio.waitForChat((m) => m.content === 'after the refresh');
  });

  it('has exactly one owner for each chat, and lets it go when the broadcast ends', async () => {
    const owners = await Promise.all([project.twitch, project.youtube, project.facebook].map((id) => api.redis.get(`onair:chat:owner:${id}`)));
    expect(owners.every((o) => o !== null && o === owners[0])).toBe(true);
    await api.db.broadcast.update({ where: { id: project.broadcastId }, data: { state: 'ended', endedAt: new Date() } });
    await waitFor('the chats given up', async () => ((await api.redis.exists(`onair:chat:owner:${project.twitch}`)) === 0 ? true : undefined), 10_000, 50);
    await studio.waitForState(project.twitch, 'offline');
    await waitFor('Twitch left', async () => (doubles.twitch.joined(channel).length === 0 ? true : undefined), 10_000, 50);
    studio.send({ type: 'chat.send', projectId: project.projectId, text: 'too late', targets: [project.twitch] });
    const refusal = await studio.waitFor((m) => m.type === 'error' && m.code === 'CHAT_NOT_LIVE');
    expect(refusal).toMatchObject({ message: 'Start the stream to use the chat' });
  });
});
