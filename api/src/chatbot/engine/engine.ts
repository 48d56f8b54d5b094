import {
  alertValues,
  chatbotPermissionLevels,
  durationSeconds,
  TWITCH_TIMEOUT_MAX_SECONDS,
  type AlertEventType,
  type ChatSegment,
  type ChatbotAlerts,
  type ChatbotExtras,
  type ChatbotFilters,
  type ChatbotLinkPreview,
  type ChatbotLoyalty,
  type ChatbotModeration,
  type ChatbotPermission,
  type ChatbotRank,
  type ChatbotTimerSettings,
  type LiveEvent,
  type PointsRewardEvent,
  type WarningLevel,
} from '@onair/protocol';
import type { RE2 } from 're2-wasm';
import { compileBannedWords, parseWhitelist, runFilters, type FilterHit } from './filters.ts';
import { clip, renderTemplate } from './template.ts';

/** A chat message as the bot reads it (Twitch tags: who, their badges, whether it is their first). */
export interface BotMessage {
  id: string;
  userId: string;
  login: string;
  displayName: string;
  text: string;
  segments: readonly ChatSegment[];
  roles: { broadcaster: boolean; moderator: boolean; vip: boolean; subscriber: boolean };
  firstMessage: boolean;
}

/** What the bot does in the channel; the runtime does it through Helix. */
export interface BotActions {
  say(text: string): Promise<void>;
  deleteMessage(messageId: string): Promise<void>;
  timeout(userId: string, seconds: number, reason: string): Promise<void>;
  ban(userId: string, reason: string): Promise<void>;
  /** Follower-only (minutes followed) and slow mode (seconds); null turns one off. */
  restrictChat(settings: { followerOnlyMinutes: number | null; slowSeconds: number | null }): Promise<void>;
  /** Starts a preview of a link said in chat (fetched and posted later, or not at all): never waited for. */
  previewLink(messageId: string, href: string, maxPerMinute: number): void;
  /**
   * Removes everything these viewers wrote (the hate-raid guard): handed over as one batch, which
   * the runtime sends within Helix's limits (a short timeout per viewer clears all their lines,
   * so a viewer costs one call however many lines they wrote). Never waited for.
   */
  purge(userIds: readonly string[], reason: string): void;
}

/** The hate-raid guard's state: armed (by a raid) until, active (chat restricted) until; 0 when not. */
export interface GuardState {
  armedUntil: number;
  activeUntil: number;
}

/**
 * What the bot remembers between messages that must outlive the replica running it (issue 40):
 * cooldowns, !permits and the hate-raid guard. In a replica it is Redis, so a takeover by
 * another replica keeps them. Times are the bot's clock (ms), so a test's moved clock holds.
 */
export interface BotMemory {
  /** Whether any of these keys cools down still (its end is after `now`). */
  cooling(keys: readonly string[], now: number): Promise<boolean>;
  /** Each key cools down until its `until`. */
  cool(entries: readonly { key: string; until: number }[], now: number): Promise<void>;
  permit(login: string, until: number, now: number): Promise<void>;
  permitted(login: string, now: number): Promise<boolean>;
  guard(): Promise<GuardState>;
  setGuard(state: Partial<GuardState>): Promise<void>;
  /** Notes a first-time chatter's message; the ones since `since` (this one included), oldest first. */
  firstTimer(entry: { at: number; userId: string; messageId: string }, since: number): Promise<{ userId: string; messageId: string }[]>;
  clearFirstTimers(): Promise<void>;
  /** Of these viewers, those not purged yet while the guard is on (they are marked purged). */
  unpurged(userIds: readonly string[]): Promise<string[]>;
  clearPurged(): Promise<void>;
}

/** The open giveaway as the bot sees it. */
export interface BotRaffle {
  id: string;
  /** Lower case, as compared with the first word of a message. */
  keyword: string;
  entryCost: number;
  maxEntries: number;
  closesAt: number;
}

/** A giveaway's news to say in chat (opened, drawn or cancelled). */
export interface RaffleNews {
  id: string;
  status: 'open' | 'drawn' | 'cancelled';
  keyword: string;
  entryCost: number;
  closesAt: number;
  winner: { login: string; points: number } | null;
  entrants: number;
}

/** What the bot keeps and reads; the runtime backs it with PostgreSQL and Helix. */
export interface BotData {
  /** Counts one more use of a command; the new count (the {count} variable). */
  countUse(commandId: string): Promise<number>;
  /** Takes `cost` points when the viewer has them; their balance after (or as it is when refused). */
  spendPoints(userId: string, login: string, cost: number): Promise<{ spent: boolean; balance: number }>;
  points(userId: string): Promise<number>;
  /** Seconds a viewer has watched the channel live (ranks, !watchtime). */
  watched(userId: string): Promise<number>;
  /**
   * Who is in the chat now (Twitch's chatters list, lurkers included), or null when it cannot be
   * read (then only recent chatters earn). Asked only when a viewing or watch step is due.
   */
  viewers(): Promise<readonly { userId: string; login: string }[] | null>;
  /**
   * Pays an event reward of the Points program once per `key` (the event's id): a second delivery
   * of the same event, or the next owner after a takeover, pays nothing. By login (events name
   * the viewer by name); a login the channel has not seen yet is paid when it first shows up.
   * True when this call recorded it.
   */
  reward(key: string, kind: string, login: string, points: number): Promise<boolean>;
  /** A ticket in the open giveaway for this viewer, paying `cost` points. */
  enterRaffle(
    raffle: BotRaffle,
    viewer: { userId: string; login: string; subscriber: boolean },
    cost: number,
  ): Promise<{ entered: true; tickets: number } | { entered: false; reason: 'closed' | 'max' | 'points'; balance: number }>;
  /** Draws the giveaway now (its time is up); nothing when it was drawn or cancelled already. */
  drawRaffle(id: string): Promise<void>;
  /** Giveaway news not said in chat yet (opened, drawn, cancelled), each claimed once for this bot. */
  raffleNews(): Promise<RaffleNews[]>;
  /** One more warning (older ones than `since` are forgotten first); the count now. */
  warn(userId: string, login: string, since: Date): Promise<number>;
  addQuote(message: string, author: string): Promise<{ number: number; createdAt: Date }>;
  /** A quote by number, or a random one. */
  quote(number: number | null): Promise<{ number: number; message: string; author: string; createdAt: Date } | null>;
  /** Points and seconds watched to add, per viewer. */
  accrue(entries: readonly { userId: string; login: string; points: number; seconds: number }[]): Promise<void>;
  /**
   * Adds every viewer who has watched at least `seconds` to the regulars (the Regulars program's
   * promotion, within the list's maximum); the logins added.
   */
  promoteRegulars(seconds: number): Promise<string[]>;
  /** The channel's title and game ({title}, {game}). */
  channelInfo(): Promise<{ title: string; game: string }>;
  isLive(): Promise<boolean>;
  /**
   * Claims a message for this bot before it acts on it: false when it was already handled (by a
   * replica that owned the channel before). This is what rules out double replies over a takeover.
   */
  claim(messageId: string): Promise<boolean>;
}

export interface BotCommand {
  id: string;
  command: string;
  message: string;
  permission: ChatbotPermission;
  replyToSender: boolean;
  pointCost: number;
  globalCooldownSeconds: number;
  userCooldownSeconds: number;
  enabled: boolean;
}

/** The channel's settings as the bot uses them (a snapshot; replaced when the creator edits). */
export interface BotConfig {
  channelLogin: string;
  commands: readonly BotCommand[];
  timers: readonly { id: string; message: string; enabled: boolean }[];
  timerSettings: ChatbotTimerSettings;
  filters: ChatbotFilters;
  warningLevels: readonly WarningLevel[];
  moderation: ChatbotModeration;
  ignored: ReadonlySet<string>;
  regulars: ReadonlySet<string>;
  alerts: ChatbotAlerts;
  loyalty: ChatbotLoyalty;
  ranks: readonly ChatbotRank[];
  extras: ChatbotExtras;
  linkPreview: ChatbotLinkPreview;
  /** The giveaway running now, if any. */
  raffle: BotRaffle | null;
  /** Whether a giveaway has news to say in chat (opened, drawn or cancelled and not announced yet). */
  raffleNews: boolean;
}

/** A viewer counts as watching for this long after their last message (with Twitch's chatters list, or in its place). */
export const PRESENCE_MS = 60 * 60_000;
/** Hours watched (ranks) are counted in steps of this while live. */
export const WATCH_STEP_MS = 5 * 60_000;
const ARGS_MAX = 200;

const levelRank = (p: ChatbotPermission) => chatbotPermissionLevels.indexOf(p);

interface Presence {
  login: string;
  subscriber: boolean;
  lastChatAt: number;
}

/**
 * One channel's bot: what a message, an event or the passing of time makes it do. It holds no
 * connection and no clock of its own (both are given), so it is the same in a test and in a
 * replica. Cooldowns, permits and the hate-raid guard are kept in BotMemory (Redis: they survive
 * a takeover); the duplicates memory, presence and the timer rotation live here for as long as
 * this replica runs the channel's bot; counts, points, warnings, quotes and giveaways are kept
 * through BotData.
 */
export class BotEngine {
  private config!: BotConfig;
  private compiled: RE2[] = [];
  private whitelist: string[] = [];
  private readonly lastText = new Map<string, { text: string; at: number }>();
  private readonly presence = new Map<string, Presence>();
  private linesSinceTimer = 0;
  private lastTimerAt: number;
  private timerTurn = 0;
  private readonly lastAccrual = { whileChatting: 0, whileViewing: 0, whileOffline: 0, watch: 0 };
  /** Messages handled and actions taken, for the health line and the benchmark. */
  readonly stats = { messages: 0, filtered: 0, replies: 0 };

  constructor(
    config: BotConfig,
    private readonly deps: {
      actions: BotActions;
      data: BotData;
      memory: BotMemory;
      now: () => number;
      onError?: (err: unknown, what: string) => void;
    },
  ) {
    this.reload(config);
    const now = deps.now();
    this.lastTimerAt = now;
    for (const k of Object.keys(this.lastAccrual) as (keyof typeof this.lastAccrual)[]) this.lastAccrual[k] = now;
  }

  reload(config: BotConfig): void {
    this.config = config;
    this.compiled = config.filters.bannedWords.enabled ? compileBannedWords(config.filters.bannedWords.patterns) : [];
    this.whitelist = parseWhitelist(config.filters.links.whitelist);
  }

  private levelOf(m: BotMessage): ChatbotPermission {
    if (m.roles.broadcaster || m.login === this.config.channelLogin) return 'owner';
    if (m.roles.moderator) return 'moderator';
    if (m.roles.vip) return 'vip';
    if (m.roles.subscriber) return 'subscriber';
    if (this.config.regulars.has(m.login)) return 'regular';
    return 'everyone';
  }

  async onMessage(m: BotMessage): Promise<void> {
    this.stats.messages += 1;
    const login = m.login.toLowerCase();
    if (this.config.ignored.has(login)) return;
    const now = this.deps.now();
    this.linesSinceTimer += 1;
    this.presence.set(m.userId, { login, subscriber: m.roles.subscriber, lastChatAt: now });
    const level = this.levelOf(m);
    const exempt = level === 'owner' || level === 'moderator' || levelRank(level) >= levelRank(this.config.filters.exemptLevel);

    if (!exempt && (await this.hateRaidGuard(m, now))) return;
    if (!exempt) {
      const hit = await this.filter(m, now);
      if (hit) {
        this.stats.filtered += 1;
        if (await this.deps.data.claim(m.id)) await this.punish(m, hit, now);
        return;
      }
    }
    const text = m.text.trim();
    if (await this.raffleEntry(m, text, now)) return;
    if (!text.startsWith('!')) {
      // A message that passed the filters (so a link the links filter refuses is never fetched).
      if (this.config.linkPreview.enabled) {
        const link = m.segments.find((s) => s.kind === 'link');
        if (link?.kind === 'link') this.deps.actions.previewLink(m.id, link.href, this.config.linkPreview.maxPerMinute);
      }
      return;
    }
    const [word = '', ...rest] = text.split(/\s+/);
    const name = word.toLowerCase();
    const args = clip(rest.join(' '), ARGS_MAX);
    if (await this.builtIn(m, level, name, args, now)) return;
    const command = this.config.commands.find((c) => c.enabled && c.command.toLowerCase() === name);
    if (command) await this.runCommand(m, level, command, args, now);
  }

  private async filter(m: BotMessage, now: number): Promise<FilterHit | null> {
    const f = this.config.filters;
    const key = m.userId;
    const normalised = m.text.trim().toLowerCase().replace(/\s+/g, ' ');
    const last = this.lastText.get(key);
    const repeated = Boolean(last && last.text === normalised && now - last.at <= f.duplicates.windowSeconds * 1000);
    this.lastText.set(key, { text: normalised, at: now });
    if (this.lastText.size > 50_000) this.lastText.clear();
    // Asked only when a link filter could refuse the message: one Redis read less per line otherwise.
    const permitted = f.links.enabled && m.segments.some((s) => s.kind === 'link') ? await this.deps.memory.permitted(m.login.toLowerCase(), now) : false;
    return runFilters(f, this.compiled, this.whitelist, m, { permitted, repeated });
  }

  private async punish(m: BotMessage, hit: FilterHit, now: number): Promise<void> {
    const punishment = this.config.filters[hit.filter].punishment;
    await this.act(() => this.deps.actions.deleteMessage(m.id), 'delete');
    if (punishment === 'remove-silent') return;
    if (punishment === 'remove-notice') {
      await this.say(`@${m.displayName}, ${hit.notice}`);
      return;
    }
    const since = new Date(now - this.config.moderation.warningsExpireHours * 3_600_000);
    const count = await this.deps.data.warn(m.userId, m.login.toLowerCase(), since);
    const level = [...this.config.warningLevels].filter((l) => l.warnings <= count).sort((a, b) => b.warnings - a.warnings)[0];
    if (!level) {
      await this.say(`@${m.displayName}, ${hit.notice} (warning ${count})`);
      return;
    }
    const reason = `Chat filter (${hit.filter}), warning ${count}`;
    if (level.action === 'ban') {
      await this.act(() => this.deps.actions.ban(m.userId, reason), 'ban');
      await this.say(`@${m.displayName} was banned: ${hit.notice}`);
      return;
    }
    // Twitch refuses a timeout over 14 days; the settings refuse one too, this holds for old rows.
    const seconds = Math.min(durationSeconds(level.duration, level.unit), TWITCH_TIMEOUT_MAX_SECONDS);
    await this.act(() => this.deps.actions.timeout(m.userId, seconds, reason), 'timeout');
    await this.say(`@${m.displayName} was timed out for ${level.duration} ${level.duration === 1 ? level.unit.replace(/s$/, '') : level.unit}: ${hit.notice}`);
  }

  /**
   * First-time chatters flooding (a hate raid). Armed by a raid for `raidWindowMinutes` (or at any
   * time with armOn 'raidOrBurst'): once `firstTimeChatters` of them write within the window, the
   * chat goes follower-only and slow for a while and everything they wrote is removed in one
   * batch (a purge per viewer, not a call per line); while it lasts, each new first-time chatter
   * is purged too (once). Its state is in BotMemory, so a takeover keeps it. True when this
   * message was removed.
   */
  private async hateRaidGuard(m: BotMessage, now: number): Promise<boolean> {
    const g = this.config.moderation.hateRaidGuard;
    if (!g.enabled) return false;
    const state = await this.liftGuard(now);
    if (!m.firstMessage) return false;
    if (state.activeUntil > now) {
      const fresh = await this.deps.memory.unpurged([m.userId]);
      if (fresh.length > 0) this.deps.actions.purge(fresh, 'Hate-raid guard: first-time chatter during a flood');
      return true;
    }
    if (g.armOn === 'raid' && state.armedUntil <= now) return false;
    const flood = await this.deps.memory.firstTimer({ at: now, userId: m.userId, messageId: m.id }, now - g.windowSeconds * 1000);
    if (flood.length < g.firstTimeChatters) return false;
    await this.deps.memory.setGuard({ activeUntil: now + g.durationMinutes * 60_000 });
    await this.deps.memory.clearFirstTimers();
    await this.act(() => this.deps.actions.restrictChat({ followerOnlyMinutes: g.followerOnlyMinutes, slowSeconds: g.slowSeconds || null }), 'hate-raid guard');
    await this.say(`Chat is in follower-only and slow mode for ${g.durationMinutes} minutes: too many first-time chatters at once.`);
    const users = await this.deps.memory.unpurged([...new Set(flood.map((f) => f.userId))]);
    if (users.length > 0) this.deps.actions.purge(users, 'Hate-raid guard: first-time chatters flooding');
    return true;
  }

  /** Lifts the guard once its time is over (chat settings back, the purged list forgotten); the state now. */
  private async liftGuard(now: number): Promise<GuardState> {
    const state = await this.deps.memory.guard();
    if (state.activeUntil === 0 || state.activeUntil > now) return state;
    await this.deps.memory.setGuard({ activeUntil: 0 });
    await this.deps.memory.clearPurged();
    await this.act(() => this.deps.actions.restrictChat({ followerOnlyMinutes: null, slowSeconds: null }), 'lift hate-raid guard');
    return { ...state, activeUntil: 0 };
  }

  /**
   * A viewer entering the open giveaway with its keyword: a ticket (paying its points) until they
   * hold the most allowed. Entries are not answered (a giveaway must not flood the chat), only a
   * refusal for want of points. True when the message was the keyword.
   */
  private async raffleEntry(m: BotMessage, text: string, now: number): Promise<boolean> {
    const raffle = this.config.raffle;
    if (!raffle || now >= raffle.closesAt) return false;
    const word = text.split(/\s+/)[0]?.toLowerCase() ?? '';
    if (word !== raffle.keyword) return false;
    if (!(await this.deps.data.claim(m.id))) return true;
    const cost = this.config.loyalty.program === 'points' ? raffle.entryCost : 0;
    const result = await this.deps.data.enterRaffle(raffle, { userId: m.userId, login: m.login.toLowerCase(), subscriber: m.roles.subscriber }, cost);
    if (!result.entered && result.reason === 'points')
      await this.say(`@${m.displayName}, entering the giveaway costs ${cost} ${this.config.loyalty.points.name}; you have ${result.balance}.`);
    return true;
  }

  private async builtIn(m: BotMessage, level: ChatbotPermission, name: string, args: string, now: number): Promise<boolean> {
    const extras = this.config.extras;
    const mod = levelRank(level) >= levelRank('moderator');
    if (name === '!permit' && extras.permitCommand) {
      const target = args.split(/\s+/)[0]?.replace(/^@/, '').toLowerCase() ?? '';
      if (!mod || !/^[a-z0-9_]{1,41}$/.test(target)) return true;
      if (!(await this.deps.data.claim(m.id))) return true;
      const seconds = this.config.filters.links.permitSeconds;
      await this.deps.memory.permit(target, now + seconds * 1000, now);
      await this.say(`@${target} may post links for the next ${seconds} seconds.`);
      return true;
    }
    if ((name === '!quote' || name === '!addquote') && extras.quoteCommands) {
      if (!(await this.deps.data.claim(m.id))) return true;
      if (name === '!addquote') {
        if (!mod && !this.config.regulars.has(m.login.toLowerCase())) return true;
        const parsed = /^(.+?)(?:\s+-\s*(\S.{0,31}))?$/su.exec(args.trim());
        const message = clip(parsed?.[1]?.trim() ?? '', 480);
        if (!message) {
          await this.say(`@${m.displayName}, write the quote after !addquote (and " - author" at the end).`);
          return true;
        }
        const author = clip(parsed?.[2]?.trim() || this.config.channelLogin, 32);
        const q = await this.deps.data.addQuote(message, author);
        await this.say(`Quote #${q.number} added: "${message}" — ${author}`);
        return true;
      }
      const n = /^#?(\d{1,9})$/.exec(args.trim());
      const q = await this.deps.data.quote(n ? Number(n[1]) : null);
      if (!q) await this.say(n ? `There is no quote #${n[1]}.` : 'There are no quotes yet.');
      else await this.say(`Quote #${q.number}: "${q.message}" — ${q.author} (${q.createdAt.toISOString().slice(0, 10)})`);
      return true;
    }
    if (name === '!points' && extras.pointsCommand && this.config.loyalty.program === 'points') {
      if (!(await this.statsAllowed(name, m, now)) || !(await this.deps.data.claim(m.id))) return true;
      const points = await this.deps.data.points(m.userId);
      await this.say(`@${m.displayName} has ${points} ${this.config.loyalty.points.name}.`);
      return true;
    }
    if ((name === '!watchtime' || (name === '!rank' && this.config.loyalty.program === 'ranks')) && extras.rankCommands) {
      if (!(await this.statsAllowed(name, m, now)) || !(await this.deps.data.claim(m.id))) return true;
      const seconds = await this.deps.data.watched(m.userId);
      await this.say(
        name === '!watchtime' ? `@${m.displayName} has watched ${watchedWords(seconds)} here.` : rankWords(m.displayName, seconds, this.config.ranks),
      );
      return true;
    }
    return false;
  }

  /** A viewer's own figures (!points, !watchtime, !rank): once per statsUserCooldownSeconds each, so a viewer cannot flood the chat with them. */
  private async statsAllowed(name: string, m: BotMessage, now: number): Promise<boolean> {
    const key = `user:${name}:${m.userId}`;
    if (await this.deps.memory.cooling([key], now)) return false;
    await this.deps.memory.cool([{ key, until: now + this.config.extras.statsUserCooldownSeconds * 1000 }], now);
    return true;
  }

  private async runCommand(m: BotMessage, level: ChatbotPermission, c: BotCommand, args: string, now: number): Promise<void> {
    if (levelRank(level) < levelRank(c.permission)) return;
    const globalKey = `command:${c.id}`;
    const userKey = `user:${c.id}:${m.userId}`;
    if (await this.deps.memory.cooling([globalKey, userKey], now)) return;
    if (!(await this.deps.data.claim(m.id))) return;
    await this.deps.memory.cool(
      [
        { key: globalKey, until: now + c.globalCooldownSeconds * 1000 },
        { key: userKey, until: now + c.userCooldownSeconds * 1000 },
      ].filter((e) => e.until > now),
      now,
    );
    if (c.pointCost > 0 && this.config.loyalty.program === 'points') {
      const spent = await this.deps.data.spendPoints(m.userId, m.login.toLowerCase(), c.pointCost);
      if (!spent.spent) {
        await this.say(`@${m.displayName}, ${c.command} costs ${c.pointCost} ${this.config.loyalty.points.name}; you have ${spent.balance}.`);
        return;
      }
    }
    const count = await this.deps.data.countUse(c.id);
    const info = /\{(title|game)\}/.test(c.message) ? await this.deps.data.channelInfo() : { title: '', game: '' };
    const target = /^@?([A-Za-z0-9_]{1,41})$/.exec(args.split(/\s+/)[0] ?? '')?.[1];
    const user = target ?? m.displayName;
    const text = renderTemplate(c.message, {
      user,
      sender: m.displayName,
      title: info.title,
      game: info.game,
      url: `https://twitch.tv/${user.toLowerCase()}`,
      count: String(count),
      args,
    });
    await this.say(c.replyToSender ? clip(`@${m.displayName} ${text}`, 480) : text);
  }

  /**
   * New events of the channel (follow, sub…): its chat alert, its Points reward (once per event:
   * BotData.reward is keyed by the event's id), and a raid arms the hate-raid guard.
   */
  async onEvents(events: readonly Pick<LiveEvent, 'id' | 'type' | 'platformUsername' | 'value' | 'data'>[]): Promise<void> {
    for (const e of events) {
      const alert = this.config.alerts[e.type as AlertEventType] as ChatbotAlerts[AlertEventType] | undefined;
      if (alert?.enabled && (await this.deps.data.claim(`event:${e.id}`))) await this.say(renderTemplate(alert.message, alertValues(e)));
      const g = this.config.moderation.hateRaidGuard;
      if (e.type === 'twitchRaid' && g.enabled) {
        const armedUntil = this.deps.now() + g.raidWindowMinutes * 60_000;
        await this.deps.memory.setGuard({ armedUntil }).catch((err: unknown) => this.deps.onError?.(err, 'arm hate-raid guard'));
      }
      const reward = eventReward(this.config.loyalty, e);
      if (reward)
        await this.deps.data.reward(`event:${e.id}`, reward.kind, reward.login, reward.points).catch((err: unknown) => this.deps.onError?.(err, 'reward'));
    }
  }

  /** The passing of time: timers, points and hours watched. The runtime calls it every second or so. */
  async tick(): Promise<void> {
    const now = this.deps.now();
    const live = await this.deps.data.isLive();
    // Also when the guard was switched off meanwhile: a restricted chat is given back when its time is up.
    await this.liftGuard(now);
    await this.raffles(now);
    await this.timers(now, live);
    await this.loyalty(now, live);
  }

  /** Draws the giveaway whose time is up, and says what is new (opened, drawn, cancelled) once. */
  private async raffles(now: number): Promise<void> {
    const raffle = this.config.raffle;
    let news = this.config.raffleNews;
    if (raffle && now >= raffle.closesAt) {
      await this.deps.data.drawRaffle(raffle.id).catch((err: unknown) => this.deps.onError?.(err, 'draw giveaway'));
      this.config = { ...this.config, raffle: null };
      news = true;
    }
    if (!news) return;
    this.config = { ...this.config, raffleNews: false };
    const points = this.config.loyalty.points.name;
    for (const n of await this.deps.data.raffleNews()) {
      if (n.status === 'open') {
        const minutes = Math.max(1, Math.round((n.closesAt - now) / 60_000));
        const cost = n.entryCost > 0 && this.config.loyalty.program === 'points' ? ` (${n.entryCost} ${points} a ticket)` : '';
        await this.say(`A giveaway is on! Write ${n.keyword} in chat to enter${cost}. The winner is drawn in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
      } else if (n.status === 'cancelled') await this.say('The giveaway was cancelled; points spent on tickets were given back.');
      else if (!n.winner) await this.say('The giveaway is over: nobody entered.');
      else {
        const prize = n.winner.points > 0 ? ` and wins ${n.winner.points} ${points}` : '';
        await this.say(`@${n.winner.login} won the giveaway${prize}! (${n.entrants} entered)`);
      }
    }
  }

  private async timers(now: number, live: boolean): Promise<void> {
    const s = this.config.timerSettings;
    const timers = this.config.timers.filter((t) => t.enabled);
    if (timers.length === 0) return;
    if (s.onlyWhileLive && !live) {
      // Off air nothing is due; the interval and the lines count start again with the stream.
      this.lastTimerAt = now;
      this.linesSinceTimer = 0;
      return;
    }
    if (now - this.lastTimerAt < s.intervalMinutes * 60_000 || this.linesSinceTimer < s.minChatLines) return;
    const timer = timers[this.timerTurn % timers.length]!;
    this.timerTurn += 1;
    this.lastTimerAt = now;
    this.linesSinceTimer = 0;
    const info = /\{(title|game)\}/.test(timer.message) ? await this.deps.data.channelInfo() : { title: '', game: '' };
    await this.say(renderTemplate(timer.message, { title: info.title, game: info.game, url: `https://twitch.tv/${this.config.channelLogin}` }));
  }

  private async loyalty(now: number, live: boolean): Promise<void> {
    for (const [id, p] of this.presence) if (now - p.lastChatAt > PRESENCE_MS) this.presence.delete(id);
    const entries = new Map<string, { userId: string; login: string; points: number; seconds: number }>();
    const entry = (id: string, p: Pick<Presence, 'login'>) =>
      entries.get(id) ?? entries.set(id, { userId: id, login: p.login, points: 0, seconds: 0 }).get(id)!;
    // Which steps are due now (each counter moves on whether or not it pays).
    let watchSteps = 0;
    if (live) {
      watchSteps = Math.floor((now - this.lastAccrual.watch) / WATCH_STEP_MS);
      this.lastAccrual.watch += watchSteps * WATCH_STEP_MS;
    } else this.lastAccrual.watch = now;
    const l = this.config.loyalty;
    const due = (kind: 'whileChatting' | 'whileViewing' | 'whileOffline', applies: boolean): number => {
      const e = l.points[kind];
      const every = e.intervalMinutes * 60_000;
      const steps = Math.floor((now - this.lastAccrual[kind]) / every);
      if (steps <= 0) return 0;
      this.lastAccrual[kind] += steps * every;
      return l.program === 'points' && e.enabled && applies ? steps : 0;
    };
    const viewing = due('whileViewing', live);
    const offline = due('whileOffline', !live);
    const chatting = due('whileChatting', live);
    const present = watchSteps > 0 || viewing > 0 || offline > 0 ? await this.present() : new Map<string, Presence>();
    for (const [id, p] of present) entry(id, p).seconds += (watchSteps * WATCH_STEP_MS) / 1000;
    const pay = (kind: 'whileChatting' | 'whileViewing' | 'whileOffline', n: number, who: Iterable<[string, Presence]>) => {
      if (n <= 0) return;
      const e = l.points[kind];
      for (const [id, p] of who) entry(id, p).points += Math.round(n * e.amount * (p.subscriber ? l.points.subscriberMultiplier : 1));
    };
    pay('whileViewing', viewing, present);
    pay('whileOffline', offline, present);
    // Chatting pays for the interval that just ended, to those who wrote in it.
    if (chatting > 0)
      pay(
        'whileChatting',
        1,
        [...this.presence].filter(([, p]) => now - p.lastChatAt <= l.points.whileChatting.intervalMinutes * 60_000),
      );
    const list = [...entries.values()].filter((e) => e.points > 0 || e.seconds > 0);
    if (list.length > 0) await this.deps.data.accrue(list);
    const r = l.regulars;
    if (l.program === 'regulars' && r.autoPromote && list.some((e) => e.seconds > 0)) {
      const promoted = await this.deps.data.promoteRegulars(r.hoursWatched * 3600).catch((err: unknown) => {
        this.deps.onError?.(err, 'promote regulars');
        return [];
      });
      // At once for this bot's permission checks; the saved list reaches the page (and a reload) through Redis.
      if (promoted.length > 0) this.config = { ...this.config, regulars: new Set([...this.config.regulars, ...promoted.map((p) => p.toLowerCase())]) };
    }
  }

  /**
   * The viewers in the chat now: Twitch's chatters list (those who only watch included) and
   * everyone who wrote within PRESENCE_MS (the list lags behind chat by a few minutes); only the
   * latter when the list cannot be read. Ignored users and the bot itself earn nothing.
   */
  private async present(): Promise<Map<string, Presence>> {
    const out = new Map<string, Presence>();
    const listed = await this.deps.data.viewers().catch((err: unknown) => {
      this.deps.onError?.(err, 'chatters');
      return null;
    });
    for (const v of listed ?? []) {
      const login = v.login.toLowerCase();
      if (this.config.ignored.has(login)) continue;
      out.set(v.userId, { login, subscriber: false, lastChatAt: 0 });
    }
    for (const [id, p] of this.presence) out.set(id, p);
    return out;
  }

  private async say(text: string): Promise<void> {
    this.stats.replies += 1;
    await this.act(() => this.deps.actions.say(text), 'say');
  }

  private async act(run: () => Promise<void>, what: string): Promise<void> {
    try {
      await run();
    } catch (err) {
      this.deps.onError?.(err, what);
    }
  }
}

/** The Points program's reward for an event, and who gets it; null when none is due. */
export function eventReward(
  loyalty: ChatbotLoyalty,
  e: Pick<LiveEvent, 'type' | 'platformUsername' | 'value' | 'data'>,
): { kind: PointsRewardEvent; login: string; points: number } | null {
  if (loyalty.program !== 'points') return null;
  const r = loyalty.points.rewards;
  let kind: PointsRewardEvent;
  let times = 1;
  let who = e.platformUsername;
  switch (e.type) {
    case 'follow':
      kind = 'follow';
      break;
    case 'sub':
    case 'resub':
      // A gift of n subs (Twitch's channel.subscription.gift) rewards the gifter per sub; each
      // recipient's own sub event rewards the recipient as a subscriber.
      if (typeof e.data.giftCount === 'number') {
        kind = 'giftSub';
        times = e.data.giftCount;
        who = e.data.gifter?.platformUsername ?? e.platformUsername;
      } else kind = 'subscribe';
      break;
    case 'tip':
      kind = 'tip';
      break;
    case 'twitchCheer':
      kind = 'cheer';
      times = Math.max(1, Math.floor(e.value ?? 1));
      break;
    case 'twitchRaid':
      kind = 'raid';
      break;
    case 'host':
      kind = 'host';
      break;
    default:
      return null;
  }
  const login = who.trim().toLowerCase();
  // Anonymous gifts and cheers name nobody; a tipper's free-text name that is no Twitch login cannot be paid.
  if (login === 'anonymous' || !/^[a-z0-9_]{1,41}$/.test(login)) return null;
  const points = Math.min(r[kind] * times, 1_000_000_000);
  return points > 0 ? { kind, login, points } : null;
}

/** "3 hours 25 minutes", "1 hour", "0 minutes". */
export function watchedWords(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const parts: string[] = [];
  if (h > 0) parts.push(`${h} hour${h === 1 ? '' : 's'}`);
  if (m > 0 || h === 0) parts.push(`${m} minute${m === 1 ? '' : 's'}`);
  return parts.join(' ');
}

/** The !rank answer: the highest rank the hours watched reach, and the next one. */
export function rankWords(who: string, seconds: number, ranks: readonly ChatbotRank[]): string {
  const watched = watchedWords(seconds);
  if (ranks.length === 0) return `@${who} has watched ${watched}; this channel has no ranks yet.`;
  const sorted = [...ranks].sort((a, b) => a.hoursWatched - b.hoursWatched);
  const current = sorted.filter((r) => r.hoursWatched * 3600 <= seconds).at(-1);
  const next = sorted.find((r) => r.hoursWatched * 3600 > seconds);
  const then = next ? `${next.name} at ${next.hoursWatched} hour${next.hoursWatched === 1 ? '' : 's'}.` : 'the highest rank.';
  if (!current) return `@${who} has no rank yet (${watched} watched); ${then}`;
  return next ? `@${who} is ${current.name} (${watched} watched); ${then}` : `@${who} is ${current.name} (${watched} watched), ${then}`;
}
