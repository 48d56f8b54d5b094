import { z } from 'zod';
import { DEFAULT_INGEST_GRACE_SECONDS } from '@onair/protocol';

/** Environment of the ingest and Auto Live, merged into the api's config schema. */
export const ingestConfigShape = {
  /**
   * The RTMP ingest's address as encoders and consoles reach it, without application
   * (`rtmp://ingest.example.com`); unset: this api offers no ingest.
   */
  INGEST_RTMP_URL: z
    .string()
    .regex(/^rtmps?:\/\/[^/\s]+$/i, 'an rtmp:// address without a path')
    .optional(),
  /**
   * The secret in the path of the RTMP server's callbacks (`/api/internal/ingest/<secret>/…`): only
   * the ingest server knows it. Unset: every publish is refused.
   */
  INGEST_CALLBACK_SECRET: z.string().min(24).optional(),
  /** How long a feed may be gone before Auto Live ends the broadcast. */
  INGEST_GRACE_SECONDS: z.coerce.number().positive().default(DEFAULT_INGEST_GRACE_SECONDS),
  /** How often the api looks for feeds whose grace period ran out. */
  INGEST_SWEEP_MS: z.coerce.number().int().positive().default(1000),
  /** Links of the Xbox and PlayStation guides (Watch Tutorial, Help Center). */
  CONSOLE_TUTORIAL_URL: z.url().default('https://www.youtube.com/results?search_query=stream+console+to+twitch'),
  HELP_CENTER_URL: z.url().default('https://help.twitch.tv/s/article/broadcast-guidelines'),
};

export type IngestConfig = z.output<z.ZodObject<typeof ingestConfigShape>>;
