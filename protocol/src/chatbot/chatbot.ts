import { z } from 'zod';
import { alertEventTypes, type AlertEventType } from '../events/alerts.ts';
import { liveEventSchema } from '../events/events.ts';
import { twitchUsernameSchema } from '../partner/collaborators.ts';

// The chatbot of the partner network (partner spec §2 Chatbot sections, §3, §4, §6, §9; issue 22).
// It works for Twitch only, as the spec says: every `platforms` list holds 'twitch'.

/** Spec §9: command name at most 16 characters, command or general message at most 480, text fields 64 (128 long), author 32. */
export const CHATBOT_COMMAND_NAME_MAX = 16;
export const CHATBOT_MESSAGE_MAX = 480;
export const CHATBOT_TEXT_MAX = 64;
export const CHATBOT_TEXT_LONG_MAX = 128;
export const CHATBOT_QUOTE_AUTHOR_MAX = 32;
/** Spec §9: points intervals, in minutes. */
export const POINTS_INTERVALS = [5, 15, 30, 45, 60] as const;
/** Twitch's longest timeout (POST /helix/moderation/bans `duration`): 1 209 600 s, 14 days. */
export const TWITCH_TIMEOUT_MAX_SECONDS = 1_209_600;
/** How many of each list a channel may have: enough for any creator, bounded for the bot. */
export const CHATBOT_LIST_MAX = {
  commands: 500,
  timers: 50,
  quotes: 10_000,
  users: 2000,
  warningLevels: 10,
  ranks: 50,
  bannedWords: 100,
  whitelist: 200,
} as const;
/** A banned-word pattern; RE2 syntax (linear time: no backreferences, no lookaround). */
export const CHATBOT_PATTERN_MAX = 200;

export const chatbotPlatformsSchema = z.array(z.literal('twitch')).min(1).max(1).default(['twitch']);

/** Spec §6: command permission levels, from everyone up; Regulars is the channel's list of regulars. */
export const chatbotPermissionLevels = ['everyone', 'regular', 'subscriber', 'vip', 'moderator', 'owner'] as const;
export const chatbotPermissionSchema = z.enum(chatbotPermissionLevels);
export type ChatbotPermission = z.infer<typeof chatbotPermissionSchema>;
export const chatbotPermissionLabels: Record<ChatbotPermission, string> = {
  everyone: 'Everyone',
  regular: 'Regulars',
  subscriber: 'Subscribers',
  vip: 'VIPs',
  moderator: 'Moderators',
  owner: 'Channel owner',
};

const required = (max: number, what = 'text') => z.string().trim().min(1, 'This field is required').max(max, `Keep the ${what} to ${max} characters or fewer`);

// ---- Commands ----------------------------------------------------------------------------------

/** The variables a command message may use (spec §3), in braces: {user}, {args}, {count}… */
export const COMMAND_VARIABLES = ['user', 'sender', 'title', 'game', 'url', 'count', 'args'] as const;

export const chatbotCommandInputSchema = z.strictObject({
  /** As typed in chat, with its leading '!'. */
  command: z
    .string()
    .trim()
    .min(1, 'This field is required')
    .max(CHATBOT_COMMAND_NAME_MAX, `Keep the command to ${CHATBOT_COMMAND_NAME_MAX} characters or fewer`)
    .regex(/^!?[\p{L}\p{N}_-]+$/u, 'A command is one word of letters, digits, _ or -, with an optional leading !')
    .transform((s) => (s.startsWith('!') ? s : `!${s}`))
    .refine((s) => s.length <= CHATBOT_COMMAND_NAME_MAX, `Keep the command to ${CHATBOT_COMMAND_NAME_MAX} characters or fewer`),
  message: required(CHATBOT_MESSAGE_MAX, 'message'),
  permission: chatbotPermissionSchema.default('everyone'),
  /** Spec §3: optionally start the reply with @username. */
  replyToSender: z.boolean().default(false),
  description: z.string().trim().max(CHATBOT_TEXT_LONG_MAX).default(''),
  pointCost: z.number().int().min(0).max(1_000_000_000).default(0),
  platforms: chatbotPlatformsSchema,
  globalCooldownSeconds: z.number().int().min(0).max(86_400).default(5),
  userCooldownSeconds: z.number().int().min(0).max(86_400).default(0),
  enabled: z.boolean().default(true),
});
export type ChatbotCommandInput = z.input<typeof chatbotCommandInputSchema>;
export const chatbotCommandSchema = z.object({
  id: z.string(),
  command: z.string(),
  message: z.string(),
  permission: chatbotPermissionSchema,
  replyToSender: z.boolean(),
  description: z.string(),
  pointCost: z.number().int(),
  platforms: z.array(z.literal('twitch')),
  globalCooldownSeconds: z.number().int(),
  userCooldownSeconds: z.number().int(),
  enabled: z.boolean(),
  count: z.number().int(),
});
export type ChatbotCommand = z.infer<typeof chatbotCommandSchema>;

// ---- Timers ------------------------------------------------------------------------------------

export const chatbotTimerInputSchema = z.strictObject({
  name: required(CHATBOT_TEXT_MAX, 'name'),
  message: required(CHATBOT_MESSAGE_MAX, 'message'),
  platforms: chatbotPlatformsSchema,
  enabled: z.boolean().default(true),
});
export const chatbotTimerSchema = z.object({
  id: z.string(),
  name: z.string(),
  message: z.string(),
  platforms: z.array(z.literal('twitch')),
  enabled: z.boolean(),
});
export type ChatbotTimer = z.infer<typeof chatbotTimerSchema>;

/** Spec §3 timed-message settings, plus the minimum chat lines between two (the anchors have it). Timers take turns. */
export const chatbotTimerSettingsSchema = z.strictObject({
  intervalMinutes: z.number().int().min(1).max(180),
  onlyWhileLive: z.boolean(),
  minChatLines: z.number().int().min(0).max(1000),
});
export type ChatbotTimerSettings = z.infer<typeof chatbotTimerSettingsSchema>;
export const DEFAULT_TIMER_SETTINGS: ChatbotTimerSettings = { intervalMinutes: 15, onlyWhileLive: true, minChatLines: 5 };

// ---- Users: regulars and ignored ---------------------------------------------------------------

export const chatbotUserInputSchema = z.strictObject({ username: twitchUsernameSchema, platform: z.literal('twitch').default('twitch') });
export const chatbotUserSchema = z.object({ id: z.string(), username: z.string(), platform: z.literal('twitch') });
export type ChatbotUser = z.infer<typeof chatbotUserSchema>;

// ---- Quotes ------------------------------------------------------------------------------------

export const chatbotQuoteInputSchema = z.strictObject({
  message: required(CHATBOT_MESSAGE_MAX, 'quote'),
  author: required(CHATBOT_QUOTE_AUTHOR_MAX, 'author'),
});
export const chatbotQuoteSchema = z.object({ id: z.string(), number: z.number().int(), message: z.string(), author: z.string(), createdAt: z.string() });
export type ChatbotQuote = z.infer<typeof chatbotQuoteSchema>;

// ---- Moderation: filters, punishments, warning levels ------------------------------------------

/** Spec §4 filter punishments. */
export const filterPunishments = ['remove-silent', 'remove-notice', 'remove-notice-warn'] as const;
export const filterPunishmentSchema = z.enum(filterPunishments);
export type FilterPunishment = z.infer<typeof filterPunishmentSchema>;
export const filterPunishmentLabels: Record<FilterPunishment, string> = {
  'remove-silent': 'Remove silently',
  'remove-notice': 'Remove with a notice',
  'remove-notice-warn': 'Remove with a notice and a warning',
};

const filterBase = { enabled: z.boolean(), punishment: filterPunishmentSchema };
const percent = z.number().int().min(1).max(100);
const minLength = z.number().int().min(1).max(500);

/** Spec §3 chat filters (duplicates, emotes, links, symbols, uppercase) and the anchors' banned words. */
export const chatbotFiltersSchema = z.strictObject({
  /** Who the filters spare: this level and above (moderators and the owner always). */
  exemptLevel: chatbotPermissionSchema,
  duplicates: z.strictObject({ ...filterBase, windowSeconds: z.number().int().min(5).max(3600) }),
  emotes: z.strictObject({ ...filterBase, maxCount: z.number().int().min(1).max(200) }),
  /** Domains allowed, one per line (a domain allows its subdomains). */
  links: z.strictObject({ ...filterBase, whitelist: z.string().max(CHATBOT_LIST_MAX.whitelist * 64), permitSeconds: z.number().int().min(10).max(3600) }),
  symbols: z.strictObject({ ...filterBase, minPercent: percent, minLength }),
  /** Emotes are not counted: only the letters a viewer typed. */
  caps: z.strictObject({ ...filterBase, minPercent: percent, minLength }),
  bannedWords: z.strictObject({ ...filterBase, patterns: z.array(z.string().min(1).max(CHATBOT_PATTERN_MAX)).max(CHATBOT_LIST_MAX.bannedWords) }),
});
export type ChatbotFilters = z.infer<typeof chatbotFiltersSchema>;
export type ChatbotFilterName = Exclude<keyof ChatbotFilters, 'exemptLevel'>;
export const DEFAULT_FILTERS: ChatbotFilters = {
  exemptLevel: 'subscriber',
  duplicates: { enabled: false, punishment: 'remove-silent', windowSeconds: 30 },
  emotes: { enabled: false, punishment: 'remove-notice', maxCount: 10 },
  links: { enabled: false, punishment: 'remove-notice', whitelist: 'twitch.tv\nclips.twitch.tv', permitSeconds: 60 },
  symbols: { enabled: false, punishment: 'remove-notice', minPercent: 50, minLength: 15 },
  caps: { enabled: false, punishment: 'remove-notice', minPercent: 70, minLength: 15 },
  bannedWords: { enabled: false, punishment: 'remove-notice-warn', patterns: [] },
};

export const durationUnits = ['minutes', 'hours', 'days', 'weeks', 'months'] as const;
export const durationUnitSchema = z.enum(durationUnits);
export type DurationUnit = z.infer<typeof durationUnitSchema>;
const UNIT_SECONDS: Record<DurationUnit, number> = { minutes: 60, hours: 3600, days: 86_400, weeks: 604_800, months: 2_592_000 };
export function durationSeconds(duration: number, unit: DurationUnit): number {
  return duration * UNIT_SECONDS[unit];
}
export const TIMEOUT_TOO_LONG = 'Twitch times out for at most 14 days. Choose 14 days or less, or a permanent ban instead.';

/** Spec §3 Warning level: after this many warnings, a timeout of a duration or a permanent ban. */
export const warningLevelSchema = z
  .strictObject({
    warnings: z.number().int().min(1).max(100),
    action: z.enum(['timeout', 'ban']),
    duration: z.number().int().min(1).max(1000),
    unit: durationUnitSchema,
  })
  .refine((w) => w.action === 'ban' || durationSeconds(w.duration, w.unit) <= TWITCH_TIMEOUT_MAX_SECONDS, { message: TIMEOUT_TOO_LONG, path: ['duration'] });
export type WarningLevel = z.infer<typeof warningLevelSchema>;
export const warningLevelsSchema = z
  .array(warningLevelSchema)
  .max(CHATBOT_LIST_MAX.warningLevels)
  .refine((levels) => new Set(levels.map((l) => l.warnings)).size === levels.length, 'Two levels have the same number of warnings');
export const DEFAULT_WARNING_LEVELS: WarningLevel[] = [
  { warnings: 2, action: 'timeout', duration: 10, unit: 'minutes' },
  { warnings: 3, action: 'timeout', duration: 1, unit: 'days' },
];

/** Moderation: warnings expire; the hate-raid guard (first-time chatters flooding after a raid). */
export const chatbotModerationSchema = z.strictObject({
  /** Warnings older than this are forgotten. */
  warningsExpireHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 90),
  hateRaidGuard: z.strictObject({
    enabled: z.boolean(),
    /** This many first-time chatters within `windowSeconds` trips the guard. */
    firstTimeChatters: z.number().int().min(3).max(1000),
    windowSeconds: z.number().int().min(5).max(600),
    /** Then: follower-only (followed this many minutes) and slow mode for `durationMinutes`, and their messages removed. */
    followerOnlyMinutes: z.number().int().min(0).max(129_600),
    slowSeconds: z.number().int().min(0).max(120),
    durationMinutes: z.number().int().min(1).max(240),
    /**
     * What arms it (issue 40): 'raid' watches the first-time chatters only for `raidWindowMinutes`
     * after a raid arrives; 'raidOrBurst' also trips on a burst at any time (hate raids that come
     * without a raid). Came later: documents saved before take the defaults.
     */
    armOn: z.enum(['raid', 'raidOrBurst']).default('raid'),
    raidWindowMinutes: z.number().int().min(1).max(60).default(5),
  }),
});
export type ChatbotModeration = z.infer<typeof chatbotModerationSchema>;
export const DEFAULT_MODERATION: ChatbotModeration = {
  warningsExpireHours: 24,
  hateRaidGuard: {
    enabled: false,
    firstTimeChatters: 10,
    windowSeconds: 30,
    followerOnlyMinutes: 10,
    slowSeconds: 10,
    durationMinutes: 10,
    armOn: 'raid',
    raidWindowMinutes: 5,
  },
};

// ---- Alerts in chat ----------------------------------------------------------------------------

export const chatbotAlertSchema = z.strictObject({
  enabled: z.boolean(),
  message: required(CHATBOT_MESSAGE_MAX, 'message'),
  platforms: chatbotPlatformsSchema,
});
export type ChatbotAlert = z.infer<typeof chatbotAlertSchema>;
export const chatbotAlertsSchema = z.strictObject(
  Object.fromEntries(alertEventTypes.map((t) => [t, chatbotAlertSchema])) as Record<AlertEventType, typeof chatbotAlertSchema>,
);
export type ChatbotAlerts = z.infer<typeof chatbotAlertsSchema>;
const alert = (message: string, enabled = true): ChatbotAlert => ({ enabled, message, platforms: ['twitch'] });
export const DEFAULT_CHATBOT_ALERTS: ChatbotAlerts = {
  follow: alert('Thank you for following, {follower}!'),
  sub: alert('{subscriber} just subscribed. Welcome to the club!'),
  resub: alert('{subscriber} resubscribed for {months} months!'),
  twitchRaid: alert('{raider} is raiding with {viewers} viewers. Welcome, raiders!'),
  twitchCheer: alert('{cheerer} cheered {bits} bits!'),
  tip: alert('{tipper} tipped {amount}: {message}'),
  charity: alert('{donor} gave {amount} to {charity}!', false),
};

// ---- Loyalty -----------------------------------------------------------------------------------

export const loyaltyPrograms = ['none', 'regulars', 'ranks', 'points'] as const;
const pointsInterval = z.union(
  POINTS_INTERVALS.map((n) => z.literal(n)) as unknown as [z.ZodLiteral<5>, z.ZodLiteral<15>, z.ZodLiteral<30>, z.ZodLiteral<45>, z.ZodLiteral<60>],
);
const earning = z.strictObject({ enabled: z.boolean(), amount: z.number().int().min(0).max(100_000), intervalMinutes: pointsInterval });
export const pointsRewardEvents = ['tip', 'follow', 'subscribe', 'giftSub', 'raffleWin', 'host', 'cheer', 'raid'] as const;
export type PointsRewardEvent = (typeof pointsRewardEvents)[number];
export const chatbotLoyaltySchema = z.strictObject({
  program: z.enum(loyaltyPrograms),
  points: z.strictObject({
    name: required(CHATBOT_TEXT_MAX, 'name'),
    subscriberMultiplier: z.number().min(1).max(10),
    whileChatting: earning,
    whileViewing: earning,
    whileOffline: earning,
    rewards: z.strictObject(
      Object.fromEntries(pointsRewardEvents.map((e) => [e, z.number().int().min(0).max(1_000_000)])) as Record<
        (typeof pointsRewardEvents)[number],
        z.ZodNumber
      >,
    ),
  }),
  /**
   * The Regulars program: a viewer who has watched this many hours live becomes a regular by
   * themselves (added to the list of regulars) when `autoPromote` is on. Came later: documents
   * saved before take the default.
   */
  regulars: z.strictObject({ autoPromote: z.boolean(), hoursWatched: z.number().int().min(1).max(100_000) }).default({ autoPromote: false, hoursWatched: 10 }),
});
export type ChatbotLoyalty = z.infer<typeof chatbotLoyaltySchema>;
export const DEFAULT_LOYALTY: ChatbotLoyalty = {
  program: 'none',
  points: {
    name: 'points',
    subscriberMultiplier: 2,
    whileChatting: { enabled: true, amount: 5, intervalMinutes: 15 },
    whileViewing: { enabled: true, amount: 10, intervalMinutes: 15 },
    whileOffline: { enabled: false, amount: 1, intervalMinutes: 60 },
    rewards: { tip: 100, follow: 50, subscribe: 500, giftSub: 500, raffleWin: 0, host: 50, cheer: 1, raid: 100 },
  },
  regulars: { autoPromote: false, hoursWatched: 10 },
};

/** Spec §3 Rank: a name given after so many hours watched. */
export const chatbotRankSchema = z.strictObject({ name: required(CHATBOT_TEXT_MAX, 'name'), hoursWatched: z.number().int().min(0).max(100_000) });
export const chatbotRanksSchema = z.array(chatbotRankSchema).max(CHATBOT_LIST_MAX.ranks);
export type ChatbotRank = z.infer<typeof chatbotRankSchema>;

// ---- Link preview, extras ----------------------------------------------------------------------

export const chatbotLinkPreviewSchema = z.strictObject({ enabled: z.boolean(), maxPerMinute: z.number().int().min(1).max(30) });
export type ChatbotLinkPreview = z.infer<typeof chatbotLinkPreviewSchema>;
export const DEFAULT_LINK_PREVIEW: ChatbotLinkPreview = { enabled: false, maxPerMinute: 4 };

/**
 * The built-in commands: !permit (links), !quote / !addquote, !points, and !watchtime / !rank (a
 * viewer's hours watched, and their rank when the loyalty program is Ranks). The viewer's own
 * figures commands (!points, !watchtime, !rank) answer each viewer at most once per
 * `statsUserCooldownSeconds`. The last two fields came later: documents saved before take their defaults.
 */
export const chatbotExtrasSchema = z.strictObject({
  permitCommand: z.boolean(),
  quoteCommands: z.boolean(),
  pointsCommand: z.boolean(),
  rankCommands: z.boolean().default(true),
  statsUserCooldownSeconds: z.number().int().min(0).max(3600).default(30),
});
export type ChatbotExtras = z.infer<typeof chatbotExtrasSchema>;
export const DEFAULT_EXTRAS: ChatbotExtras = {
  permitCommand: true,
  quoteCommands: true,
  pointsCommand: true,
  rankCommands: true,
  statsUserCooldownSeconds: 30,
};

// ---- Connection health (spec §4) ---------------------------------------------------------------

export const chatbotHealthStates = ['healthy', 'unhealthy', 'pending', 'duplicate', 'disabled', 'unknown'] as const;
export const chatbotHealthSchema = z.enum(chatbotHealthStates);
export type ChatbotHealth = z.infer<typeof chatbotHealthSchema>;

export const chatbotConnectionSchema = z.object({
  enabled: z.boolean(),
  /** The channel's Twitch login, from its linked Twitch account; null when none is linked. */
  twitchLogin: z.string().nullable(),
  health: chatbotHealthSchema,
  /** Why, in words, when not healthy. */
  reason: z.string().nullable(),
  /** What works less well than it could although the bot runs (e.g. the chatters list cannot be read), in words. */
  notices: z.array(z.string()),
});
export type ChatbotConnection = z.infer<typeof chatbotConnectionSchema>;
export const updateChatbotConnectionBodySchema = z.strictObject({ enabled: z.boolean() });

/** Everything of the Chatbot page. */
export const chatbotConfigSchema = z.object({
  connection: chatbotConnectionSchema,
  commands: z.array(chatbotCommandSchema),
  timers: z.array(chatbotTimerSchema),
  timerSettings: chatbotTimerSettingsSchema,
  filters: chatbotFiltersSchema,
  warningLevels: z.array(warningLevelSchema),
  moderation: chatbotModerationSchema,
  ignoredUsers: z.array(chatbotUserSchema),
  regulars: z.array(chatbotUserSchema),
  quotes: z.array(chatbotQuoteSchema),
  alerts: chatbotAlertsSchema,
  loyalty: chatbotLoyaltySchema,
  ranks: chatbotRanksSchema,
  linkPreview: chatbotLinkPreviewSchema,
  extras: chatbotExtrasSchema,
});
export type ChatbotConfig = z.infer<typeof chatbotConfigSchema>;

export const chatbotItemParamsSchema = z.object({ channelId: z.string().min(1).max(64), itemId: z.uuid() });

/** What the events store publishes for the chatbots (one Redis channel for all): new events of a project. */
export const CHATBOT_EVENTS_CHANNEL = 'onair:chatbot:events';
export const chatbotEventsMessageSchema = z.object({
  projectId: z.string(),
  events: z.array(liveEventSchema),
});
