import { z } from 'zod';
import { destinationTypeSchema, type DestinationType } from '../destinations/catalogue.ts';
import type { lowerThirdPlatforms } from '../pipeline/lower-third.ts';

/** Spec §9: a message typed in the studio holds 1 to 200 characters once trimmed. */
export const CHAT_MESSAGE_MAX = 200;
/** Spec §9: the panel sticks to the bottom while the reader is within this many pixels of it. */
export const CHAT_STICK_TO_BOTTOM_PX = 10;
/** Spec §9 reconnect and retry delays of the platform connectors. */
export const CHAT_TWITCH_RECONNECT_MS = 5_000;
export const CHAT_YOUTUBE_NOT_LIVE_RETRY_MS = 25_000;
/** YouTube's poll when its answer names no pollingIntervalMillis (spec §9 "poll every 30 s"). */
export const CHAT_YOUTUBE_POLL_MS = 30_000;
export const CHAT_YOUTUBE_MAX_RESULTS = 2_000;
export const CHAT_FACEBOOK_ERROR_RETRY_MS = 30_000;
/** How many recent messages a studio receives when it opens. */
export const CHAT_HISTORY_LIMIT = 200;
/** Longest platform message kept; longer ones are cut (a 10 000-character message must not flood the panel). */
export const CHAT_PLATFORM_TEXT_MAX = 2_000;

/** Platforms with a chat connector on the server. */
export const chatPlatforms = ['twitch', 'youtube', 'facebook'] as const;
export const chatPlatformSchema = z.enum(chatPlatforms);
export type ChatPlatform = z.infer<typeof chatPlatformSchema>;
// The pipeline's lower third carries the mark of each of these platforms, and of no other.
const samePlatforms: [ChatPlatform, (typeof lowerThirdPlatforms)[number]] extends [(typeof lowerThirdPlatforms)[number], ChatPlatform] ? true : never = true;
void samePlatforms;

/** The chat connector of a destination type, or null when it has none. */
export function chatPlatformOf(type: DestinationType): ChatPlatform | null {
  if (type === 'Twitch') return 'twitch';
  if (type === 'YouTube') return 'youtube';
  if (type === 'Facebook') return 'facebook';
  return null;
}

/** Destination types of platforms that have a chat of their own but no connector yet ('Support for {platform} chat is coming soon.'). */
export const chatComingSoonTypes: readonly DestinationType[] = ['Amazon', 'DLive', 'Douyu', 'Huya', 'Instagram', 'LinkedIn', 'Trovo', 'Vimeo'];

/** An image or link address from a platform: http(s) only, so nothing else ever reaches an href or src. */
const webUrl = z.url({ protocol: /^https?$/ }).max(2000);

/** Spec §3 message segments: text, an emoticon (an image with its name as text) and a link (shown, never fetched). */
export const chatSegmentSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('text'), value: z.string() }),
  z.strictObject({ kind: z.literal('emoticon'), value: z.string().max(200), url: webUrl }),
  z.strictObject({ kind: z.literal('link'), value: z.string().max(2000), href: webUrl }),
]);
export type ChatSegment = z.infer<typeof chatSegmentSchema>;

/** One platform's outcome of a message sent from the studio. */
export const chatDeliveryStates = ['pending', 'sent', 'failed'] as const;
export const chatDeliverySchema = z.strictObject({
  destinationId: z.uuid(),
  state: z.enum(chatDeliveryStates),
  /** Why it failed, in the creator's words. */
  error: z.string().optional(),
});
export type ChatDelivery = z.infer<typeof chatDeliverySchema>;

/**
 * Spec §3 "Chat message", normalised from every platform: id, ts, toDestinations, segments, and
 * the room's sender, displayName, content, timestamp (ts) and recipients (toDestinations).
 * `inbound` messages come from a platform's chat; `outbound` ones were typed in the studio and
 * carry one delivery per target platform.
 */
export const chatMessageSchema = z.strictObject({
  id: z.uuid(),
  projectId: z.uuid(),
  ts: z.iso.datetime(),
  direction: z.enum(['inbound', 'outbound']),
  /** The platform it came from (inbound only). */
  platform: chatPlatformSchema.nullable(),
  /** The destination whose chat it came from (inbound only). */
  destinationId: z.uuid().nullable(),
  /** The sender's platform id (inbound) or OnAir user id (outbound). */
  sender: z.string().max(200).nullable(),
  displayName: z.string().max(200),
  avatar: webUrl.nullable(),
  /** Plain text of the message. */
  content: z.string(),
  segments: z.array(chatSegmentSchema),
  /** Outbound: the destinations it was sent to. */
  toDestinations: z.array(z.uuid()),
  deliveries: z.array(chatDeliverySchema),
  /** A message addressed to the channel's account alone (a Twitch whisper): shown live, never in history. */
  private: z.boolean(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/**
 * A connector's state, as the panel shows it per platform. `needsSignIn`: the platform no longer
 * accepts the destination's access (revoked or expired); the creator reconnects it (the Connect flow).
 */
export const chatConnectionStates = ['connecting', 'live', 'reconnecting', 'offline', 'unsupported', 'needsSignIn'] as const;
export const chatConnectionStateSchema = z.enum(chatConnectionStates);
export type ChatConnectionState = z.infer<typeof chatConnectionStateSchema>;

/**
 * Spec §3 "Chat destination entry": id, canSend, platform, platformId, username, variant. The
 * token stays on the server (the browser never talks to a platform); `state` and `error` are the
 * connector's.
 */
export const chatDestinationEntrySchema = z.strictObject({
  id: z.uuid(),
  canSend: z.boolean(),
  platform: chatPlatformSchema.nullable(),
  platformId: z.string().nullable(),
  username: z.string().nullable(),
  /** The destination type (Twitch, YouTube, Facebook, or one whose chat is coming soon). */
  variant: destinationTypeSchema,
  name: z.string(),
  state: chatConnectionStateSchema,
  /** Why the connector is not live, in the creator's words. */
  error: z.string().optional(),
});
export type ChatDestinationEntry = z.infer<typeof chatDestinationEntrySchema>;

/** Where a creator's message may go: a platform's chat that can receive it. Facebook live comments are read only. */
export function chatCanSend(platform: ChatPlatform | null, authenticated: boolean): boolean {
  return authenticated && (platform === 'twitch' || platform === 'youtube');
}

/** Spec §5: 1 to 200 characters after trimming. */
export const chatTextSchema = z
  .string()
  .transform((s) => s.trim())
  .pipe(z.string().min(1, 'Type a message.').max(CHAT_MESSAGE_MAX, `A chat message holds at most ${CHAT_MESSAGE_MAX} characters.`));

export function chatTextValid(text: string): boolean {
  const t = text.trim();
  return t.length >= 1 && t.length <= CHAT_MESSAGE_MAX;
}

/**
 * A domain-like word: an optional scheme, labels and a top-level domain of letters, then an
 * optional path (spec §5 "words that look like links become link segments").
 */
const LINK_WORD = /^(?:https?:\/\/)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}(?::\d{1,5})?(?:[/?#][^\s]*)?$/i;

/** Splits text into text and link segments; a link gets an https address unless it named http. */
export function linkSegments(text: string): ChatSegment[] {
  const out: ChatSegment[] = [];
  const push = (value: string) => {
    const last = out[out.length - 1];
    if (last && last.kind === 'text') last.value += value;
    else out.push({ kind: 'text', value });
  };
  for (const part of text.split(/(\s+)/)) {
    if (part === '') continue;
    const trimmed = part.replace(/[.,!?;:)]+$/, '');
    if (trimmed.length > 3 && trimmed.length <= 2000 && LINK_WORD.test(trimmed) && !/^\d+(\.\d+)+$/.test(trimmed)) {
      const href = /^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
      try {
        out.push({ kind: 'link', value: trimmed, href: new URL(href).toString() });
        if (trimmed.length < part.length) push(part.slice(trimmed.length));
        continue;
      } catch {
        // Not a URL after all: kept as text.
      }
    }
    push(part);
  }
  return out;
}
