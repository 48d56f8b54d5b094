import { z } from 'zod';
import { CHAT_FACEBOOK_ERROR_RETRY_MS, CHAT_TWITCH_RECONNECT_MS, CHAT_YOUTUBE_NOT_LIVE_RETRY_MS } from '@onair/protocol';

/**
 * Environment of the platform chat connectors, merged into the api's config. The platform API
 * bases and OAuth clients are the destinations' (YOUTUBE_API_URL, FACEBOOK_GRAPH_URL, TWITCH_*…);
 * these are the chat's own endpoints and timings. The retry delays default to spec §9 and are
 * settable so tests and doubles need not wait 25 seconds.
 */
export const chatConfigShape = {
  /** Run chat connectors in this replica (every replica takes part in the election of owners). */
  CHAT_CONNECTORS: z.stringbool().default(true),
  /** Twitch chat's IRC-over-WebSocket interface. */
  TWITCH_CHAT_URL: z.url().default('wss://irc-ws.chat.twitch.tv:443'),
  /** Where Twitch emote images are: `{base}/{id}/default/dark/1.0`. */
  TWITCH_EMOTE_URL: z.url().default('https://static-cdn.jtvnw.net/emoticons/v2'),
  /** Facebook's streaming Graph API (live comments as server-sent events), with the Graph API version. */
  FACEBOOK_STREAMING_URL: z.url().default('https://streaming-graph.facebook.com/v15.0'),
  /** How many comments a second Facebook streams at most (one_per_two_seconds, ten_per_second, one_hundred_per_second). */
  FACEBOOK_COMMENT_RATE: z.enum(['one_per_two_seconds', 'ten_per_second', 'one_hundred_per_second']).default('one_hundred_per_second'),
  CHAT_TWITCH_RECONNECT_MS: z.coerce.number().int().min(10).default(CHAT_TWITCH_RECONNECT_MS),
  /** YouTube without an active broadcast, Facebook without a live video: ask again after this long. */
  CHAT_NOT_LIVE_RETRY_MS: z.coerce.number().int().min(10).default(CHAT_YOUTUBE_NOT_LIVE_RETRY_MS),
  /** After a platform error (500, 429, a broken stream): the longest wait; retries back off up to it. */
  CHAT_ERROR_RETRY_MS: z.coerce.number().int().min(10).default(CHAT_FACEBOOK_ERROR_RETRY_MS),
  /** A Facebook comment stream silent this long is opened again (a stalled connection sends nothing). */
  CHAT_STREAM_STALL_MS: z.coerce.number().int().min(100).default(120_000),
};

export type ChatConfig = z.output<z.ZodObject<typeof chatConfigShape>>;
