import type { Redis } from 'ioredis';
import { CHATBOT_LIST_MAX, OnAirError, parseHostPortList, type LiveEvent } from '@onair/protocol';
import type { Db } from '@onair/db';
import { EgressPolicy, egressResolver, type Logger } from '@onair/runtime';
import type { ChatConnectorConfig } from '../../platforms/chat-connector.ts';
import type { InboundChat } from '../../platforms/inbound.ts';
import { TwitchChatConnector } from '../../platforms/twitch-chat.ts';
import type { ChatbotService } from '../chatbot-service.ts';
import { BotEngine, type BotActions, type BotData, type BotMessage, type RaffleNews } from '../engine/engine.ts';
import { chatbotKeys } from '../keys.ts';
import { HelixClient, HelixError } from './helix-client.ts';
import { LinkPreviewer } from './link-preview.ts';
import { PurgeQueue } from './purge-queue.ts';
import { RedisBotMemory } from './redis-memory.ts';

const HANDLED_TTL_SECONDS = 600;
const CHANNEL_INFO_MS = 60_000;
const LIVE_CHECK_MS = 1000;
/** Twitch's chatters list is read in pages of this many (its maximum), up to CHATTERS_MAX viewers. */
const CHATTERS_PAGE = 1000;
const CHATTERS_MAX = 100_000;
export const CHATTERS_NOTICE = (bot: string) =>
  `Viewers who do not chat earn no points or hours watched: Twitch refused the bot the chatters list (${bot} must be a moderator of your channel, and the bot's token needs moderator:read:chatters). Until then only viewers who chat earn.`;

export type RunnerState = { state: 'connecting' | 'connected' | 'error'; error?: string };

export interface RunnerDeps {
  channelId: string;
  twitch: { login: string; userId: string };
  bot: { userId: string; login: string; token: string };
  db: Db;
  redis: Redis;
  logger: Logger;
  service: ChatbotService;
  config: ChatConnectorConfig & {
    TWITCH_API_URL: string;
    TWITCH_CLIENT_ID?: string | undefined;
    CHATBOT_TICK_MS: number;
    CHATBOT_QUEUE_MAX: number;
    CHATBOT_HELIX_QUEUE_MAX: number;
    CHATBOT_PURGE_PER_SECOND: number;
    CHATBOT_LIVE_POLL_MS: number;
    CHATBOT_PREVIEW_ALLOWED_HOSTS: string;
    EGRESS_DNS_SERVERS: string;
  };
  now: () => number;
  onState(state: RunnerState): void;
}

/**
 * One channel's running bot in this replica: reads the channel's Twitch chat through the platform
 * chat's connector (anonymously: the bot needs no chat login to read), hands each message to the
 * engine in order through a bounded line, and acts through Helix as the bot account. Runs only
 * while this replica holds the channel's lease; every message it acts on is claimed in Redis
 * first, so a takeover never answers a message twice.
 */
export class ChatbotRunner {
  private engine: BotEngine | null = null;
  private connector: TwitchChatConnector | null = null;
  private readonly helix: HelixClient;
  readonly previews: LinkPreviewer;
  /** The hate-raid guard's removals, within Helix's limits. */
  readonly purges: PurgeQueue;
  private readonly inbox: BotMessage[] = [];
  private draining = false;
  private ticker: NodeJS.Timeout | null = null;
  private stopped = false;
  private info: { at: number; value: { title: string; game: string } } | null = null;
  private live: { at: number; value: boolean } | null = null;
  /** What Twitch's GET /helix/streams said last: live on Twitch, with or without OnAir. */
  private twitchLive: { at: number; value: boolean } | null = null;
  private livePoller: NodeJS.Timeout | null = null;
  private chattersRefused = false;
  private droppedMessages = 0;
  /** Settings reloads done (after each change the creator saves). */
  reloads = 0;
  /** Settles when the inbox is empty (tests and the benchmark wait on it). */
  private idle: Promise<void> = Promise.resolve();
  private settleIdle: (() => void) | null = null;

  constructor(private readonly deps: RunnerDeps) {
    this.helix = new HelixClient({
      apiUrl: deps.config.TWITCH_API_URL,
      clientId: deps.config.TWITCH_CLIENT_ID ?? '',
      token: deps.bot.token,
      logger: deps.logger,
      maxQueue: deps.config.CHATBOT_HELIX_QUEUE_MAX,
      where: { channelId: deps.channelId },
    });
    this.purges = new PurgeQueue({
      perSecond: deps.config.CHATBOT_PURGE_PER_SECOND,
      max: deps.config.CHATBOT_HELIX_QUEUE_MAX,
      // Twitch's shortest timeout removes every line of the viewer at once (Helix has no call that removes many lines).
      send: async (userId, reason) => {
        await this.helix.request(
          'POST',
          '/moderation/bans',
          { broadcaster_id: deps.twitch.userId, moderator_id: deps.bot.userId },
          { data: { user_id: userId, duration: 1, reason } },
        );
      },
      onError: (err) => this.onActionError(err, 'purge'),
    });
    // Link previews go out through the egress rule of web-page sources and RTMP destinations.
    const policy = new EgressPolicy(
      parseHostPortList(deps.config.CHATBOT_PREVIEW_ALLOWED_HOSTS),
      egressResolver({ EGRESS_DNS_SERVERS: deps.config.EGRESS_DNS_SERVERS }),
    );
    this.previews = new LinkPreviewer({
      channelId: deps.channelId,
      policy,
      redis: deps.redis,
      logger: deps.logger,
      now: deps.now,
      claim: async (id) => (await deps.redis.set(chatbotKeys.handled(deps.channelId, id), '1', 'EX', HANDLED_TTL_SECONDS, 'NX')) === 'OK',
      say: async (text) => {
        await this.helix.request('POST', '/chat/messages', {}, { broadcaster_id: deps.twitch.userId, sender_id: deps.bot.userId, message: text });
      },
    });
  }

  /** What works less well than it could, in words (shown with the health). */
  get notices(): string[] {
    return this.chattersRefused ? [CHATTERS_NOTICE(this.deps.bot.login)] : [];
  }

  /** Whether Twitch reported the channel live at its last poll (null before the first answer). */
  get liveOnTwitch(): boolean | null {
    return this.twitchLive?.value ?? null;
  }

  get stats() {
    return {
      ...(this.engine?.stats ?? { messages: 0, filtered: 0, replies: 0 }),
      helix: this.helix.stats,
      dropped: this.droppedMessages,
      waiting: this.inbox.length,
    };
  }

  async start(): Promise<void> {
    const { deps } = this;
    deps.onState({ state: 'connecting' });
    this.engine = new BotEngine(await this.botConfig(), {
      actions: this.actions(),
      data: this.data(),
      memory: new RedisBotMemory(deps.redis, deps.channelId),
      now: deps.now,
      onError: (err, what) => this.onActionError(err, what),
    });
    if (this.stopped) return;
    this.connector = new TwitchChatConnector({
      destination: {
        id: `chatbot:${deps.channelId}`,
        projectId: deps.channelId,
        username: deps.twitch.login,
        platformAccountId: deps.twitch.userId,
        targetId: null,
      },
      config: deps.config,
      logger: deps.logger,
      tokens: { current: async () => null, refresh: async () => null },
      cursor: { get: async () => null, set: async () => undefined },
      onMessages: async (messages) => {
        for (const m of messages) this.enqueue(m);
        return true;
      },
      onState: (state, error) => {
        if (this.stopped) return;
        if (state === 'live') deps.onState({ state: 'connected' });
        else if (state === 'offline') deps.onState({ state: 'error', error: error ?? 'The Twitch chat could not be joined.' });
        else deps.onState({ state: 'connecting', ...(error ? { error } : {}) });
      },
    });
    this.connector.start();
    this.ticker = setInterval(() => {
      void this.engine?.tick().catch((err: unknown) => deps.logger.warn({ channelId: deps.channelId, err: (err as Error).message }, 'chatbot tick failed'));
    }, deps.config.CHATBOT_TICK_MS);
    this.ticker.unref();
    void this.pollLive();
    this.livePoller = setInterval(() => void this.pollLive(), deps.config.CHATBOT_LIVE_POLL_MS);
    this.livePoller.unref();
  }

  /**
   * Asks Twitch whether the channel is live (GET /helix/streams?user_id=), so a creator streaming
   * to Twitch without OnAir is seen live too. Polled every CHATBOT_LIVE_POLL_MS (a minute by
   * default: Twitch's own answer lags about that much); an unanswered poll keeps the last answer
   * for three intervals, then counts as not live (OnAir's own broadcast state still counts).
   */
  async pollLive(): Promise<void> {
    if (this.stopped) return;
    const { deps } = this;
    try {
      const res = await this.helix.request<{ data?: { type?: string }[] }>('GET', '/streams', { user_id: deps.twitch.userId, type: 'live' });
      this.twitchLive = { at: Date.now(), value: (res?.data ?? []).some((s) => s.type === 'live') };
    } catch (err) {
      deps.logger.info({ channelId: deps.channelId, reason: (err as Error).message }, 'chatbot live poll failed');
      if (this.twitchLive && Date.now() - this.twitchLive.at > deps.config.CHATBOT_LIVE_POLL_MS * 3) this.twitchLive = null;
    }
  }

  /**
   * Everyone in the chat now, from Helix GET /chat/chatters (pages of 1000; needs the bot to be a
   * moderator and its token moderator:read:chatters). Null when Twitch refuses (401/403): the
   * engine then counts recent chatters only, and the health says why.
   */
  private async chatters(): Promise<{ userId: string; login: string }[] | null> {
    const { bot, twitch } = this.deps;
    const out: { userId: string; login: string }[] = [];
    let after: string | undefined;
    try {
      do {
        const res = await this.helix.request<{ data?: { user_id: string; user_login: string }[]; pagination?: { cursor?: string } }>('GET', '/chat/chatters', {
          broadcaster_id: twitch.userId,
          moderator_id: bot.userId,
          first: String(CHATTERS_PAGE),
          ...(after ? { after } : {}),
        });
        for (const c of res?.data ?? []) out.push({ userId: c.user_id, login: c.user_login });
        after = res?.pagination?.cursor || undefined;
      } while (after && out.length < CHATTERS_MAX && !this.stopped);
    } catch (err) {
      if (err instanceof HelixError && (err.status === 401 || err.status === 403)) {
        if (!this.chattersRefused)
          this.deps.logger.info(
            { channelId: this.deps.channelId, status: err.status, reason: err.message },
            'chatters list refused; recent chatters earn instead',
          );
        this.chattersRefused = true;
        return null;
      }
      throw err;
    }
    this.chattersRefused = false;
    return out;
  }

  private async botConfig() {
    const config = await this.deps.service.botConfig(this.deps.channelId, this.deps.twitch.login);
    // The bot's own messages come back through the chat: never read them as commands.
    return { ...config, ignored: new Set([...config.ignored, this.deps.bot.login]) };
  }

  async reload(): Promise<void> {
    if (!this.engine || this.stopped) return;
    this.engine.reload(await this.botConfig());
    this.reloads += 1;
  }

  async onEvents(events: readonly LiveEvent[]): Promise<void> {
    await this.engine?.onEvents(events);
  }

  /** Runs the timers and loyalty now (the tick the interval runs); tests with a moved clock call it. */
  async tick(): Promise<void> {
    await this.engine?.tick();
  }

  /** Resolves once every message received so far has been handled. */
  drained(): Promise<void> {
    return this.inbox.length === 0 && !this.draining ? Promise.resolve() : this.idle;
  }

  private enqueue(m: InboundChat): void {
    if (this.stopped || m.private || !m.sender || !m.twitch) return;
    if (this.inbox.length >= this.deps.config.CHATBOT_QUEUE_MAX) {
      this.droppedMessages += 1;
      if (this.droppedMessages % 1000 === 1)
        this.deps.logger.warn({ channelId: this.deps.channelId, dropped: this.droppedMessages }, 'chatbot behind: messages dropped');
      return;
    }
    this.inbox.push({
      id: m.platformMessageId,
      userId: m.sender,
      login: m.twitch.login,
      displayName: m.displayName,
      text: m.content,
      segments: m.segments,
      roles: { broadcaster: m.twitch.broadcaster, moderator: m.twitch.moderator, vip: m.twitch.vip, subscriber: m.twitch.subscriber },
      firstMessage: m.twitch.firstMessage,
    });
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    this.idle = new Promise((resolve) => (this.settleIdle = resolve));
    try {
      while (this.inbox.length > 0 && !this.stopped) {
        const m = this.inbox.shift()!;
        try {
          await this.engine?.onMessage(m);
        } catch (err) {
          this.deps.logger.warn({ channelId: this.deps.channelId, err: (err as Error).message }, 'chatbot message not handled');
        }
      }
    } finally {
      this.draining = false;
      this.settleIdle?.();
    }
  }

  private onActionError(err: unknown, what: string): void {
    const where = { channelId: this.deps.channelId, action: what };
    if (err instanceof HelixError) {
      this.deps.logger.info({ ...where, status: err.status, reason: err.message }, 'chatbot action refused');
      if (err.status === 401)
        this.deps.onState({ state: 'error', error: "Twitch refused the bot account's token. The operator must renew CHATBOT_TWITCH_TOKEN." });
      if (err.status === 403)
        this.deps.onState({
          state: 'error',
          error: `The bot cannot moderate here: make ${this.deps.bot.login} a moderator of your channel (/mod ${this.deps.bot.login}).`,
        });
      return;
    }
    this.deps.logger.warn({ ...where, err: (err as Error).message }, 'chatbot action failed');
  }

  private actions(): BotActions {
    const { bot, twitch } = this.deps;
    const moderation = { broadcaster_id: twitch.userId, moderator_id: bot.userId };
    return {
      say: async (text) => {
        await this.helix.request('POST', '/chat/messages', {}, { broadcaster_id: twitch.userId, sender_id: bot.userId, message: text });
      },
      deleteMessage: async (messageId) => {
        await this.helix.request('DELETE', '/moderation/chat', { ...moderation, message_id: messageId });
      },
      timeout: async (userId, seconds, reason) => {
        await this.helix.request('POST', '/moderation/bans', moderation, { data: { user_id: userId, duration: seconds, reason } });
      },
      ban: async (userId, reason) => {
        await this.helix.request('POST', '/moderation/bans', moderation, { data: { user_id: userId, reason } });
      },
      previewLink: (messageId, href, maxPerMinute) => this.previews.preview(messageId, href, maxPerMinute),
      purge: (userIds, reason) => this.purges.add(userIds, reason),
      restrictChat: async ({ followerOnlyMinutes, slowSeconds }) => {
        await this.helix.request('PATCH', '/chat/settings', moderation, {
          follower_mode: followerOnlyMinutes !== null,
          ...(followerOnlyMinutes !== null ? { follower_mode_duration: followerOnlyMinutes } : {}),
          slow_mode: slowSeconds !== null,
          ...(slowSeconds !== null ? { slow_mode_wait_time: Math.max(3, slowSeconds) } : {}),
        });
      },
    };
  }

  private data(): BotData {
    const { db, redis, channelId, twitch } = this.deps;
    const now = () => new Date(this.deps.now());
    return {
      countUse: async (commandId) =>
        (await db.chatbotCommand.update({ where: { id: commandId }, data: { useCount: { increment: 1 } }, select: { useCount: true } })).useCount,
      spendPoints: async (userId, login, cost) => {
        const rows = await db.$queryRaw<{ points: number }[]>`
          UPDATE chatbot_viewers SET points = points - ${cost}, login = ${login}, updated_at = ${now()}
          WHERE channel_id = ${channelId} AND platform_user_id = ${userId} AND points >= ${cost} RETURNING points`;
        if (rows[0]) return { spent: true, balance: rows[0].points };
        const viewer = await db.chatbotViewer.findUnique({
          where: { channelId_platformUserId: { channelId, platformUserId: userId } },
          select: { points: true },
        });
        return { spent: false, balance: viewer?.points ?? 0 };
      },
      watched: async (userId) =>
        (await db.chatbotViewer.findUnique({ where: { channelId_platformUserId: { channelId, platformUserId: userId } }, select: { secondsWatched: true } }))
          ?.secondsWatched ?? 0,
      viewers: () => this.chatters(),
      promoteRegulars: async (seconds) => {
        // Within the list's maximum, the longest watchers first; one already listed is left as is.
        const rows = await db.$queryRaw<{ username: string }[]>`
          INSERT INTO chatbot_users (id, channel_id, kind, platform, username, username_key)
          SELECT gen_random_uuid(), v.channel_id, 'regular', 'twitch', v.login, lower(v.login)
          FROM chatbot_viewers v
          WHERE v.channel_id = ${channelId} AND v.seconds_watched >= ${seconds}
            AND NOT EXISTS (SELECT 1 FROM chatbot_users u WHERE u.channel_id = v.channel_id AND u.kind = 'regular' AND u.platform = 'twitch' AND u.username_key = lower(v.login))
          ORDER BY v.seconds_watched DESC
          LIMIT GREATEST(0, ${CHATBOT_LIST_MAX.users} - (SELECT count(*) FROM chatbot_users WHERE channel_id = ${channelId} AND kind = 'regular'))
          ON CONFLICT DO NOTHING
          RETURNING username`;
        if (rows.length > 0) {
          this.deps.logger.info({ channelId, promoted: rows.length }, 'chatbot regulars promoted');
          await redis.publish(chatbotKeys.changed, channelId).catch(() => undefined);
        }
        return rows.map((r) => r.username);
      },
      points: async (userId) =>
        (await db.chatbotViewer.findUnique({ where: { channelId_platformUserId: { channelId, platformUserId: userId } }, select: { points: true } }))?.points ??
        0,
      reward: async (key, kind, login, points) =>
        db.$transaction(async (tx) => {
          const at = now();
          const recorded = await tx.$executeRaw`
            INSERT INTO chatbot_point_rewards (channel_id, key, kind, login, points) VALUES (${channelId}, ${key}, ${kind}, ${login}, ${points})
            ON CONFLICT DO NOTHING`;
          if (recorded === 0) return false;
          // The viewer of that login seen last (a login can move between accounts); none yet: paid when they show up (accrue).
          const paid = await tx.$executeRaw`
            UPDATE chatbot_viewers SET points = points + ${points}, updated_at = ${at}
            WHERE channel_id = ${channelId} AND platform_user_id = (
              SELECT platform_user_id FROM chatbot_viewers WHERE channel_id = ${channelId} AND login = ${login} ORDER BY updated_at DESC LIMIT 1)`;
          if (paid > 0) await tx.$executeRaw`UPDATE chatbot_point_rewards SET paid_at = ${at} WHERE channel_id = ${channelId} AND key = ${key}`;
          return true;
        }),
      enterRaffle: async (raffle, viewer, cost) =>
        db.$transaction(async (tx) => {
          const at = now();
          const open = await tx.$queryRaw<{ id: string }[]>`
            SELECT id FROM chatbot_raffles WHERE id = ${raffle.id}::uuid AND status = 'open' AND closes_at > ${at} FOR SHARE`;
          if (open.length === 0) return { entered: false as const, reason: 'closed' as const, balance: 0 };
          const held = await tx.chatbotRaffleEntry.findUnique({
            where: { raffleId_platformUserId: { raffleId: raffle.id, platformUserId: viewer.userId } },
            select: { tickets: true },
          });
          if ((held?.tickets ?? 0) >= raffle.maxEntries) return { entered: false as const, reason: 'max' as const, balance: 0 };
          if (cost > 0) {
            const spent = await tx.$queryRaw<{ points: number }[]>`
              UPDATE chatbot_viewers SET points = points - ${cost}, updated_at = ${at}
              WHERE channel_id = ${channelId} AND platform_user_id = ${viewer.userId} AND points >= ${cost} RETURNING points`;
            if (!spent[0]) {
              const v = await tx.chatbotViewer.findUnique({
                where: { channelId_platformUserId: { channelId, platformUserId: viewer.userId } },
                select: { points: true },
              });
              return { entered: false as const, reason: 'points' as const, balance: v?.points ?? 0 };
            }
          }
          const entry = await tx.chatbotRaffleEntry.upsert({
            where: { raffleId_platformUserId: { raffleId: raffle.id, platformUserId: viewer.userId } },
            create: {
              raffleId: raffle.id,
              platformUserId: viewer.userId,
              login: viewer.login,
              subscriber: viewer.subscriber,
              tickets: 1,
              pointsSpent: cost,
              createdAt: at,
            },
            update: { tickets: { increment: 1 }, pointsSpent: { increment: cost }, login: viewer.login, subscriber: viewer.subscriber },
          });
          return { entered: true as const, tickets: entry.tickets };
        }),
      drawRaffle: async (id) => {
        await this.deps.service.drawRaffle(channelId, id).catch((err: unknown) => {
          // Drawn or cancelled from the page meanwhile: nothing left to draw.
          if (!(err instanceof OnAirError && err.code === 'CHATBOT_RAFFLE_CLOSED')) throw err;
        });
      },
      raffleNews: () => this.raffleNews(),
      warn: async (userId, login, since) => {
        const at = now();
        const rows = await db.$queryRaw<{ warnings: number }[]>`
          INSERT INTO chatbot_viewers (channel_id, platform_user_id, login, warnings, last_warning_at, updated_at)
          VALUES (${channelId}, ${userId}, ${login}, 1, ${at}, ${at})
          ON CONFLICT (channel_id, platform_user_id) DO UPDATE SET
            warnings = CASE WHEN chatbot_viewers.last_warning_at IS NULL OR chatbot_viewers.last_warning_at < ${since} THEN 1 ELSE chatbot_viewers.warnings + 1 END,
            last_warning_at = ${at}, login = ${login}, updated_at = ${at}
          RETURNING warnings`;
        return rows[0]?.warnings ?? 1;
      },
      addQuote: async (message, author) => {
        const q = await this.deps.service.addQuote(channelId, { message, author });
        return { number: q.number, createdAt: new Date(q.createdAt) };
      },
      quote: async (number) => {
        if (number !== null) return db.chatbotQuote.findUnique({ where: { channelId_number: { channelId, number } } });
        const count = await db.chatbotQuote.count({ where: { channelId } });
        if (count === 0) return null;
        return db.chatbotQuote.findFirst({ where: { channelId }, orderBy: { number: 'asc' }, skip: Math.floor(Math.random() * count) });
      },
      accrue: async (entries) => {
        // One statement for the whole chat (a big channel's chatters list is thousands of viewers).
        const at = now();
        await db.$executeRaw`
          INSERT INTO chatbot_viewers (channel_id, platform_user_id, login, points, seconds_watched, updated_at)
          SELECT ${channelId}::text, v.user_id, v.login, v.points, v.seconds, ${at}::timestamp(3)
          FROM unnest(${entries.map((e) => e.userId)}::text[], ${entries.map((e) => e.login)}::text[], ${entries.map((e) => e.points)}::int[], ${entries.map((e) => Math.round(e.seconds))}::int[]) AS v(user_id, login, points, seconds)
          ON CONFLICT (channel_id, platform_user_id) DO UPDATE SET
            points = chatbot_viewers.points + EXCLUDED.points, seconds_watched = chatbot_viewers.seconds_watched + EXCLUDED.seconds_watched,
            login = EXCLUDED.login, updated_at = EXCLUDED.updated_at`;
        // Event rewards of logins not seen before (a follow before the first chat line) are paid now they are here.
        await db.$executeRaw`
          WITH due AS (
            UPDATE chatbot_point_rewards r SET paid_at = ${at}
            WHERE r.channel_id = ${channelId} AND r.paid_at IS NULL AND r.login = ANY(${entries.map((e) => e.login)}::text[])
            RETURNING r.login, r.points),
          sums AS (SELECT login, sum(points)::int AS points FROM due GROUP BY login)
          UPDATE chatbot_viewers v SET points = v.points + sums.points
          FROM sums WHERE v.channel_id = ${channelId} AND v.platform_user_id = ANY(${entries.map((e) => e.userId)}::text[]) AND v.login = sums.login`;
      },
      channelInfo: async () => {
        if (this.info && Date.now() - this.info.at < CHANNEL_INFO_MS) return this.info.value;
        try {
          const res = await this.helix.request<{ data?: { title?: string; game_name?: string }[] }>('GET', '/channels', { broadcaster_id: twitch.userId });
          const value = { title: res?.data?.[0]?.title ?? '', game: res?.data?.[0]?.game_name ?? '' };
          this.info = { at: Date.now(), value };
          return value;
        } catch {
          return this.info?.value ?? { title: '', game: '' };
        }
      },
      isLive: async () => {
        // Twitch's answer (polled) covers streams without OnAir; OnAir's own broadcast of the channel owner counts at once.
        if (this.twitchLive?.value) return true;
        if (this.live && Date.now() - this.live.at < LIVE_CHECK_MS) return this.live.value;
        const value = (await db.broadcast.count({ where: { state: 'live', project: { ownerId: channelId } } })) > 0;
        this.live = { at: Date.now(), value };
        return value;
      },
      claim: async (id) => (await redis.set(chatbotKeys.handled(channelId, id), '1', 'EX', HANDLED_TTL_SECONDS, 'NX')) === 'OK',
    };
  }

  /**
   * Giveaway news to say in chat: the open one's start (once, claimed in Redis for as long as it
   * runs), and results not announced yet (claimed in PostgreSQL), of the last hour only: a bot
   * turned on later does not recite old results.
   */
  private async raffleNews(): Promise<RaffleNews[]> {
    const { db, redis, channelId } = this.deps;
    const at = new Date(this.deps.now());
    const out: RaffleNews[] = [];
    const open = await db.chatbotRaffle.findFirst({ where: { channelId, status: 'open' } });
    if (open) {
      const ttl = Math.max(60, Math.ceil((open.closesAt.getTime() - at.getTime()) / 1000) + 3600);
      if ((await redis.set(chatbotKeys.handled(channelId, `raffle-open:${open.id}`), '1', 'EX', ttl, 'NX')) === 'OK')
        out.push({
          id: open.id,
          status: 'open',
          keyword: open.keyword,
          entryCost: open.entryCost,
          closesAt: open.closesAt.getTime(),
          winner: null,
          entrants: 0,
        });
    }
    const done = await db.$queryRaw<
      {
        id: string;
        status: string;
        keyword: string;
        entry_cost: number;
        closes_at: Date;
        winner_login: string | null;
        winner_points: number | null;
        drawn_at: Date | null;
      }[]
    >`
      UPDATE chatbot_raffles SET announced_at = ${at}
      WHERE channel_id = ${channelId} AND status <> 'open' AND announced_at IS NULL
      RETURNING id, status, keyword, entry_cost, closes_at, winner_login, winner_points, drawn_at`;
    const recent = done.filter((r) => (r.status === 'drawn' || r.status === 'cancelled') && (r.drawn_at?.getTime() ?? 0) >= at.getTime() - 3_600_000);
    const counts = recent.length
      ? await db.chatbotRaffleEntry.groupBy({ by: ['raffleId'], where: { raffleId: { in: recent.map((r) => r.id) } }, _count: { _all: true } })
      : [];
    for (const r of recent) {
      out.push({
        id: r.id,
        status: r.status as 'drawn' | 'cancelled',
        keyword: r.keyword,
        entryCost: r.entry_cost,
        closesAt: r.closes_at.getTime(),
        winner: r.winner_login ? { login: r.winner_login, points: r.winner_points ?? 0 } : null,
        entrants: counts.find((c) => c.raffleId === r.id)?._count._all ?? 0,
      });
    }
    return out;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.purges.close();
    if (this.ticker) clearInterval(this.ticker);
    if (this.livePoller) clearInterval(this.livePoller);
    this.inbox.length = 0;
    this.helix.close();
    await this.connector?.stop().catch(() => undefined);
  }
}
