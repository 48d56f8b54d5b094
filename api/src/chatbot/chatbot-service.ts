import { randomInt } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import {
  CHATBOT_LIST_MAX,
  chatbotAlertsSchema,
  chatbotExtrasSchema,
  chatbotFiltersSchema,
  chatbotLinkPreviewSchema,
  chatbotLoyaltySchema,
  chatbotModerationSchema,
  chatbotPermissionSchema,
  chatbotRanksSchema,
  chatbotTimerSettingsSchema,
  DEFAULT_CHATBOT_ALERTS,
  DEFAULT_EXTRAS,
  DEFAULT_FILTERS,
  DEFAULT_LINK_PREVIEW,
  DEFAULT_LOYALTY,
  DEFAULT_MODERATION,
  DEFAULT_TIMER_SETTINGS,
  DEFAULT_WARNING_LEVELS,
  OnAirError,
  RAFFLE_HISTORY,
  warningLevelsSchema,
  type Raffle,
  type RaffleSettings,
  type ChatbotCommand,
  type ChatbotConfig,
  type ChatbotConnection,
  type ChatbotFilters,
  type ChatbotHealth,
  type ChatbotQuote,
  type ChatbotTimer,
  type ChatbotUser,
} from '@onair/protocol';
import { Prisma, type Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { bannedWordError } from './engine/filters.ts';
import { drawWeighted, entryWeight } from './engine/raffle-draw.ts';
import type { BotConfig } from './engine/engine.ts';
import { chatbotKeys } from './keys.ts';

type CommandRow = Prisma.ChatbotCommandGetPayload<object>;
type SettingsRow = Prisma.ChatbotSettingsGetPayload<object>;
type RaffleRow = Prisma.ChatbotRaffleGetPayload<object>;

/** The JSON columns of chatbot_settings, each with its schema and default. */
const sections = {
  filters: { schema: chatbotFiltersSchema, fallback: DEFAULT_FILTERS },
  moderation: { schema: chatbotModerationSchema, fallback: DEFAULT_MODERATION },
  warningLevels: { schema: warningLevelsSchema, fallback: DEFAULT_WARNING_LEVELS },
  timerSettings: { schema: chatbotTimerSettingsSchema, fallback: DEFAULT_TIMER_SETTINGS },
  alerts: { schema: chatbotAlertsSchema, fallback: DEFAULT_CHATBOT_ALERTS },
  loyalty: { schema: chatbotLoyaltySchema, fallback: DEFAULT_LOYALTY },
  ranks: { schema: chatbotRanksSchema, fallback: [] },
  linkPreview: { schema: chatbotLinkPreviewSchema, fallback: DEFAULT_LINK_PREVIEW },
  extras: { schema: chatbotExtrasSchema, fallback: DEFAULT_EXTRAS },
} as const;
export type ChatbotSection = keyof typeof sections;
type SectionValue<K extends ChatbotSection> = z.output<(typeof sections)[K]['schema']>;

function section<K extends ChatbotSection>(row: SettingsRow | null, key: K): SectionValue<K> {
  const stored = row?.[key];
  if (stored === null || stored === undefined) return structuredClone(sections[key].fallback) as SectionValue<K>;
  const parsed = sections[key].schema.safeParse(stored);
  // A document an older version wrote that no longer parses falls back to the defaults, not a 500.
  return (parsed.success ? parsed.data : structuredClone(sections[key].fallback)) as SectionValue<K>;
}

/** What a running bot reports in Redis; the page's health is read from it. */
export const botStateSchema = z.object({
  state: z.enum(['connecting', 'connected', 'error']),
  error: z.string().optional(),
  notices: z.array(z.string()).optional(),
});
export type BotState = z.infer<typeof botStateSchema>;

/** How long a bot just turned on may go without any replica reporting before its health is 'unknown'. */
const PENDING_MS = 30_000;

const toCommand = (r: CommandRow): ChatbotCommand => ({
  id: r.id,
  command: r.name,
  message: r.message,
  permission: chatbotPermissionSchema.catch('everyone').parse(r.permission),
  replyToSender: r.replyToSender,
  description: r.description,
  pointCost: r.pointCost,
  platforms: ['twitch'],
  globalCooldownSeconds: r.globalCooldownSeconds,
  userCooldownSeconds: r.userCooldownSeconds,
  enabled: r.enabled,
  count: r.useCount,
});

/**
 * The Chatbot page's data: each section's settings (defaults until saved), the lists, and the
 * connection's health. Who may change what was checked before (mount() and the channel
 * capabilities); every change tells the running bot to reload.
 */
export class ChatbotService {
  constructor(private readonly deps: { db: Db; redis: Redis; logger: Logger; now?: () => Date }) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The channel's Twitch login and user id, from its linked Twitch account (null without one). */
  async twitchOf(channelId: string): Promise<{ login: string; userId: string } | null> {
    const account = await this.deps.db.account.findFirst({
      where: { userId: channelId, providerId: 'twitch' },
      select: { accountId: true },
      orderBy: { createdAt: 'asc' },
    });
    if (!account) return null;
    const login = await this.deps.db.platformLogin.findUnique({
      where: { providerId_accountId: { providerId: 'twitch', accountId: account.accountId } },
      select: { login: true },
    });
    return login ? { login: login.login, userId: account.accountId } : null;
  }

  async config(channelId: string): Promise<ChatbotConfig> {
    const { db } = this.deps;
    const [row, commands, timers, quotes, users, connection] = await Promise.all([
      db.chatbotSettings.findUnique({ where: { channelId } }),
      db.chatbotCommand.findMany({ where: { channelId }, orderBy: { nameKey: 'asc' } }),
      db.chatbotTimer.findMany({ where: { channelId }, orderBy: { createdAt: 'asc' } }),
      db.chatbotQuote.findMany({ where: { channelId }, orderBy: { number: 'asc' } }),
      db.chatbotUser.findMany({ where: { channelId }, orderBy: { usernameKey: 'asc' } }),
      this.connection(channelId),
    ]);
    const user = (u: (typeof users)[number]): ChatbotUser => ({ id: u.id, username: u.username, platform: 'twitch' });
    return {
      connection,
      commands: commands.map(toCommand),
      timers: timers.map((t): ChatbotTimer => ({ id: t.id, name: t.name, message: t.message, platforms: ['twitch'], enabled: t.enabled })),
      timerSettings: section(row, 'timerSettings'),
      filters: section(row, 'filters'),
      warningLevels: section(row, 'warningLevels'),
      moderation: section(row, 'moderation'),
      ignoredUsers: users.filter((u) => u.kind === 'ignored').map(user),
      regulars: users.filter((u) => u.kind === 'regular').map(user),
      quotes: quotes.map((q): ChatbotQuote => ({ id: q.id, number: q.number, message: q.message, author: q.author, createdAt: q.createdAt.toISOString() })),
      alerts: section(row, 'alerts'),
      loyalty: section(row, 'loyalty'),
      ranks: section(row, 'ranks'),
      linkPreview: section(row, 'linkPreview'),
      extras: section(row, 'extras'),
    };
  }

  /** What the bot engine runs on, read fresh (the runner calls it on start and on every change). */
  async botConfig(channelId: string, channelLogin: string): Promise<BotConfig> {
    const [c, open, unannounced] = await Promise.all([
      this.config(channelId),
      this.deps.db.chatbotRaffle.findFirst({ where: { channelId, status: 'open' } }),
      this.deps.db.chatbotRaffle.count({ where: { channelId, status: { not: 'open' }, announcedAt: null } }),
    ]);
    return {
      channelLogin,
      commands: c.commands,
      timers: c.timers,
      timerSettings: c.timerSettings,
      filters: c.filters,
      warningLevels: c.warningLevels,
      moderation: c.moderation,
      ignored: new Set(c.ignoredUsers.map((u) => u.username.toLowerCase())),
      regulars: new Set(c.regulars.map((u) => u.username.toLowerCase())),
      alerts: c.alerts,
      loyalty: c.loyalty,
      ranks: c.ranks,
      extras: c.extras,
      linkPreview: c.linkPreview,
      raffle: open
        ? { id: open.id, keyword: open.keyword.toLowerCase(), entryCost: open.entryCost, maxEntries: open.maxEntries, closesAt: open.closesAt.getTime() }
        : null,
      raffleNews: open !== null || unannounced > 0,
    };
  }

  /**
   * Spec §4 connection health: disabled (turned off), duplicate (another OnAir channel runs a bot
   * in the same Twitch chat and took it first), pending (just turned on, no replica has reported
   * yet), healthy (connected), unhealthy (the bot reports an error: no Twitch account, chat
   * refused), unknown (on, but no replica has reported for a while: no bot runner is up).
   */
  async connection(channelId: string): Promise<ChatbotConnection> {
    const [row, twitch] = await Promise.all([
      this.deps.db.chatbotSettings.findUnique({ where: { channelId }, select: { enabled: true, enabledAt: true } }),
      this.twitchOf(channelId),
    ]);
    const enabled = row?.enabled ?? false;
    const out = (health: ChatbotHealth, reason: string | null, notices: string[] = []): ChatbotConnection => ({
      enabled,
      twitchLogin: twitch?.login ?? null,
      health,
      reason,
      notices,
    });
    if (!enabled) return out('disabled', 'The chatbot is turned off.');
    if (!twitch) return out('unhealthy', 'No Twitch account is linked to this channel.');
    const first = await this.firstChannelOf(twitch.login);
    if (first !== channelId) return out('duplicate', `Another OnAir channel already runs the chatbot in the Twitch chat of ${twitch.login}.`);
    const raw = await this.deps.redis.get(chatbotKeys.state(channelId)).catch(() => null);
    const state = raw ? botStateSchema.safeParse(JSON.parse(raw)) : null;
    if (state?.success) {
      const notices = state.data.notices ?? [];
      if (state.data.state === 'connected') return out('healthy', null, notices);
      if (state.data.state === 'error') return out('unhealthy', state.data.error ?? 'The chatbot cannot reach the Twitch chat.', notices);
      return out('pending', 'Connecting to the Twitch chat…');
    }
    const since = row?.enabledAt?.getTime() ?? 0;
    if (this.now().getTime() - since < PENDING_MS) return out('pending', 'Starting the chatbot…');
    return out('unknown', 'No chatbot runner has reported for this channel. Try again in a minute.');
  }

  /** Of the channels with the bot on for one Twitch login, the one that turned it on first runs it. */
  async firstChannelOf(login: string): Promise<string | null> {
    const rows = await this.deps.db.$queryRaw<{ channel_id: string }[]>`
      SELECT s.channel_id FROM chatbot_settings s
      JOIN accounts a ON a.user_id = s.channel_id AND a.provider_id = 'twitch'
      JOIN platform_logins p ON p.provider_id = 'twitch' AND p.account_id = a.account_id
      WHERE s.enabled AND p.login = ${login}
      ORDER BY s.enabled_at ASC NULLS LAST, s.channel_id ASC LIMIT 1`;
    return rows[0]?.channel_id ?? null;
  }

  async setEnabled(channelId: string, enabled: boolean): Promise<ChatbotConnection> {
    if (enabled && !(await this.twitchOf(channelId))) throw new OnAirError('CHATBOT_NO_TWITCH');
    const enabledAt = enabled ? this.now() : null;
    const current = await this.deps.db.chatbotSettings.findUnique({ where: { channelId }, select: { enabled: true } });
    // Turning on again keeps the original time: it decides which channel runs a shared chat.
    const data = current?.enabled === enabled ? { enabled } : { enabled, enabledAt };
    await this.deps.db.chatbotSettings.upsert({ where: { channelId }, create: { channelId, ...data }, update: data });
    await this.changed(channelId);
    return this.connection(channelId);
  }

  async updateSection<K extends ChatbotSection>(channelId: string, key: K, value: SectionValue<K>): Promise<ChatbotConfig> {
    if (key === 'filters') {
      for (const p of (value as ChatbotFilters).bannedWords.patterns) {
        const error = bannedWordError(p);
        if (error) throw new OnAirError('CHATBOT_PATTERN_INVALID', error, { field: 'bannedWords.patterns', pattern: p.slice(0, 200) });
      }
    }
    const json = value as Prisma.InputJsonValue;
    await this.deps.db.chatbotSettings.upsert({ where: { channelId }, create: { channelId, [key]: json }, update: { [key]: json } });
    await this.changed(channelId);
    return this.config(channelId);
  }

  // ---- Commands ----

  async createCommand(channelId: string, input: CommandInput): Promise<ChatbotCommand> {
    await this.roomFor(this.deps.db.chatbotCommand.count({ where: { channelId } }), CHATBOT_LIST_MAX.commands);
    const row = await this.unique(() => this.deps.db.chatbotCommand.create({ data: { channelId, ...commandData(input) } }), 'CHATBOT_COMMAND_TAKEN');
    await this.changed(channelId);
    return toCommand(row);
  }

  async updateCommand(channelId: string, id: string, input: CommandInput): Promise<ChatbotCommand> {
    const done = await this.unique(
      () => this.deps.db.chatbotCommand.updateMany({ where: { id, channelId }, data: commandData(input) }),
      'CHATBOT_COMMAND_TAKEN',
    );
    if (done.count === 0) throw new OnAirError('CHATBOT_ITEM_NOT_FOUND');
    await this.changed(channelId);
    return toCommand(await this.deps.db.chatbotCommand.findUniqueOrThrow({ where: { id } }));
  }

  async deleteCommand(channelId: string, id: string): Promise<void> {
    await this.removed(this.deps.db.chatbotCommand.deleteMany({ where: { id, channelId } }), channelId);
  }

  // ---- Timers ----

  async createTimer(channelId: string, input: TimerInput): Promise<ChatbotTimer> {
    await this.roomFor(this.deps.db.chatbotTimer.count({ where: { channelId } }), CHATBOT_LIST_MAX.timers);
    const t = await this.deps.db.chatbotTimer.create({ data: { channelId, name: input.name, message: input.message, enabled: input.enabled } });
    await this.changed(channelId);
    return { id: t.id, name: t.name, message: t.message, platforms: ['twitch'], enabled: t.enabled };
  }

  async updateTimer(channelId: string, id: string, input: TimerInput): Promise<ChatbotTimer> {
    const done = await this.deps.db.chatbotTimer.updateMany({
      where: { id, channelId },
      data: { name: input.name, message: input.message, enabled: input.enabled },
    });
    if (done.count === 0) throw new OnAirError('CHATBOT_ITEM_NOT_FOUND');
    await this.changed(channelId);
    return { id, name: input.name, message: input.message, platforms: ['twitch'], enabled: input.enabled };
  }

  async deleteTimer(channelId: string, id: string): Promise<void> {
    await this.removed(this.deps.db.chatbotTimer.deleteMany({ where: { id, channelId } }), channelId);
  }

  // ---- Quotes ----

  /** The next number of the channel: a counter that only grows, so a deleted quote's number is never given again. */
  async addQuote(channelId: string, input: { message: string; author: string }): Promise<ChatbotQuote> {
    await this.roomFor(this.deps.db.chatbotQuote.count({ where: { channelId } }), CHATBOT_LIST_MAX.quotes);
    const q = await this.deps.db.$transaction(async (tx) => {
      const seq = await tx.chatbotSettings.upsert({
        where: { channelId },
        create: { channelId, lastQuoteNumber: 1 },
        update: { lastQuoteNumber: { increment: 1 } },
        select: { lastQuoteNumber: true },
      });
      return tx.chatbotQuote.create({ data: { channelId, number: seq.lastQuoteNumber, message: input.message, author: input.author, createdAt: this.now() } });
    });
    await this.changed(channelId);
    return { id: q.id, number: q.number, message: q.message, author: q.author, createdAt: q.createdAt.toISOString() };
  }

  async deleteQuote(channelId: string, id: string): Promise<void> {
    await this.removed(this.deps.db.chatbotQuote.deleteMany({ where: { id, channelId } }), channelId);
  }

  // ---- Regulars and ignored users ----

  async addUser(channelId: string, kind: 'regular' | 'ignored', username: string): Promise<ChatbotUser> {
    await this.roomFor(this.deps.db.chatbotUser.count({ where: { channelId, kind } }), CHATBOT_LIST_MAX.users);
    const u = await this.unique(
      () => this.deps.db.chatbotUser.create({ data: { channelId, kind, platform: 'twitch', username, usernameKey: username.toLowerCase() } }),
      'CHATBOT_USER_LISTED',
    );
    await this.changed(channelId);
    return { id: u.id, username: u.username, platform: 'twitch' };
  }

  async removeUser(channelId: string, kind: 'regular' | 'ignored', id: string): Promise<void> {
    await this.removed(this.deps.db.chatbotUser.deleteMany({ where: { id, channelId, kind } }), channelId);
  }

  // ---- Giveaways (issue 40) ----

  /** The running giveaway, if any, and the past ones, newest first. */
  async raffles(channelId: string): Promise<Raffle[]> {
    const rows = await this.deps.db.chatbotRaffle.findMany({ where: { channelId }, orderBy: { openedAt: 'desc' }, take: RAFFLE_HISTORY });
    return this.raffleViews(rows);
  }

  private async raffleViews(rows: RaffleRow[]): Promise<Raffle[]> {
    const sums = await this.deps.db.chatbotRaffleEntry.groupBy({
      by: ['raffleId'],
      where: { raffleId: { in: rows.map((r) => r.id) } },
      _count: { _all: true },
      _sum: { tickets: true },
    });
    const by = new Map(sums.map((s) => [s.raffleId, s]));
    return rows.map((r) => ({
      id: r.id,
      keyword: r.keyword,
      entryCost: r.entryCost,
      subscriberLuck: r.subscriberLuck,
      maxEntriesPerViewer: r.maxEntries,
      status: r.status === 'drawn' || r.status === 'cancelled' ? r.status : 'open',
      openedAt: r.openedAt.toISOString(),
      closesAt: r.closesAt.toISOString(),
      drawnAt: r.drawnAt?.toISOString() ?? null,
      entrants: by.get(r.id)?._count._all ?? 0,
      tickets: by.get(r.id)?._sum.tickets ?? 0,
      winner: r.winnerLogin ? { login: r.winnerLogin, points: r.winnerPoints ?? 0 } : null,
    }));
  }

  private async raffleView(id: string): Promise<Raffle> {
    const [view] = await this.raffleViews([await this.deps.db.chatbotRaffle.findUniqueOrThrow({ where: { id } })]);
    return view!;
  }

  /** Opens a giveaway (one at a time: one whose time is up but was not drawn, with no bot running, is drawn first). */
  async openRaffle(channelId: string, input: RaffleSettings): Promise<Raffle> {
    const now = this.now();
    const stale = await this.deps.db.chatbotRaffle.findFirst({ where: { channelId, status: 'open', closesAt: { lte: now } }, select: { id: true } });
    if (stale) await this.drawRaffle(channelId, stale.id);
    let row: RaffleRow;
    try {
      row = await this.deps.db.chatbotRaffle.create({
        data: {
          channelId,
          keyword: input.keyword,
          entryCost: input.entryCost,
          subscriberLuck: input.subscriberLuck,
          maxEntries: input.maxEntriesPerViewer,
          openedAt: now,
          closesAt: new Date(now.getTime() + input.durationMinutes * 60_000),
        },
      });
    } catch (err) {
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw new OnAirError('CHATBOT_RAFFLE_OPEN');
      throw err;
    }
    this.deps.logger.info({ channelId, raffleId: row.id }, 'giveaway opened');
    await this.changed(channelId);
    return this.raffleView(row.id);
  }

  /**
   * Draws the winner of an open giveaway: one uniform integer from crypto.randomInt below the sum
   * of the weights (tickets, times the luck for subscribers) picks the entry (drawWeighted), so
   * each viewer's chance is exactly their weight over the total. The raffle-win reward of the
   * Points program is paid in the same transaction, once (its ledger key is the giveaway's id).
   * The bot announces the result. Entries and the draw lock the giveaway's row, so no ticket
   * sneaks in after the draw.
   */
  async drawRaffle(channelId: string, raffleId: string, random: (max: number) => number = randomInt): Promise<Raffle> {
    const now = this.now();
    const settings = await this.deps.db.chatbotSettings.findUnique({ where: { channelId } });
    const loyalty = section(settings, 'loyalty');
    const reward = loyalty.program === 'points' ? loyalty.points.rewards.raffleWin : 0;
    const drawn = await this.deps.db.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<{ id: string; status: string; subscriber_luck: number }[]>`
        SELECT id, status, subscriber_luck FROM chatbot_raffles WHERE id = ${raffleId}::uuid AND channel_id = ${channelId} FOR UPDATE`;
      const raffle = locked[0];
      if (!raffle) throw new OnAirError('CHATBOT_ITEM_NOT_FOUND');
      if (raffle.status !== 'open') throw new OnAirError('CHATBOT_RAFFLE_CLOSED');
      // A stable order (by entry time, then id), so the same random number always names the same viewer.
      const entries = await tx.chatbotRaffleEntry.findMany({ where: { raffleId }, orderBy: [{ createdAt: 'asc' }, { platformUserId: 'asc' }] });
      const index = drawWeighted(
        entries.map((e) => entryWeight(e, raffle.subscriber_luck)),
        random,
      );
      const winner = index === null ? null : entries[index]!;
      if (winner && reward > 0) {
        const paid = await tx.$executeRaw`
          INSERT INTO chatbot_point_rewards (channel_id, key, kind, login, points, paid_at)
          VALUES (${channelId}, ${`raffle:${raffleId}`}, 'raffleWin', ${winner.login}, ${reward}, ${now})
          ON CONFLICT DO NOTHING`;
        if (paid > 0)
          await tx.$executeRaw`
            INSERT INTO chatbot_viewers (channel_id, platform_user_id, login, points, updated_at)
            VALUES (${channelId}, ${winner.platformUserId}, ${winner.login}, ${reward}, ${now})
            ON CONFLICT (channel_id, platform_user_id) DO UPDATE SET points = chatbot_viewers.points + EXCLUDED.points, updated_at = EXCLUDED.updated_at`;
      }
      await tx.chatbotRaffle.update({
        where: { id: raffleId },
        data: {
          status: 'drawn',
          drawnAt: now,
          winnerUserId: winner?.platformUserId ?? null,
          winnerLogin: winner?.login ?? null,
          winnerPoints: winner ? reward : null,
        },
      });
      return winner;
    });
    this.deps.logger.info({ channelId, raffleId, winner: drawn !== null }, 'giveaway drawn');
    await this.changed(channelId);
    return this.raffleView(raffleId);
  }

  /** Cancels an open giveaway: no winner, and the points paid for tickets go back to each viewer. */
  async cancelRaffle(channelId: string, raffleId: string): Promise<Raffle> {
    const now = this.now();
    await this.deps.db.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<{ status: string }[]>`
        SELECT status FROM chatbot_raffles WHERE id = ${raffleId}::uuid AND channel_id = ${channelId} FOR UPDATE`;
      if (!locked[0]) throw new OnAirError('CHATBOT_ITEM_NOT_FOUND');
      if (locked[0].status !== 'open') throw new OnAirError('CHATBOT_RAFFLE_CLOSED');
      await tx.$executeRaw`
        UPDATE chatbot_viewers v SET points = v.points + e.points_spent, updated_at = ${now}
        FROM chatbot_raffle_entries e
        WHERE e.raffle_id = ${raffleId}::uuid AND e.points_spent > 0 AND v.channel_id = ${channelId} AND v.platform_user_id = e.platform_user_id`;
      await tx.chatbotRaffle.update({ where: { id: raffleId }, data: { status: 'cancelled', drawnAt: now } });
    });
    this.deps.logger.info({ channelId, raffleId }, 'giveaway cancelled');
    await this.changed(channelId);
    return this.raffleView(raffleId);
  }

  private async roomFor(count: Promise<number>, maximum: number): Promise<void> {
    if ((await count) >= maximum) throw new OnAirError('CHATBOT_LIST_FULL', undefined, { maximum });
  }

  private async unique<T>(run: () => Promise<T>, code: 'CHATBOT_COMMAND_TAKEN' | 'CHATBOT_USER_LISTED'): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw new OnAirError(code);
      throw err;
    }
  }

  private async removed(deleting: Promise<{ count: number }>, channelId: string): Promise<void> {
    if ((await deleting).count === 0) throw new OnAirError('CHATBOT_ITEM_NOT_FOUND');
    await this.changed(channelId);
  }

  /** Tells the replica running the channel's bot to read its settings again. */
  private async changed(channelId: string): Promise<void> {
    await this.deps.redis
      .publish(chatbotKeys.changed, channelId)
      .catch((err: unknown) => this.deps.logger.warn({ err: (err as Error).message, channelId }, 'chatbot change not published'));
  }
}

export interface CommandInput {
  command: string;
  message: string;
  permission: string;
  replyToSender: boolean;
  description: string;
  pointCost: number;
  globalCooldownSeconds: number;
  userCooldownSeconds: number;
  enabled: boolean;
}
export interface TimerInput {
  name: string;
  message: string;
  enabled: boolean;
}

function commandData(input: CommandInput) {
  return {
    name: input.command,
    nameKey: input.command.toLowerCase(),
    message: input.message,
    permission: input.permission,
    replyToSender: input.replyToSender,
    description: input.description,
    pointCost: input.pointCost,
    platforms: ['twitch'],
    globalCooldownSeconds: input.globalCooldownSeconds,
    userCooldownSeconds: input.userCooldownSeconds,
    enabled: input.enabled,
  };
}
