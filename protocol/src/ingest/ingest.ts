import { z } from 'zod';

/**
 * Ingest: how encoders, OBS and consoles reach a project (ARCHITECTURE "Ingest"). An RTMP server
 * (nginx-rtmp) asks the api about every publish before it accepts it; the media worker that owns
 * the project's session pulls the accepted feed into the project's game source.
 */

/** `rtmp://<host>/ingest/<ingest key>`: the address OnAir gives encoders (OBS, hardware encoders). */
export const INGEST_APPLICATION = 'ingest';
/**
 * `rtmp://<host>/app/<Twitch stream key>`: the path shape of Twitch's own ingest, so a console whose
 * Twitch ingest is pointed at OnAir lands in the project whose enabled Twitch destination has that key.
 */
export const CONSOLE_APPLICATION = 'app';
export const ingestApplications = [INGEST_APPLICATION, CONSOLE_APPLICATION] as const;
export type IngestApplication = (typeof ingestApplications)[number];

/** How long a feed may be gone before Auto Live ends the broadcast (spec §2 Auto Live; INGEST_GRACE_SECONDS). */
export const DEFAULT_INGEST_GRACE_SECONDS = 60;
/** An accepted publish is forgotten unless the RTMP server confirms it within this (its on_update every 10 s). */
export const INGEST_PUBLISH_TTL_MS = 30_000;

/** Which door a feed came through: the project's ingest key, the Twitch-shaped console path, or WHIP. */
export const ingestVias = ['encoder', 'console', 'whip'] as const;
export const ingestViaSchema = z.enum(ingestVias);
export type IngestVia = z.infer<typeof ingestViaSchema>;

/**
 * The ingest's state as the studio shows it: `waiting` for a feed, `receiving` one, or `dropped`
 * (the feed went away; within the grace period the broadcast goes on with the offline picture).
 */
export const ingestStates = ['waiting', 'receiving', 'dropped'] as const;
export const ingestStateSchema = z.enum(ingestStates);
export type IngestState = z.infer<typeof ingestStateSchema>;

export const ingestStatusSchema = z.object({
  state: ingestStateSchema,
  via: ingestViaSchema.nullable(),
  /** When the state began. */
  since: z.iso.datetime().nullable(),
  /** While dropped with Auto Live on: when the broadcast ends unless the feed returns. */
  graceEndsAt: z.iso.datetime().nullable(),
});
export type IngestStatus = z.infer<typeof ingestStatusSchema>;

export const IDLE_INGEST_STATUS: IngestStatus = { state: 'waiting', via: null, since: null, graceEndsAt: null };

/**
 * What the media worker sees of the feed it pulls: `starting` until its first packets, `flowing` while they arrive, `stalled` when the
 * bytes stopped without the connection closing (byte watchdog), `unsupported` when its codec cannot
 * be shown (the studio says which).
 */
export const ingestFeedStates = ['starting', 'flowing', 'stalled', 'unsupported'] as const;
export const ingestFeedSchema = z.object({
  state: z.enum(ingestFeedStates),
  videoCodec: z.string().max(40).nullable(),
  audioCodec: z.string().max(40).nullable(),
  width: z.number().int().nonnegative().nullable(),
  height: z.number().int().nonnegative().nullable(),
  fps: z.number().nonnegative().nullable(),
  bitrateKbps: z.number().nonnegative(),
  at: z.iso.datetime(),
});
export type IngestFeed = z.infer<typeof ingestFeedSchema>;

/** The video codecs the pipeline decodes from an RTMP feed (FLV): others get a clear status, not a picture. */
export const SUPPORTED_INGEST_VIDEO_CODECS = ['h264'] as const;

export function unsupportedCodecText(codec: string): string {
  return `The feed's video is ${codec}, which OnAir cannot show. Set your encoder to H.264.`;
}

/**
 * One accepted publish, in Redis while it lasts: which project it feeds and where the owning worker
 * pulls it (`<application>/<stream>` on the RTMP server: the stream was renamed at accept time, so
 * the key never travels further). `clientId` is the RTMP server's connection id.
 */
export const ingestPublishSchema = z.object({
  projectId: z.uuid(),
  publishId: z.uuid(),
  via: ingestViaSchema,
  /** Null for a WHIP publish: its media reaches the worker over WebRTC, nothing is pulled. */
  pullPath: z
    .string()
    .regex(/^[a-z]+\/[0-9a-f-]{36}\.[0-9a-f-]{36}$/)
    .nullable(),
  clientId: z.string().max(64),
  /** SHA-256 of the key it was accepted with (not the key): a revoked key's feed is cut off at the next check. */
  keyDigest: z.string().regex(/^[0-9a-f]{64}$/),
  startedAt: z.iso.datetime(),
});
export type IngestPublish = z.infer<typeof ingestPublishSchema>;

/** The stream name an accepted publish is renamed to: project and publish, nothing secret. */
export function ingestStreamName(projectId: string, publishId: string): string {
  return `${projectId}.${publishId}`;
}
const STREAM_NAME = /^([0-9a-f-]{36})\.([0-9a-f-]{36})$/;
export function parseIngestStreamName(name: string): { projectId: string; publishId: string } | null {
  const m = STREAM_NAME.exec(name);
  return m ? { projectId: m[1]!, publishId: m[2]! } : null;
}

export const ingestKeys = {
  /** The accepted publish of a project (JSON IngestPublish, TTL INGEST_PUBLISH_TTL_MS). */
  publish: (projectId: string) => `onair:ingest:${projectId}:publish`,
  /**
   * The project an accepted publish's key led to, by the key's digest: nginx-rtmp names the stream
   * by its original name (the key) in on_update and on_publish_done, and a key regenerated meanwhile
   * no longer leads anywhere by itself.
   */
  byKeyDigest: (digest: string) => `onair:ingest:by-key:${digest}`,
  /** The project's ingest status (JSON IngestStatus). */
  status: (projectId: string) => `onair:ingest:${projectId}:status`,
  /** The latest feed report of the pulling worker (JSON IngestFeed, short TTL). */
  feed: (projectId: string) => `onair:ingest:${projectId}:feed`,
  /** Pub/sub: the project's publish began or ended (the owning worker follows it). */
  channel: (projectId: string) => `onair:ingest:${projectId}:changes`,
  /** Sorted set of projects whose feed dropped, scored by the end of their grace period (ms). */
  grace: 'onair:ingest:grace',
} as const;

/** The message on `ingestKeys.channel`: the current publish, or null when none. */
export const ingestChangeSchema = z.object({ publish: ingestPublishSchema.nullable() });
export type IngestChange = z.infer<typeof ingestChangeSchema>;

/**
 * The query nginx-rtmp sends with its on_publish, on_update and on_publish_done calls
 * (`notify_method get`). Other fields it sends (flashver, swfurl, tcurl, pageurl, type, time…) are ignored.
 */
export const rtmpCallbackQuerySchema = z.looseObject({
  /** `update_play`: on_update also runs for players (the media workers pulling feeds). */
  call: z.enum(['publish', 'update_publish', 'update_play', 'publish_done', 'done']),
  app: z.string().max(64),
  name: z.string().max(512),
  clientid: z.string().max(64),
  addr: z.string().max(128).default(''),
});
export type RtmpCallbackQuery = z.infer<typeof rtmpCallbackQuerySchema>;

/**
 * The Xbox and PlayStation setup guides of the Auto Live block (spec §2): three steps each. Consoles
 * stream only to their platforms' own ingest, so the console's network sends Twitch's ingest host to
 * this server (the operator's DNS entry, shown as the console address) and the Twitch key does the rest.
 */
export const consoleGuides = {
  xbox: {
    title: 'Stream from your Xbox',
    steps: [
      'Add your Twitch channel as a destination here, keep it switched on, and turn on Auto Live.',
      "On the Xbox, open Settings › General › Network settings › Advanced settings › DNS settings and enter your OnAir server's console DNS, so Twitch's ingest leads to OnAir.",
      'Open the Twitch app on the Xbox, signed in to the same channel, and press Go Live: OnAir receives the game and goes live on every enabled destination.',
    ],
  },
  playstation: {
    title: 'Stream from your PlayStation',
    steps: [
      'Add your Twitch channel as a destination here, keep it switched on, and turn on Auto Live.',
      "On the PlayStation, open Settings › Network › Settings › Set Up Internet Connection › Advanced Settings › DNS Settings, choose Manual and enter your OnAir server's console DNS.",
      'Link the same Twitch channel under Users and Accounts › Linked Services, then Create › Broadcast to Twitch: OnAir receives the game and goes live on every enabled destination.',
    ],
  },
} as const;
export type ConsoleKind = keyof typeof consoleGuides;

// ─── WHIP (RFC 9725) ───

/** Where a WHIP client (OBS 30+, a hardware encoder, a browser) POSTs its offer, with the ingest key as bearer token. */
export const WHIP_PATH = '/api/v1/projects/:projectId/whip';
export const whipParamsSchema = z.object({ projectId: z.uuid() });
export const whipResourceParamsSchema = z.object({ projectId: z.uuid(), resourceId: z.uuid() });
/** `?source=<source id>`: the feed goes to that source (a camera the creator chose) instead of the game sources. */
export const whipQuerySchema = z.looseObject({ source: z.uuid().optional() });
/** A WHIP publish lasts until DELETE; this bounds one whose client vanished without it. */
export const WHIP_PUBLISH_TTL_MS = 12 * 3600_000;
export const whipKeys = {
  /** The project and key digest of a WHIP resource (JSON), for its PATCH and DELETE. */
  resource: (resourceId: string) => `onair:whip:${resourceId}`,
} as const;
export const whipResourceSchema = z.object({
  projectId: z.uuid(),
  keyDigest: z.string().regex(/^[0-9a-f]{64}$/),
  publishId: z.uuid(),
  sourceId: z.uuid().nullable(),
});
export type WhipResource = z.infer<typeof whipResourceSchema>;
