import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { projectIdParamsSchema } from '../http/projects.ts';

/**
 * The events feed (studio spec §3 "Event", §4 "Events feed", §9; partner-network spec §3 "Live
 * event", §4, §7): follows, subs, raids, cheers, tips and donations of the channels a project
 * streams to, as they happen, normalised from every platform into one shape.
 */

/** The types the feed knows (spec §3); any other type is kept and shown as 'Unsupported event type'. */
export const liveEventTypes = ['follow', 'sub', 'resub', 'host', 'twitchRaid', 'twitchCheer', 'tweet', 'tip', 'charity', 'facebookReactions'] as const;
export type KnownLiveEventType = (typeof liveEventTypes)[number];

/** Studio spec §9: the filter's default set, remembered locally once changed. */
export const EVENT_FILTER_DEFAULT: readonly KnownLiveEventType[] = ['follow', 'twitchRaid', 'twitchCheer', 'sub', 'resub', 'tip', 'charity'];

/** The words the feed shows when a type is not one it knows (spec §8). */
export const UNSUPPORTED_EVENT_TEXT = 'Unsupported event type';

/** Kept open: platforms (and the partner network's tips) may bring types the feed does not know yet. */
export const liveEventTypeSchema = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/);

export const eventPlatforms = ['twitch', 'youtube', 'facebook', 'onair'] as const;
export const eventPlatformSchema = z.enum(eventPlatforms);
export type EventPlatform = z.infer<typeof eventPlatformSchema>;

/** A part of a parsed message: text, or an emote image (its `value` is the emote's text, `url` its picture). */
export const eventMessagePartSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), value: z.string() }),
  z.object({ kind: z.literal('emote'), value: z.string(), url: z.url() }),
]);
export type EventMessagePart = z.infer<typeof eventMessagePartSchema>;

/** Spec §3 Event `data`; every field optional, as each type carries its own. */
export const liveEventDataSchema = z.object({
  /** A gifted sub: to the user of the event, from `gifter`. */
  gifted: z.boolean().optional(),
  gifter: z.object({ platformUsername: z.string() }).optional(),
  /** How many subs a gifter gave at once. */
  giftCount: z.number().int().min(1).optional(),
  giftedMonths: z.number().int().min(1).optional(),
  parsedMessage: z.array(eventMessagePartSchema).optional(),
  /** ISO 4217 code of `value` (tips, charity, Super Chats). */
  currency: z.string().max(8).optional(),
  message: z.string().optional(),
  link: z.url().optional(),
  /** Charity donations: the charity's name. */
  charityName: z.string().optional(),
  /** Charity donations: the platform's id of the campaign given to (Twitch's campaign_id), matched to the channel's charity campaign. */
  charityCampaignId: z.string().max(200).optional(),
  /** Subs: the tier ('1000', '2000', '3000' on Twitch), or a YouTube membership level's name. */
  tier: z.string().optional(),
  /**
   * Facebook live reactions (`facebookReactions`, its total in `value`): how many of each type
   * (LIKE, LOVE, WOW, HAHA, SAD, ANGRY, CARE…) in one burst; Facebook does not say who reacted.
   */
  reactions: z.record(z.string().regex(/^[A-Z_]{1,20}$/), z.number().int().min(0)).optional(),
});
export type LiveEventData = z.infer<typeof liveEventDataSchema>;

/** A feed item as the studio receives it (studio spec §3; partner spec §3's createdAt is `platformCreatedAt`). */
export const liveEventSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  type: liveEventTypeSchema,
  platform: eventPlatformSchema,
  platformUsername: z.string(),
  /** When the platform says it happened. */
  platformCreatedAt: z.iso.datetime(),
  avatar: z.url().nullable(),
  /** Months (resub, gifted months), viewers (raid), amount (cheer bits, tip, charity) or gift count. */
  value: z.number().nullable(),
  data: liveEventDataSchema,
});
export type LiveEvent = z.infer<typeof liveEventSchema>;

export const EVENTS_PAGE_MAX = 100;
export const EVENTS_PAGE_DEFAULT = 50;

const typesQuery = z
  .string()
  .max(1000)
  .transform((s) =>
    s
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  )
  .pipe(z.array(liveEventTypeSchema).max(40));

/** Partner spec §7 get-feed: a channel's past events, newest first, by type, a page at a time. */
export const listEventsEndpoint = defineEndpoint({
  id: 'listEvents',
  projectPermission: 'read project',
  method: 'get',
  path: '/api/v1/projects/:projectId/events',
  summary: 'The events feed of a project: newest first, filtered by type (comma-separated), paged by the cursor of the previous page.',
  tag: 'events',
  access: 'user',
  params: projectIdParamsSchema,
  query: z.object({
    types: typesQuery.optional(),
    /** With `types`: also the types the feed does not know (shown as 'Unsupported event type', never filtered out). */
    others: z.stringbool().default(false),
    /** The `nextCursor` of the page before. */
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(EVENTS_PAGE_MAX).default(EVENTS_PAGE_DEFAULT),
  }),
  response: z.object({ events: z.array(liveEventSchema), nextCursor: z.string().nullable() }),
});

/**
 * The events feed in the partner area (issue 40 item 5): the channel's events across all its
 * projects (every platform and destination the creator streams to), newest first; the Analytics
 * group's, like the other stream stats.
 */
export const listChannelEventsEndpoint = defineEndpoint({
  id: 'listChannelEvents',
  method: 'get',
  path: '/api/v1/partner/channels/:channelId/events',
  summary: "The channel's events feed across its projects: newest first, filtered by type, paged by the cursor of the previous page.",
  tag: 'events',
  access: 'user',
  channelCapability: 'view stream stats',
  params: z.object({ channelId: z.string().min(1).max(64) }),
  query: listEventsEndpoint.query,
  response: listEventsEndpoint.response,
});

export const eventEndpoints = [listEventsEndpoint] as const;
/** Mounted in the partner network, behind its channel access. */
export const channelEventEndpoints = [listChannelEventsEndpoint] as const;

/** A partner channel's id: its owner's user id (as in the partner routes' `:channelId`). */
export const channelIdSchema = z.string().min(1).max(64);

/** `/ws`: new events of a watched project, oldest first (replays and suppressed events never). */
export const eventServerMessageSchemas = [z.strictObject({ type: z.literal('events.new'), projectId: z.uuid(), events: z.array(liveEventSchema) })] as const;
export const eventServerMessageSchema = z.discriminatedUnion('type', [...eventServerMessageSchemas]);
export type EventServerMessage = z.infer<typeof eventServerMessageSchema>;

/** `/ws`: the same new events for the partner area's feed of the channel that owns the project (a `channel.watch` socket). */
export const channelEventsServerMessageSchema = z.strictObject({
  type: z.literal('channel.events.new'),
  channelId: channelIdSchema,
  events: z.array(liveEventSchema),
});
export type ChannelEventsServerMessage = z.infer<typeof channelEventsServerMessageSchema>;

/**
 * `/ws` of the partner area: the Channel page and the Dashboard watch a channel's events live. The
 * api checks the caller may view the channel's stream stats (the feed's HTTP capability) before.
 */
export const channelEventsClientMessageSchemas = [
  z.strictObject({ type: z.literal('channel.watch'), channelId: channelIdSchema }),
  z.strictObject({ type: z.literal('channel.unwatch'), channelId: channelIdSchema }),
] as const;

const EVENTS_CHANNEL = /^onair:projects:([0-9a-f-]{36}):events$/;

/** Redis pub/sub channel of a project's new events, published as sent to browsers. */
export const eventChannels = {
  project: (projectId: string) => `onair:projects:${projectId}:events`,
  /** A partner channel's new events (`channel.events.new` as JSON), across its owner's projects. */
  channel: (channelId: string) => `onair:channels:${channelId}:events`,
  projectOf: (channel: string): string | null => EVENTS_CHANNEL.exec(channel)?.[1] ?? null,
} as const;

const DAY_MS = 86_400_000;

/**
 * Studio spec §9 event time display: under 24 h the clock time; up to 31 days in days ('3d'); up to
 * a year in months ('5m'); beyond, years ('2y').
 */
export function formatEventTime(iso: string, now: Date = new Date(), locale?: string): string {
  const at = new Date(iso);
  const age = now.getTime() - at.getTime();
  if (age < DAY_MS) return at.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  const days = Math.floor(age / DAY_MS);
  if (days <= 31) return `${days}d`;
  if (days <= 365) return `${Math.max(1, Math.floor(days / 30))}m`;
  return `${Math.floor(days / 365)}y`;
}

/** Studio spec §2, §9: the events feed's popout window. */
export const EVENTS_POPOUT_SIZE = { width: 500, height: 600 } as const;
