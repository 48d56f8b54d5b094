import { z } from 'zod';

/** Environment of recordings, merged into the api's config schema (README's api table mirrors it). */
export const recordingsConfigShape = {
  /** How often the retention job looks for recordings past their plan's retention. */
  RECORDING_RETENTION_INTERVAL_SECONDS: z.coerce.number().int().positive().default(3600),
};
