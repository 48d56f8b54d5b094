import { z } from 'zod';

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
  /** The key the local server accepts (its on_publish check). */
  LOCAL_RTMP_KEY: z.string().optional(),
  /**
   * Where the local RTMP server serves its HLS (`<url>/<stream name>/index.m3u8`, on loopback in the
   * embedded stack): the api proxies it to the studio's Watch player of a Local destination.
   */
  LOCAL_RTMP_HLS_URL: z.url().optional(),
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
