import { z } from 'zod';
import type { InboundEvent } from './inbound.ts';

const author = z
  .object({ displayName: z.string().max(200).optional(), profileImageUrl: z.string().max(2000).optional(), channelId: z.string().max(200).optional() })
  .loose()
  .optional();
const base = z
  .object({ id: z.string().min(1).max(200), snippet: z.object({ type: z.string(), publishedAt: z.string().optional() }).loose(), authorDetails: author })
  .loose();

const details = {
  superChatEvent: z
    .object({
      superChatDetails: z
        .object({
          amountMicros: z.coerce.number().min(0),
          currency: z.string().max(8),
          userComment: z.string().max(2000).optional(),
          tier: z.number().optional(),
        })
        .loose(),
    })
    .loose(),
  superStickerEvent: z
    .object({
      superStickerDetails: z
        .object({
          amountMicros: z.coerce.number().min(0),
          currency: z.string().max(8),
          superStickerMetadata: z
            .object({ altText: z.string().max(500).optional() })
            .loose()
            .optional(),
        })
        .loose(),
    })
    .loose(),
  newSponsorEvent: z
    .object({
      newSponsorDetails: z
        .object({ memberLevelName: z.string().max(200).optional(), isUpgrade: z.boolean().optional() })
        .loose()
        .optional(),
    })
    .loose(),
  memberMilestoneChatEvent: z
    .object({
      memberMilestoneChatDetails: z
        .object({ memberMonth: z.number().int().min(0), memberLevelName: z.string().max(200).optional(), userComment: z.string().max(2000).optional() })
        .loose(),
    })
    .loose(),
  membershipGiftingEvent: z
    .object({
      membershipGiftingDetails: z.object({ giftMembershipsCount: z.number().int().min(1), giftMembershipsLevelName: z.string().max(200).optional() }).loose(),
    })
    .loose(),
} as const;

/** The live chat item types that are feed events rather than chat messages. */
export const YOUTUBE_EVENT_TYPES: ReadonlySet<string> = new Set(Object.keys(details));

/**
 * A YouTube live chat item that is an event (Super Chat and Super Sticker → tip, new member → sub,
 * membership milestone → resub, gifted memberships → sub, gifted) in the feed's shape; null for
 * chat messages and for items that do not hold what their type promises.
 */
export function normaliseYouTubeItem(raw: unknown, clean: (text: string) => string, image: (url: unknown) => string | null): InboundEvent | null {
  const item = base.safeParse(raw);
  if (!item.success || !YOUTUBE_EVENT_TYPES.has(item.data.snippet.type)) return null;
  const type = item.data.snippet.type as keyof typeof details;
  const parsed = details[type].safeParse(item.data.snippet);
  if (!parsed.success) return null;
  const at = item.data.snippet.publishedAt ? new Date(item.data.snippet.publishedAt) : new Date();
  const common = {
    platformEventId: item.data.id,
    platformUsername: clean(item.data.authorDetails?.displayName ?? 'YouTube viewer'),
    platformUserId: item.data.authorDetails?.channelId ?? null,
    avatar: image(item.data.authorDetails?.profileImageUrl),
    platformCreatedAt: Number.isNaN(at.getTime()) ? new Date() : at,
    replay: false,
    suppressed: false,
  };
  const message = (text: string | undefined) => {
    const t = text ? clean(text) : '';
    return t ? { message: t, parsedMessage: [{ kind: 'text' as const, value: t }] } : {};
  };
  switch (type) {
    case 'superChatEvent': {
      const d = (parsed.data as z.infer<(typeof details)['superChatEvent']>).superChatDetails;
      return { ...common, type: 'tip', value: d.amountMicros / 1_000_000, data: { currency: d.currency.toUpperCase(), ...message(d.userComment) } };
    }
    case 'superStickerEvent': {
      const d = (parsed.data as z.infer<(typeof details)['superStickerEvent']>).superStickerDetails;
      return {
        ...common,
        type: 'tip',
        value: d.amountMicros / 1_000_000,
        data: { currency: d.currency.toUpperCase(), ...message(d.superStickerMetadata?.altText) },
      };
    }
    case 'newSponsorEvent': {
      const d = (parsed.data as z.infer<(typeof details)['newSponsorEvent']>).newSponsorDetails;
      return { ...common, type: 'sub', value: null, data: d?.memberLevelName ? { tier: clean(d.memberLevelName) } : {} };
    }
    case 'memberMilestoneChatEvent': {
      const d = (parsed.data as z.infer<(typeof details)['memberMilestoneChatEvent']>).memberMilestoneChatDetails;
      return {
        ...common,
        type: 'resub',
        value: d.memberMonth,
        data: { ...(d.memberLevelName ? { tier: clean(d.memberLevelName) } : {}), ...message(d.userComment) },
      };
    }
    case 'membershipGiftingEvent': {
      const d = (parsed.data as z.infer<(typeof details)['membershipGiftingEvent']>).membershipGiftingDetails;
      return {
        ...common,
        type: 'sub',
        value: d.giftMembershipsCount,
        data: { gifted: true, gifter: { platformUsername: common.platformUsername }, giftCount: d.giftMembershipsCount },
      };
    }
  }
}
