// Issue 40 (items 1 and 6) against the Twitch doubles on real sockets, real PostgreSQL and Redis:
// giveaways run from the partner area (entries from the IRC chat double, the draw, its
// announcement and the raffle-win reward), every Points event reward paid once although the
// event is delivered twice, a cooldown kept over a takeover between two chatbot runtimes, and the
// hate-raid guard armed by a raid removing a flood in bulk within Helix's limits (the Twitch
// double counts the calls). The bots' clock is the test's.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHATBOT_EVENTS_CHANNEL, DEFAULT_LOYALTY, DEFAULT_MODERATION, type ChatbotConfig, type LiveEvent, type Raffle } from '@onair/protocol';
import { startTwitchChatDouble, waitFor, type TwitchChatDouble, type TwitchChatLine } from '@onair/embedded';
import { createLogger } from '@onair/runtime';
import { loadConfig } from '../src/config.ts';
import { startChatbots, type Chatbots } from '../src/chatbot/index.ts';
import { compose, type Composition } from '../src/compose.ts';
import { linkTwitch } from './helpers/partner.ts';
import { startTwitchDouble, type TwitchDouble } from './helpers/platform-doubles/twitch-double.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

const BOT_ID = '987654001';
const PURGE_PER_SECOND = 8;
let api: StudioApi;
let irc: TwitchChatDouble;
let twitch: TwitchDouble;
// The bots' clock starts at the api's (which opens giveaways on real time) and only moves forward.
let clock = Date.now();
let owner: TestUser;
let projectId: string;
const login = `gw${randomUUID().slice(0, 6)}`;
const base = () => `/api/v1/partner/channels/${owner.id}/chatbot`;
const replies = () => twitch.chat.messages.map((m) => m.text);

/** One chatbot runtime (an api replica's bots) on the shared database and Redis. */
interface Runtime {
  chatbots: Chatbots;
  composition: Composition;
}
const runtimes: Runtime[] = [];
let env: Record<string, string>;

async function startRuntime(): Promise<Runtime> {
  const config = loadConfig({ DATABASE_URL: api.databaseUrl, REDIS_URL: 'redis://unused', ...env });
  const composition = compose({
    config: { ...config, REDIS_URL: '' },
    db: api.db,
    redis: api.redis.duplicate(),
    logger: createLogger('chatbot-giveaways-test', 'silent'),
    now: () => new Date(clock),
  });
  const runtime = { chatbots: await startChatbots(composition), composition };
  runtimes.push(runtime);
  return runtime;
}

/** The runtime running the channel's bot now, once it is in the chat. */
async function running(): Promise<Runtime> {
  return waitFor(
    'a runtime running the bot',
    async () => runtimes.find((r) => r.chatbots.supervisor?.runner(owner.id)?.stats && r.chatbots.supervisor.owned().includes(owner.id)),
    20_000,
    20,
  );
}
const runner = async () => (await running()).chatbots.supervisor!.runner(owner.id)!;

function say(line: TwitchChatLine): string {
  return irc.say(login, line);
}

/** Says `!ping` and waits for its answer: every message before it has been handled by then. */
let pings = 0;
async function settle(): Promise<void> {
  const n = ++pings;
  say({ login: 'pinger', text: `!ping ${n}` });
  await waitFor(`pong ${n}`, async () => (replies().includes(`pong ${n}`) ? true : undefined), 20_000, 20);
}

/** A change saved through the api and the running bot's reload of it. */
async function change(method: 'PUT' | 'POST', path: string, body: unknown, status = method === 'POST' ? 201 : 200): Promise<unknown> {
  const bot = await runner();
  const before = bot.reloads;
  const res = await call(api, owner, method, `${base()}/${path}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  await waitFor(`the bot to reload ${path}`, async () => (bot.reloads > before ? true : undefined), 10_000, 10);
  return res.body;
}

async function points(viewer: string): Promise<number> {
  const rows = await api.db.chatbotViewer.findMany({ where: { channelId: owner.id, login: viewer } });
  return rows.reduce((sum, r) => sum + r.points, 0);
}

async function giveViewer(viewer: string, amount: number): Promise<void> {
  await api.db.chatbotViewer.upsert({
    where: { channelId_platformUserId: { channelId: owner.id, platformUserId: irc.userIdOf(viewer) } },
    create: { channelId: owner.id, platformUserId: irc.userIdOf(viewer), login: viewer, points: amount },
    update: { points: amount },
  });
}

function liveEvent(type: string, platformUsername: string, value: number | null, data: LiveEvent['data'] = {}): LiveEvent {
  return {
    id: randomUUID(),
    projectId,
    type,
    platform: 'twitch',
    platformUsername,
    platformCreatedAt: new Date(clock).toISOString(),
    avatar: null,
    value,
    data,
  };
}

/** Hands events to the chatbots as the events store does (Redis pub/sub), and waits until the bot has taken them in. */
async function deliver(events: LiveEvent[]): Promise<void> {
  await api.redis.publish(CHATBOT_EVENTS_CHANNEL, JSON.stringify({ projectId, events }));
}

beforeAll(async () => {
  [irc, twitch] = await Promise.all([startTwitchChatDouble(), startTwitchDouble()]);
  twitch.moderators.add(BOT_ID);
  twitch.onChatMessage = (_b, _s, text) => void irc.say(login, { login: 'onairbot', text });
  env = {
    ...twitch.env(),
    TWITCH_CHAT_URL: irc.wsUrl,
    TWITCH_EMOTE_URL: `${irc.url}/emoticons/v2`,
    CHATBOT_TWITCH_USER_ID: BOT_ID,
    CHATBOT_TWITCH_LOGIN: 'onairbot',
    CHATBOT_TWITCH_TOKEN: twitch.issueAccessToken(),
    PLATFORM_SUPERVISE_MS: '200',
    PLATFORM_OWNER_LEASE_MS: '2000',
    CHAT_TWITCH_RECONNECT_MS: '300',
    CHATBOT_LIVE_POLL_MS: '200',
    CHATBOT_TICK_MS: '3600000',
    CHATBOT_PURGE_PER_SECOND: String(PURGE_PER_SECOND),
  };
  api = await startStudioApi({ env: { ...env, CHATBOT_RUNNERS: 'false' } });
  owner = await createTestUser(api);
  await linkTwitch(api, owner, login);
  projectId = (await api.db.project.create({ data: { ownerId: owner.id, name: 'Giveaway night' } })).id;
  await startRuntime();
  expect((await call(api, owner, 'POST', `${base()}/commands`, { command: '!ping', message: 'pong {args}', globalCooldownSeconds: 0 })).status).toBe(201);
  expect((await call(api, owner, 'PUT', `${base()}/connection`, { enabled: true })).status).toBe(200);
  await waitFor('the bot in the chat', async () => (irc.joined(login).length > 0 ? true : undefined), 20_000, 50);
  await waitFor(
    'a healthy bot',
    async () => (((await call(api, owner, 'GET', base())).body as ChatbotConfig).connection.health === 'healthy' ? true : undefined),
    20_000,
    100,
  );
  const loyalty = structuredClone(DEFAULT_LOYALTY);
  loyalty.program = 'points';
  loyalty.points.rewards = { tip: 100, follow: 50, subscribe: 500, giftSub: 300, raffleWin: 1000, host: 40, cheer: 2, raid: 150 };
  await change('PUT', 'loyalty', loyalty);
}, 120_000);

afterAll(async () => {
  for (const r of runtimes) {
    await r.chatbots.close();
    await r.composition.close();
  }
  await api?.close();
  await irc?.close();
  await twitch?.close();
});

describe('giveaways', () => {
  it('a giveaway from the partner area: three viewers enter with the keyword, the draw is announced in chat and the winner credited', async () => {
    for (const v of ['bo', 'cy', 'di']) await giveViewer(v, 100);
    await giveViewer('poor', 5);
    const opened = (await change('POST', 'raffles', { keyword: '!raffle', entryCost: 10, subscriberLuck: 2, durationMinutes: 5 })) as Raffle;
    expect(opened).toMatchObject({ keyword: '!raffle', status: 'open', entrants: 0, maxEntriesPerViewer: 1 });
    await (await runner()).tick();
    await waitFor('the opening in chat', async () => (replies().some((t) => t.startsWith('A giveaway is on! Write !raffle')) ? true : undefined), 10_000, 20);
    // A second giveaway cannot open while this one runs.
    expect((await call(api, owner, 'POST', `${base()}/raffles`, { keyword: 'other' })).body).toMatchObject({ error: { code: 'CHATBOT_RAFFLE_OPEN' } });

    say({ login: 'bo', text: '!raffle' });
    say({ login: 'cy', text: '!RAFFLE', badges: 'subscriber/3' });
    say({ login: 'di', text: '!raffle please' });
    say({ login: 'bo', text: '!raffle' });
    say({ login: 'poor', text: '!raffle' });
    await settle();
    expect(replies()).toContain('@poor, entering the giveaway costs 10 points; you have 5.');
    const list = async () => ((await call(api, owner, 'GET', `${base()}/raffles`)).body as { raffles: Raffle[] }).raffles;
    expect((await list())[0]).toMatchObject({ id: opened.id, entrants: 3, tickets: 3 });
    // One ticket each (bo's second entry cost nothing), paid in points.
    expect([await points('bo'), await points('cy'), await points('di'), await points('poor')]).toEqual([90, 90, 90, 5]);

    const drawn = (await change('POST', `raffles/${opened.id}/draw`, undefined, 200)) as Raffle;
    expect(drawn.status).toBe('drawn');
    const winner = drawn.winner!.login;
    expect(['bo', 'cy', 'di']).toContain(winner);
    expect(drawn.winner!.points).toBe(1000);
    await (await runner()).tick();
    await waitFor(
      'the winner in chat',
      async () => (replies().includes(`@${winner} won the giveaway and wins 1000 points! (3 entered)`) ? true : undefined),
      10_000,
      20,
    );
    expect(await points(winner)).toBe(1090);
    // Drawn once: a second draw is refused, the result is said once, and entries are over.
    expect((await call(api, owner, 'POST', `${base()}/raffles/${opened.id}/draw`)).body).toMatchObject({ error: { code: 'CHATBOT_RAFFLE_CLOSED' } });
    await (await runner()).tick();
    say({ login: 'late', text: '!raffle' });
    await settle();
    expect(replies().filter((t) => t.includes('won the giveaway'))).toHaveLength(1);
    expect((await list())[0]).toMatchObject({ status: 'drawn', entrants: 3, winner: { login: winner, points: 1000 } });
  });

  it('a giveaway whose time is up is drawn by the bot; a cancelled one gives the points back', async () => {
    const timed = (await change('POST', 'raffles', { keyword: 'ticket', entryCost: 0, durationMinutes: 1 })) as Raffle;
    say({ login: 'solo', text: 'ticket' });
    await settle();
    clock = Math.max(clock, Date.parse(timed.closesAt)) + 1000;
    await (await runner()).tick();
    await waitFor(
      'the timed draw in chat',
      async () => (replies().includes('@solo won the giveaway and wins 1000 points! (1 entered)') ? true : undefined),
      10_000,
      20,
    );
    expect((await api.db.chatbotRaffle.findUniqueOrThrow({ where: { id: timed.id } })).status).toBe('drawn');

    await giveViewer('eve', 50);
    const cancelled = (await change('POST', 'raffles', { keyword: '!win', entryCost: 20, maxEntriesPerViewer: 2, durationMinutes: 5 })) as Raffle;
    say({ login: 'eve', text: '!win' });
    say({ login: 'eve', text: '!win' });
    say({ login: 'eve', text: '!win' });
    await settle();
    expect(await points('eve')).toBe(10);
    expect(((await change('POST', `raffles/${cancelled.id}/cancel`, undefined, 200)) as Raffle).status).toBe('cancelled');
    expect(await points('eve')).toBe(50);
  });
});

describe('Points event rewards', () => {
  it('every event reward is paid once although each event is delivered twice; a viewer not seen yet is paid when they show up', async () => {
    const viewers = ['fan1', 'sub1', 'resub1', 'gifter1', 'tipper1', 'cheerer1', 'raider1', 'hoster1'];
    for (const v of viewers) await giveViewer(v, 0);
    const events = [
      liveEvent('follow', 'Fan1', null),
      liveEvent('sub', 'Sub1', null, { tier: '1000' }),
      liveEvent('resub', 'Resub1', 3, { tier: '1000' }),
      liveEvent('sub', 'Gifter1', 4, { gifted: true, giftCount: 4, gifter: { platformUsername: 'Gifter1' }, tier: '1000' }),
      liveEvent('tip', 'Tipper1', 5, { currency: 'USD' }),
      liveEvent('twitchCheer', 'Cheerer1', 250, {}),
      liveEvent('twitchRaid', 'Raider1', 40, {}),
      liveEvent('host', 'Hoster1', 12, {}),
      liveEvent('follow', 'Newcomer1', null),
    ];
    await deliver(events);
    await deliver(events);
    await waitFor(
      'the rewards',
      async () => ((await api.db.chatbotPointReward.count({ where: { channelId: owner.id, key: { startsWith: 'event:' } } })) === 9 ? true : undefined),
      10_000,
      20,
    );
    await deliver(events);
    await settle();
    const paid = await Promise.all(viewers.map(points));
    expect(Object.fromEntries(viewers.map((v, i) => [v, paid[i]]))).toEqual({
      fan1: 50,
      sub1: 500,
      resub1: 500,
      gifter1: 1200,
      tipper1: 100,
      cheerer1: 500,
      raider1: 150,
      hoster1: 40,
    });
    // Newcomer1 has no viewer row yet: the reward waits, and is paid with their first earning.
    expect(
      (await api.db.chatbotPointReward.findUniqueOrThrow({ where: { channelId_key: { channelId: owner.id, key: `event:${events[8]!.id}` } } })).paidAt,
    ).toBeNull();
    // Live, newcomer1 chats and earns: their first points row brings the waiting reward with it, once.
    const channel = (await api.db.account.findFirstOrThrow({ where: { userId: owner.id, providerId: 'twitch' } })).accountId;
    twitch.channels.set(channel, { followers: 0, subscribers: 0, viewers: 10 });
    await waitFor('the bot to see the channel live', async () => ((await runner()).liveOnTwitch ? true : undefined), 10_000, 20);
    say({ login: 'newcomer1', text: 'hello there' });
    await settle();
    clock += 16 * 60_000;
    await (await runner()).tick();
    await waitFor('the waiting reward paid', async () => ((await points('newcomer1')) > 50 ? true : undefined), 10_000, 20);
    const reward = await api.db.chatbotPointReward.findUniqueOrThrow({ where: { channelId_key: { channelId: owner.id, key: `event:${events[8]!.id}` } } });
    expect(reward.paidAt).not.toBeNull();
    const earnedOnce = await points('newcomer1');
    clock += 16 * 60_000;
    await (await runner()).tick();
    // The next earning adds only chatting and viewing points, not the reward again.
    expect((await points('newcomer1')) - earnedOnce).toBeLessThan(50);
    twitch.channels.set(channel, { followers: 0, subscribers: 0, viewers: null });
    await waitFor('the bot to see the channel offline', async () => ((await runner()).liveOnTwitch === false ? true : undefined), 10_000, 20);
  });
});

describe('takeover', () => {
  it('a cooldown started by one runtime holds in the runtime that takes the channel over', async () => {
    await change('POST', 'commands', { command: '!hype', message: 'HYPE TRAIN', globalCooldownSeconds: 60, userCooldownSeconds: 0 });
    say({ login: 'bo', text: '!hype' });
    await settle();
    expect(replies().filter((t) => t === 'HYPE TRAIN')).toHaveLength(1);

    const first = await running();
    const second = await startRuntime();
    await first.chatbots.close();
    runtimes.splice(runtimes.indexOf(first), 1);
    await first.composition.close();
    await waitFor('the second runtime to run the bot', async () => (second.chatbots.supervisor!.owned().includes(owner.id) ? true : undefined), 20_000, 20);
    await waitFor(
      'the new bot in the chat',
      async () => (((await call(api, owner, 'GET', base())).body as ChatbotConfig).connection.health === 'healthy' ? true : undefined),
      20_000,
      50,
    );
    await settle();
    say({ login: 'cy', text: '!hype' });
    await settle();
    expect(replies().filter((t) => t === 'HYPE TRAIN')).toHaveLength(1);
    clock += 61_000;
    say({ login: 'cy', text: '!hype' });
    await settle();
    expect(replies().filter((t) => t === 'HYPE TRAIN')).toHaveLength(2);
  });
});

describe('hate-raid guard', () => {
  it('a burst without a raid passes; after a raid the flood trips it and is removed in bulk, one call per raider, within the purge rate', async () => {
    const moderation = structuredClone(DEFAULT_MODERATION);
    moderation.hateRaidGuard = { ...moderation.hateRaidGuard, enabled: true, firstTimeChatters: 5, windowSeconds: 30, durationMinutes: 5 };
    await change('PUT', 'moderation', moderation);
    for (let i = 0; i < 6; i++) say({ login: `welcome${i}`, text: 'hi, first time here', firstMsg: true });
    await settle();
    expect(twitch.chat.chatSettings).toEqual([]);

    await deliver([liveEvent('twitchRaid', 'SomeRaider', 300, {})]);
    await waitFor('the raid alert', async () => (replies().some((t) => t.startsWith('SomeRaider is raiding')) ? true : undefined), 10_000, 20);
    const callsBefore = twitch.chat.calls.length;
    const raiders = Array.from({ length: 24 }, (_, i) => `hater${i}`);
    for (const r of raiders) {
      say({ login: r, text: 'hateful line one', firstMsg: true });
      say({ login: r, text: 'hateful line two' });
      say({ login: r, text: 'hateful line three' });
    }
    await settle();
    const bot = await runner();
    await bot.purges.drained();
    expect(twitch.chat.chatSettings[0]).toMatchObject({ follower_mode: true, slow_mode: true });
    const purges = twitch.chat.calls.slice(callsBefore).filter((c) => c.method === 'POST' && c.path === '/helix/moderation/bans');
    const timeouts = twitch.chat.bans.filter((b) => b.duration === 1);
    // One short timeout per raider (it clears all three lines), none per line, no raider twice.
    expect(new Set(timeouts.map((b) => b.userId))).toEqual(new Set(raiders.map((r) => irc.userIdOf(r))));
    expect(timeouts).toHaveLength(raiders.length);
    expect(purges).toHaveLength(raiders.length);
    expect(twitch.chat.calls.slice(callsBefore).filter((c) => c.path === '/helix/moderation/chat')).toHaveLength(0);
    // Within the rate: sent 1/PURGE_PER_SECOND s apart, so no second of arrivals holds more than
    // PURGE_PER_SECOND of them (one more allowed for a first call delayed on the way; a slow
    // machine only spreads them further).
    for (const c of purges) expect(purges.filter((o) => o.at >= c.at && o.at < c.at + 1000).length).toBeLessThanOrEqual(PURGE_PER_SECOND + 1);
    expect(purges.length).toBeGreaterThan(2 * (PURGE_PER_SECOND + 1));
    // The guard lifts after its time.
    clock += 5 * 60_000 + 1000;
    await bot.tick();
    await waitFor('chat settings back', async () => (twitch.chat.chatSettings.length === 2 ? true : undefined), 10_000, 20);
    expect(twitch.chat.chatSettings[1]).toMatchObject({ follower_mode: false, slow_mode: false });
  });
});
