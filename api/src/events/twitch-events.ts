import { z } from 'zod';
import type { EventMessagePart } from '@onair/protocol';

import type { InboundEvent } from '../platforms/inbound.ts';

export { TWITCH_EVENT_SCOPES, twitchEventSubscriptions } from '../platforms/twitch-eventsub.ts';

const name = z.string().max(200);
const user = { user_id: z.string().max(100), user_login: name, user_name: name };
const anonUser = { user_id: z.string().max(100).nullable(), user_login: name.nullable(), user_name: name.nullable() };
const emotes = z.array(z.object({ begin: z.number().int().min(0), end: z.number().int().min(0), id: z.string().regex(/^[A-Za-z0-9_]{1,100}$/) })).nullish();

const schemas = {
  'channel.follow': z.object({ ...user, followed_at: z.string().optional() }),
  'channel.subscribe': z.object({ ...user, tier: z.string().max(10), is_gift: z.boolean() }),
  'channel.subscription.message': z.object({
    ...user,
    tier: z.string().max(10),
    message: z.object({ text: z.string().max(2000), emotes }),
    cumulative_months: z.number().int().min(0),
    duration_months: z.number().int().min(0).optional(),
  }),
  'channel.subscription.gift': z.object({ ...anonUser, total: z.number().int().min(1), tier: z.string().max(10), is_anonymous: z.boolean() }),
  'channel.raid': z.object({
    from_broadcaster_user_id: z.string().max(100),
    from_broadcaster_user_login: name,
    from_broadcaster_user_name: name,
    viewers: z.number().int().min(0),
  }),
  'channel.cheer': z.object({ ...anonUser, is_anonymous: z.boolean(), message: z.string().max(2000), bits: z.number().int().min(1) }),
  'channel.charity_campaign.donate': z.object({
    ...user,
    campaign_id: z.string().max(200).optional(),
    charity_name: name,
    charity_website: z.string().max(2000).optional(),
    amount: z.object({ value: z.number().int(), decimal_places: z.number().int().min(0).max(6), currency: z.string().max(8) }),
  }),
} as const;

type TwitchType = keyof typeof schemas;

export const ANONYMOUS = 'Anonymous';

/** A text with Twitch's emote ranges (inclusive character offsets) as text and emote parts. */
export function parseTwitchMessage(
  text: string,
  ranges: { begin: number; end: number; id: string }[] | null | undefined,
  emoteBase: string,
): EventMessagePart[] {
  const chars = Array.from(text);
  const parts: EventMessagePart[] = [];
  let at = 0;
  for (const r of [...(ranges ?? [])].sort((a, b) => a.begin - b.begin)) {
    if (r.begin < at || r.end < r.begin || r.end >= chars.length) continue;
    if (r.begin > at) parts.push({ kind: 'text', value: chars.slice(at, r.begin).join('') });
    parts.push({ kind: 'emote', value: chars.slice(r.begin, r.end + 1).join(''), url: `${emoteBase}/${r.id}/default/dark/1.0` });
    at = r.end + 1;
  }
  if (at < chars.length) parts.push({ kind: 'text', value: chars.slice(at).join('') });
  return parts;
}

/**
 * A Twitch EventSub notification as a feed event; null when the payload does not hold what its type
 * promises (logged by the caller, the other events go on). `clean` keeps user text safe to store.
 */
export function normaliseTwitchEvent(
  subscriptionType: string,
  event: unknown,
  meta: { messageId: string; timestamp: Date; emoteBase: string; clean: (text: string) => string },
): InboundEvent | null {
  if (!(subscriptionType in schemas)) return null;
  const parsed = schemas[subscriptionType as TwitchType].safeParse(event);
  if (!parsed.success) return null;
  const c = meta.clean;
  const base = { platformEventId: meta.messageId, platformCreatedAt: meta.timestamp, avatar: null, replay: false, suppressed: false };
  switch (subscriptionType as TwitchType) {
    case 'channel.follow': {
      const e = parsed.data as z.infer<(typeof schemas)['channel.follow']>;
      return { ...base, type: 'follow', platformUsername: c(e.user_name || e.user_login), platformUserId: e.user_id, value: null, data: {} };
    }
    case 'channel.subscribe': {
      const e = parsed.data as z.infer<(typeof schemas)['channel.subscribe']>;
      return {
        ...base,
        type: 'sub',
        platformUsername: c(e.user_name || e.user_login),
        platformUserId: e.user_id,
        value: null,
        data: { tier: e.tier, ...(e.is_gift ? { gifted: true } : {}) },
      };
    }
    case 'channel.subscription.message': {
      const e = parsed.data as z.infer<(typeof schemas)['channel.subscription.message']>;
      const text = c(e.message.text);
      return {
        ...base,
        type: 'resub',
        platformUsername: c(e.user_name || e.user_login),
        platformUserId: e.user_id,
        value: e.cumulative_months,
        data: {
          tier: e.tier,
          message: text,
          parsedMessage: text === e.message.text ? parseTwitchMessage(text, e.message.emotes, meta.emoteBase) : [{ kind: 'text', value: text }],
        },
      };
    }
    case 'channel.subscription.gift': {
      const e = parsed.data as z.infer<(typeof schemas)['channel.subscription.gift']>;
      const gifter = e.is_anonymous || !e.user_name ? ANONYMOUS : c(e.user_name);
      return {
        ...base,
        type: 'sub',
        platformUsername: gifter,
        platformUserId: e.is_anonymous ? null : e.user_id,
        value: e.total,
        data: { gifted: true, gifter: { platformUsername: gifter }, giftCount: e.total, tier: e.tier },
      };
    }
    case 'channel.raid': {
      const e = parsed.data as z.infer<(typeof schemas)['channel.raid']>;
      return {
        ...base,
        type: 'twitchRaid',
        platformUsername: c(e.from_broadcaster_user_name || e.from_broadcaster_user_login),
        platformUserId: e.from_broadcaster_user_id,
        value: e.viewers,
        data: {},
      };
    }
    case 'channel.cheer': {
      const e = parsed.data as z.infer<(typeof schemas)['channel.cheer']>;
      const text = c(e.message);
      const who = e.is_anonymous || !e.user_name ? ANONYMOUS : c(e.user_name);
      return {
        ...base,
        type: 'twitchCheer',
        platformUsername: who,
        platformUserId: e.is_anonymous ? null : e.user_id,
        value: e.bits,
        data: { message: text, parsedMessage: text ? [{ kind: 'text', value: text }] : [] },
      };
    }
    case 'channel.charity_campaign.donate': {
      const e = parsed.data as z.infer<(typeof schemas)['channel.charity_campaign.donate']>;
      const link = safeLink(e.charity_website);
      return {
        ...base,
        type: 'charity',
        platformUsername: c(e.user_name || e.user_login),
        platformUserId: e.user_id,
        value: e.amount.value / 10 ** e.amount.decimal_places,
        data: {
          currency: e.amount.currency.toUpperCase(),
          charityName: c(e.charity_name),
          ...(e.campaign_id ? { charityCampaignId: e.campaign_id } : {}),
          ...(link ? { link } : {}),
        },
      };
    }
  }
}

function safeLink(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}
