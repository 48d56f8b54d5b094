// The chatbot against the Twitch doubles on real sockets (issue 22 acceptance): viewers write in
// the IRC chat double; the bot reads it through the platform chat's connector and answers,
// removes, times out and changes chat settings through the Helix double, whose messages come
// back into the chat. The bot's clock is the test's (cooldowns, timers, points over an hour).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXTRAS, DEFAULT_FILTERS, DEFAULT_LOYALTY, type ChatbotConfig } from '@onair/protocol';
import { startTwitchChatDouble, waitFor, type TwitchChatDouble, type TwitchChatLine } from '@onair/embedded';
import { createLogger } from '@onair/runtime';
import { loadConfig } from '../src/config.ts';
import { startChatbots, type Chatbots } from '../src/chatbot/index.ts';
import { compose, type Composition } from '../src/compose.ts';
import { EventsStore } from '../src/events/events-store.ts';
import { linkTwitch } from './helpers/partner.ts';
import { startTwitchDouble, type TwitchDouble } from './helpers/platform-doubles/twitch-double.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

const BOT_ID = '987654321';
let api: StudioApi;
let irc: TwitchChatDouble;
let twitch: TwitchDouble;
let chatbots: Chatbots;
let bots: Composition;
let clock = Date.UTC(2026, 10, 25, 18);
let owner: TestUser;
const login = `ada${randomUUID().slice(0, 6)}`;
const base = () => `/api/v1/partner/channels/${owner.id}/chatbot`;
const replies = () => twitch.chat.messages.map((m) => m.text);
const runner = () => chatbots.supervisor!.runner(owner.id)!;

function say(line: TwitchChatLine): string {
  return irc.say(login, line);
}

/** Says `!ping` and waits for its answer: every message before it has been handled by then (one line, in order). */
let pings = 0;
async function settle(): Promise<void> {
  const n = ++pings;
  say({ login: 'pinger', text: `!ping ${n}` });
  await waitFor(`pong ${n}`, async () => (replies().includes(`pong ${n}`) ? true : undefined), 20_000, 20);
}

/** A change saved through the api, and the running bot's reload of it (told over Redis). */
async function change(method: 'PUT' | 'POST', path: string, body: unknown): Promise<unknown> {
  const bot = chatbots.supervisor!.runner(owner.id);
  const before = bot?.reloads ?? 0;
  const res = await call(api, owner, method, `${base()}/${path}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(method === 'POST' ? 201 : 200);
  if (bot) await waitFor(`the bot to reload ${path}`, async () => (bot.reloads > before ? true : undefined), 10_000, 10);
  return res.body;
}
const put = (path: string, body: unknown) => change('PUT', path, body);
const post = (path: string, body: unknown) => change('POST', path, body);

beforeAll(async () => {
  [irc, twitch] = await Promise.all([startTwitchChatDouble(), startTwitchDouble()]);
  twitch.moderators.add(BOT_ID);
  // What the bot sends through Helix appears in the chat, as on Twitch.
  twitch.onChatMessage = (_b, _s, text) => void irc.say(login, { login: 'onairbot', text });
  const env = {
    ...twitch.env(),
    TWITCH_CHAT_URL: irc.wsUrl,
    TWITCH_EMOTE_URL: `${irc.url}/emoticons/v2`,
    CHATBOT_TWITCH_USER_ID: BOT_ID,
    CHATBOT_TWITCH_LOGIN: 'onairbot',
    CHATBOT_TWITCH_TOKEN: twitch.issueAccessToken(),
    PLATFORM_SUPERVISE_MS: '200',
    PLATFORM_OWNER_LEASE_MS: '2000',
    CHAT_TWITCH_RECONNECT_MS: '300',
    // Twitch is asked whether the channel is live five times a second here (a minute by default).
    CHATBOT_LIVE_POLL_MS: '200',
    // The test moves the clock and ticks itself.
    CHATBOT_TICK_MS: '3600000',
  };
  api = await startStudioApi({ env: { ...env, CHATBOT_RUNNERS: 'false' } });
  const config = loadConfig({ DATABASE_URL: api.databaseUrl, REDIS_URL: 'redis://unused', ...env });
  bots = compose({
    config: { ...config, REDIS_URL: '' },
    db: api.db,
    redis: api.redis,
    logger: createLogger('chatbot-test', 'silent'),
    now: () => new Date(clock),
  });
  chatbots = await startChatbots(bots);
  owner = await createTestUser(api);
  await linkTwitch(api, owner, login);
  await post('commands', { command: '!ping', message: 'pong {args}', globalCooldownSeconds: 0 });
  expect((await call(api, owner, 'PUT', `${base()}/connection`, { enabled: true })).status).toBe(200);
  await waitFor('the bot in the chat', async () => (irc.joined(login).length > 0 && chatbots.supervisor!.runner(owner.id) ? true : undefined), 20_000, 50);
  await waitFor(
    'a healthy bot',
    async () => (((await call(api, owner, 'GET', base())).body as ChatbotConfig).connection.health === 'healthy' ? true : undefined),
    20_000,
    100,
  );
}, 120_000);

afterAll(async () => {
  await chatbots?.close();
  await bots?.close();
  await api?.close();
  await irc?.close();
  await twitch?.close();
});

describe('commands', () => {
  it('a command with cooldowns answers once per cooldown', async () => {
    await post('commands', { command: '!hello', message: 'Hello {user}, welcome to {game}!', globalCooldownSeconds: 30, userCooldownSeconds: 0 });
    for (const viewer of ['bo', 'cy', 'bo']) say({ login: viewer, text: '!hello' });
    await settle();
    expect(replies().filter((t) => t.startsWith('Hello'))).toEqual(['Hello bo, welcome to Just Chatting!']);
    clock += 31_000;
    say({ login: 'cy', text: '!hello' });
    await settle();
    expect(replies().filter((t) => t.startsWith('Hello'))).toEqual(['Hello bo, welcome to Just Chatting!', 'Hello cy, welcome to Just Chatting!']);
  });

  it('template injection stays text; a 500-character command name is refused', async () => {
    await post('commands', { command: '!echo', message: '{sender}: {args}', globalCooldownSeconds: 0 });
    say({ login: 'mallory', text: '!echo {title} {{user}} {count} <script>x</script>' });
    await settle();
    expect(replies()).toContain('mallory: {title} {{user}} {count} <script>x</script>');
    expect((await call(api, owner, 'POST', `${base()}/commands`, { command: `!${'x'.repeat(499)}`, message: 'x' })).status).toBe(400);
  });
});

describe('filters and warnings', () => {
  it('each filter removes what it must and spares emotes; the third warning times out for the configured duration', async () => {
    const filters = structuredClone(DEFAULT_FILTERS);
    filters.caps = { enabled: true, punishment: 'remove-silent', minPercent: 70, minLength: 10 };
    filters.links = { enabled: true, punishment: 'remove-notice', whitelist: 'twitch.tv', permitSeconds: 60 };
    filters.symbols = { enabled: true, punishment: 'remove-silent', minPercent: 60, minLength: 10 };
    filters.emotes = { enabled: true, punishment: 'remove-silent', maxCount: 4 };
    filters.bannedWords = { enabled: true, punishment: 'remove-notice-warn', patterns: ['(a+)+$', 'frick'] };
    await put('filters', filters);
    await put('warning-levels', { levels: [{ warnings: 3, action: 'timeout', duration: 10, unit: 'minutes' }] });
    const shout = say({ login: 'loud', text: 'WHY IS NOBODY TALKING' });
    // Twitch's emotes tag marks KEKW and LUL as emotes: capitals there are not shouting.
    const emotes = say({ login: 'fan', text: 'KEKW KEKW LUL so funny', emotes: '1:0-3,5-8/2:10-12' });
    const link = say({ login: 'spam', text: 'free stuff at evil.example/win' });
    const ok = say({ login: 'fan2', text: 'clip: https://clips.twitch.tv/abc' });
    const symbols = say({ login: 'sym', text: '$$$ !!! ### %%% &&&' });
    const flood = say({ login: 'emo', text: 'a b c d e', emotes: '1:0-0/2:2-2/3:4-4/4:6-6/5:8-8' });
    const evil = say({ login: 'redos', text: `${'a'.repeat(30_000)}!` });
    await settle();
    expect(new Set(twitch.chat.deleted.map((d) => d.messageId))).toEqual(new Set([shout, link, symbols, flood]));
    expect(twitch.chat.deleted.every((d) => d.moderatorId === BOT_ID)).toBe(true);
    expect(replies()).toContain('@spam, links are not allowed here without permission.');
    for (const spared of [emotes, ok, evil]) expect(twitch.chat.deleted.map((d) => d.messageId)).not.toContain(spared);

    for (let i = 0; i < 3; i++) say({ login: 'potty', text: `oh frick ${i}` });
    await settle();
    expect(twitch.chat.bans).toHaveLength(1);
    expect(twitch.chat.bans[0]).toMatchObject({ duration: 600 });
    expect(replies()).toContain('@potty was timed out for 10 minutes: that word is not allowed here.');
    await put('filters', DEFAULT_FILTERS);
  });
});

describe('timers, loyalty, quotes, alerts', () => {
  it('a timer fires only while live and after its minimum lines', async () => {
    await put('timer-settings', { intervalMinutes: 5, onlyWhileLive: true, minChatLines: 3 });
    await post('timers', { name: 'Socials', message: 'Follow {url} for more!' });
    await runner().tick();
    for (let i = 0; i < 4; i++) say({ login: 'chatty', text: `line ${i}` });
    await settle();
    clock += 6 * 60_000;
    await runner().tick();
    await settle();
    expect(replies().filter((t) => t.startsWith('Follow'))).toEqual([]);
    const project = await api.db.project.create({ data: { ownerId: owner.id, name: 'Stream' } });
    await api.db.broadcast.create({ data: { projectId: project.id, state: 'live', startedAt: new Date() } });
    await new Promise((r) => setTimeout(r, 1100));
    await runner().tick();
    clock += 6 * 60_000;
    await runner().tick();
    // The lines said while off air do not count: the interval and the lines start with the stream.
    expect(replies().filter((t) => t.startsWith('Follow'))).toEqual([]);
    for (let i = 0; i < 2; i++) say({ login: 'chatty', text: `live line ${i}` });
    await settle();
    await runner().tick();
    await waitFor('the timer', async () => (replies().some((t) => t.startsWith('Follow')) ? true : undefined), 10_000, 20);
    expect(replies().filter((t) => t.startsWith('Follow'))).toEqual([`Follow https://twitch.tv/${login} for more!`]);
    // The stream stays live for the points below (viewing and chatting both pay while live).
  });

  it('points accrue for a viewer over a simulated hour and a point-cost command spends them', async () => {
    const loyalty = structuredClone(DEFAULT_LOYALTY);
    loyalty.program = 'points';
    loyalty.points.whileViewing = { enabled: true, amount: 10, intervalMinutes: 15 };
    loyalty.points.whileChatting = { enabled: true, amount: 5, intervalMinutes: 15 };
    await put('loyalty', loyalty);
    await post('commands', { command: '!hydrate', message: '{sender} spent 50 points: drink water!', pointCost: 50, globalCooldownSeconds: 0 });
    await runner().tick();
    for (let q = 0; q < 4; q++) {
      say({ login: 'loyal', text: `still here ${q}` });
      await settle();
      clock += 15 * 60_000;
      await runner().tick();
    }
    const viewer = await api.db.chatbotViewer.findFirst({ where: { channelId: owner.id, login: 'loyal' } });
    expect(viewer?.points).toBe(60);
    say({ login: 'loyal', text: '!hydrate' });
    say({ login: 'loyal', text: '!points' });
    await settle();
    expect(replies()).toContain('loyal spent 50 points: drink water!');
    expect(replies()).toContain('@loyal has 10 points.');
    say({ login: 'loyal', text: '!hydrate' });
    await settle();
    expect(replies()).toContain('@loyal, !hydrate costs 50 points; you have 10.');
    await put('loyalty', DEFAULT_LOYALTY);
  });

  it('a quote is added and recalled by number', async () => {
    say({ login: 'mod1', text: '!addquote Never skip leg day - Ada', badges: 'moderator/1' });
    await settle();
    const added = replies().find((t) => t.startsWith('Quote #'))!;
    const n = /^Quote #(\d+) added: "Never skip leg day" — Ada$/.exec(added)?.[1];
    expect(n).toBeDefined();
    say({ login: 'viewer', text: `!quote ${n}` });
    await settle();
    const day = new Date(clock).toISOString().slice(0, 10);
    expect(replies()).toContain(`Quote #${n}: "Never skip leg day" — Ada (${day})`);
  });

  it('a follow produces the chat alert', async () => {
    const project = await api.db.project.create({ data: { ownerId: owner.id, name: 'Alerts' } });
    const store = new EventsStore(api.db, api.redis, createLogger('events-test', 'silent'));
    const follow = {
      platformEventId: randomUUID(),
      type: 'follow',
      platformUsername: 'NewFan',
      platformUserId: '42',
      avatar: null,
      value: null,
      data: {},
      platformCreatedAt: new Date(),
      replay: false,
      suppressed: false,
    };
    await store.store({ id: null, projectId: project.id, platform: 'twitch' }, [follow]);
    await store.store({ id: null, projectId: project.id, platform: 'twitch' }, [follow]);
    await waitFor('the follow alert', async () => (replies().includes('Thank you for following, NewFan!') ? true : undefined), 10_000, 20);
    await settle();
    expect(replies().filter((t) => t === 'Thank you for following, NewFan!')).toHaveLength(1);
  });
});

describe('bad input', () => {
  it('a flood of 5 000 messages in a second and a Helix 429: the bot stays up and answers after', async () => {
    const filters = structuredClone(DEFAULT_FILTERS);
    filters.bannedWords = { enabled: true, punishment: 'remove-silent', patterns: ['spamword'] };
    await put('filters', filters);
    const deletedBefore = twitch.chat.deleted.length;
    const removed: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const id = say({ login: `raider${i % 50}`, text: i % 10 === 0 ? `spamword ${i}` : `hello ${i}` });
      if (i % 10 === 0) removed.push(id);
    }
    await settle();
    await waitFor('500 removals', async () => (twitch.chat.deleted.length - deletedBefore >= 500 ? true : undefined), 30_000, 50);
    expect(new Set(twitch.chat.deleted.slice(deletedBefore).map((d) => d.messageId))).toEqual(new Set(removed));

    const refusedBefore = twitch.calls.length;
    twitch.forceRateLimited = 3;
    await settle();
    expect(twitch.calls.length - refusedBefore).toBeGreaterThanOrEqual(4);
    expect(runner().stats.helix.rateLimited).toBeGreaterThanOrEqual(3);
    await put('filters', DEFAULT_FILTERS);
  });
});

describe('live from Twitch, viewers from the chatters list, !watchtime and !rank', () => {
  let twitchId = '';
  const follows = () => replies().filter((t) => t.startsWith('Follow')).length;
  const lurkers = Array.from({ length: 2500 }, (_, i) => `lurker${i}`);

  beforeAll(async () => {
    twitchId = (await api.db.account.findFirstOrThrow({ where: { userId: owner.id, providerId: 'twitch' } })).accountId;
    // OnAir's own broadcast ends: from here on only Twitch says whether the channel is live.
    await api.db.broadcast.updateMany({ where: { project: { ownerId: owner.id } }, data: { state: 'ended' } });
    await put('timer-settings', { intervalMinutes: 5, onlyWhileLive: true, minChatLines: 0 });
    await new Promise((r) => setTimeout(r, 1100));
  });

  it('a creator streaming to Twitch without OnAir is seen live: the timer fires', async () => {
    const before = follows();
    await runner().tick();
    clock += 6 * 60_000;
    await runner().tick();
    // Neither OnAir nor Twitch has the channel live: nothing.
    expect(follows()).toBe(before);
    expect(runner().liveOnTwitch).toBe(false);
    twitch.channels.set(twitchId, { followers: 0, subscribers: 0, viewers: 12 });
    // The bot's own poll (every CHATBOT_LIVE_POLL_MS) sees it.
    await waitFor('Twitch seen live', async () => (runner().liveOnTwitch ? true : undefined), 10_000, 20);
    expect(twitch.calls.some((c) => c.path === '/helix/streams' && c.query.user_id === twitchId)).toBe(true);
    await runner().tick();
    clock += 6 * 60_000;
    await runner().tick();
    await waitFor('the timer', async () => (follows() > before ? true : undefined), 10_000, 20);
    expect(follows()).toBe(before + 1);
  });

  it("viewers in Twitch's chatters list (2 500, three pages) earn while viewing; a refused list falls back to recent chatters and says so", async () => {
    const loyalty = structuredClone(DEFAULT_LOYALTY);
    loyalty.program = 'points';
    loyalty.points.whileViewing = { enabled: true, amount: 10, intervalMinutes: 15 };
    loyalty.points.whileChatting = { enabled: false, amount: 5, intervalMinutes: 15 };
    await put('loyalty', loyalty);
    await runner().tick();
    twitch.chatters.set(
      twitchId,
      [...lurkers, 'onairbot'].map((l) => ({ user_id: irc.userIdOf(l), user_login: l, user_name: l })),
    );
    const pagesBefore = twitch.calls.filter((c) => c.path === '/helix/chat/chatters').length;
    clock += 15 * 60_000;
    await runner().tick();
    const pages = twitch.calls.filter((c) => c.path === '/helix/chat/chatters').slice(pagesBefore);
    expect(pages).toHaveLength(3);
    expect(pages.every((c) => c.query.moderator_id === BOT_ID && c.query.broadcaster_id === twitchId)).toBe(true);
    const earned = await api.db.chatbotViewer.findMany({ where: { channelId: owner.id, login: { in: [...lurkers, 'onairbot'] } } });
    expect(earned).toHaveLength(2500);
    expect(earned.every((v) => v.points === 10 && v.secondsWatched === 15 * 60)).toBe(true);

    twitch.chattersScopeMissing = true;
    clock += 15 * 60_000;
    await runner().tick();
    expect((await api.db.chatbotViewer.findFirstOrThrow({ where: { channelId: owner.id, login: 'lurker0' } })).points).toBe(10);
    const health = async () => ((await call(api, owner, 'GET', base())).body as ChatbotConfig).connection;
    await waitFor('the notice in the health', async () => ((await health()).notices.length > 0 ? true : undefined), 10_000, 50);
    const connection = await health();
    expect(connection.health).toBe('healthy');
    expect(connection.notices[0]).toMatch(/^Viewers who do not chat earn no points or hours watched: Twitch refused the bot the chatters list/);
    twitch.chattersScopeMissing = false;
    clock += 15 * 60_000;
    await runner().tick();
    expect((await api.db.chatbotViewer.findFirstOrThrow({ where: { channelId: owner.id, login: 'lurker0' } })).points).toBe(20);
    await waitFor('the notice gone', async () => ((await health()).notices.length === 0 ? true : undefined), 10_000, 50);
    await put('loyalty', DEFAULT_LOYALTY);
  });

  it('a viewer asks !watchtime and !rank in chat and gets their hours and rank, once per cooldown', async () => {
    const loyalty = structuredClone(DEFAULT_LOYALTY);
    loyalty.program = 'ranks';
    await put('loyalty', loyalty);
    await put('ranks', {
      ranks: [
        { name: 'Lurker', hoursWatched: 0 },
        { name: 'Regular', hoursWatched: 5 },
      ],
    });
    await put('extras', { ...DEFAULT_EXTRAS, statsUserCooldownSeconds: 60 });
    const seconds = (await api.db.chatbotViewer.findFirstOrThrow({ where: { channelId: owner.id, login: 'lurker7' } })).secondsWatched;
    expect(seconds).toBe(30 * 60);
    say({ login: 'lurker7', text: '!watchtime' });
    say({ login: 'lurker7', text: '!rank' });
    say({ login: 'lurker7', text: '!rank' });
    await settle();
    expect(replies().filter((t) => t.startsWith('@lurker7'))).toEqual([
      '@lurker7 has watched 30 minutes here.',
      '@lurker7 is Lurker (30 minutes watched); Regular at 5 hours.',
    ]);
    clock += 61_000;
    say({ login: 'lurker7', text: '!rank' });
    await settle();
    expect(replies().filter((t) => t.startsWith('@lurker7 is'))).toHaveLength(2);
    await put('loyalty', DEFAULT_LOYALTY);
  });
  it('the Regulars program makes a viewer a regular by themselves after the hours set, and a Regulars command then answers them', async () => {
    const loyalty = structuredClone(DEFAULT_LOYALTY);
    loyalty.program = 'regulars';
    loyalty.regulars = { autoPromote: true, hoursWatched: 1 };
    await put('loyalty', loyalty);
    await post('commands', { command: '!lounge', message: 'Welcome to the lounge, {sender}', permission: 'regular', globalCooldownSeconds: 0 });
    await runner().tick();
    say({ login: 'lurker8', text: '!lounge' });
    await settle();
    expect(replies()).not.toContain('Welcome to the lounge, lurker8');
    // lurker8 watched 30 minutes so far; 30 more in the chatters list makes the hour.
    twitch.chatters.set(twitchId, [{ user_id: irc.userIdOf('lurker8'), user_login: 'lurker8', user_name: 'lurker8' }]);
    clock += 30 * 60_000;
    await runner().tick();
    await waitFor(
      'lurker8 a regular',
      async () => (((await call(api, owner, 'GET', base())).body as ChatbotConfig).regulars.some((r) => r.username === 'lurker8') ? true : undefined),
      10_000,
      50,
    );
    const regulars = ((await call(api, owner, 'GET', base())).body as ChatbotConfig).regulars.map((r) => r.username);
    expect(regulars).not.toContain('lurker9');
    say({ login: 'lurker8', text: '!lounge' });
    await settle();
    expect(replies()).toContain('Welcome to the lounge, lurker8');
    await put('loyalty', DEFAULT_LOYALTY);
  });
});
