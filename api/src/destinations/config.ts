import { z } from 'zod';
import { localWatchDelaySeconds, outputProfiles } from '@onair/protocol';

/**
 * Environment of destinations and going live, merged into the api's config schema. Every platform
 * endpoint is configurable so tests (and operators behind a proxy) can point a platform elsewhere;
 * the OAuth client ids, secrets and authorize/token URLs are the sign-in ones (TWITCH_*, GOOGLE_*,
 * FACEBOOK_* of auth/config.ts): one app per platform, asked for more scopes here.
 */
export const destinationsConfigShape = {
  /**
   * 32 random bytes in base64: the AES-256-GCM key of stream keys and platform tokens. Without it
   * the api still serves everything else but refuses to save or use a secret. The embedded stack
   * generates one under .data on first start.
   */
  SECRETS_KEY: z.string().optional(),
  /** Lets creators push to RTMP servers on private and loopback addresses (a studio on a LAN). */
  ALLOW_PRIVATE_RTMP: z.stringbool().default(false),
  /** The operator's own RTMP server offered as the Local destination (rtmp://127.0.0.1:1935/live in the embedded stack). */
  LOCAL_RTMP_URL: z
    .string()
    .regex(/^rtmps?:\/\//i)
    .optional(),
  /**
   * The Local server's address as readers reach it (`rtmp://host:port/app`), shown on each Local
   * destination with its stream name; unset: LOCAL_RTMP_URL.
   */
  LOCAL_RTMP_PLAY_URL: z
    .string()
    .regex(/^rtmps?:\/\//i)
    .optional(),
  /**
   * The secret in the path of the Local server's on_publish callback
   * (`/api/internal/local-stream/<secret>/publish`): only that server knows it. Unset: every
   * publish to a Local stream is refused.
   */
  LOCAL_RTMP_CALLBACK_SECRET: z.string().min(24).optional(),
  /** The Local server's HLS (the studio's Watch player is served from it through the api); unset: no Watch player. */
  LOCAL_RTMP_HLS_URL: z.url().optional(),
  /** How far the Watch player runs behind the program (the HLS fragments and playlist of LOCAL_RTMP_HLS_URL), in seconds. */
  LOCAL_RTMP_HLS_DELAY_SECONDS: z.coerce.number().positive().default(localWatchDelaySeconds(outputProfiles['720p30'].keyframeIntervalSeconds)),
  /** Platform API bases (Helix, Twitch's ingest list, YouTube Data API v3, Graph API v15.0 of spec §9). */
  TWITCH_API_URL: z.url().default('https://api.twitch.tv/helix'),
  TWITCH_INGEST_URL: z.url().default('https://ingest.twitch.tv/ingests'),
  YOUTUBE_API_URL: z.url().default('https://www.googleapis.com/youtube/v3'),
  FACEBOOK_GRAPH_URL: z.url().default('https://graph.facebook.com/v15.0'),
  /** A live broadcast held on the holding slate (every live source dropped) this long ends cleanly; 0 never. */
  SLATE_MAX_SECONDS: z.coerce.number().int().min(0).default(600),
  /** Refresh a platform token this long before it expires. */
  TOKEN_REFRESH_MARGIN_SECONDS: z.coerce.number().int().min(0).default(300),
};

export type DestinationsConfig = z.output<z.ZodObject<typeof destinationsConfigShape>>;
