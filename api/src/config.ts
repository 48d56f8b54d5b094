import { z } from 'zod';
import {
  CLIENT_ERRORS_PER_MINUTE,
  DEFAULT_DOCUMENT_LIMITS,
  DIGEST_DEFAULT_CRON,
  GUEST_JOINS_PER_MINUTE,
  parseIceServers,
  type DocumentLimits,
} from '@onair/protocol';
import { authConfigShape } from './auth/config.ts';
import { billingConfigShape } from './billing/config.ts';
import { scalerConfigShape } from './fleet/scaler/config.ts';
import { destinationsConfigShape } from './destinations/config.ts';
import { chatConfigShape } from './chat/config.ts';
import { eventsConfigShape } from './events/config.ts';
import { uploadsConfigShape } from './uploads/config.ts';
import { recordingsConfigShape } from './recordings/config.ts';
import { chatbotConfigShape } from './chatbot/config.ts';
import { ingestConfigShape } from './ingest/config.ts';
import { leasesConfigShape, leasesEnvFormerNames } from './leases/config.ts';

/** Every environment variable the api reads, with its default. The README's table mirrors this. */
const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  /**
   * Signs the addresses of OnAir's own overlay pages for the studio's render worker (which must be
   * given the same value, with RENDER_OWN_ORIGIN). Unset: derived from AUTH_SECRET.
   */
  RENDER_PAGE_SECRET: z.string().min(32).optional(),
  DATABASE_URL: z.string().min(1),
  REDIS_URL: z.string().min(1),
  UI_DIST_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Largest JSON body accepted, in bytes. */
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_048_576),
  /** Largest body of a sign-in request (/api/auth), in bytes: they carry an address, a code or a token. */
  AUTH_MAX_BODY_BYTES: z.coerce.number().int().positive().default(16_384),
  /** Largest /ws message from a browser, in bytes; a larger one closes that socket (1009). */
  WS_MAX_MESSAGE_BYTES: z.coerce.number().int().positive().default(65_536),
  /** Messages a socket may send per second on average, and in one burst; beyond, they are refused with RATE_LIMITED. */
  WS_MESSAGES_PER_SECOND: z.coerce.number().positive().default(20),
  WS_MESSAGE_BURST: z.coerce.number().int().positive().default(60),
  /** Open /ws sockets one user may hold on one api replica (studio tabs, guests' pages). */
  WS_MAX_SOCKETS_PER_USER: z.coerce.number().int().positive().default(16),
  /** Guest joins (and link checks) one address may make per minute (spec issue 15: a flood of joins is refused). */
  GUEST_JOIN_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(GUEST_JOINS_PER_MINUTE),
  /** Error reports (POST /api/v1/client-errors) one address may send per minute; more answer RATE_LIMITED. */
  CLIENT_ERRORS_PER_MINUTE: z.coerce.number().int().positive().default(CLIENT_ERRORS_PER_MINUTE),
  /** Caps of one project's scene document, whatever the plan: scenes (live ones), sources, layers in one scene. */
  SCENE_MAX_SCENES: z.coerce.number().int().positive().default(DEFAULT_DOCUMENT_LIMITS.scenes),
  SCENE_MAX_SOURCES: z.coerce.number().int().positive().default(DEFAULT_DOCUMENT_LIMITS.sources),
  SCENE_MAX_LAYERS: z.coerce.number().int().positive().default(DEFAULT_DOCUMENT_LIMITS.layersPerScene),
  /** How often the api looks for countdown scenes whose time is up (issue 19). */
  COUNTDOWN_SWEEP_MS: z.coerce.number().int().positive().default(250),
  /** STUN/TURN servers for the studio's peer connections, a JSON array (see protocol's parseIceServers). */
  WEBRTC_ICE_SERVERS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      try {
        return parseIceServers(raw);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /** Partner spec §4: days between deleting an account (deactivated at once) and erasing its data. */
  ACCOUNT_RETENTION_DAYS: z.coerce.number().int().positive().default(30),
  /** How often the erasure job looks for accounts whose retention window has passed. */
  ACCOUNT_ERASURE_INTERVAL_SECONDS: z.coerce.number().int().positive().default(3600),
  /** Hours a ready data export (Settings › Data Exports) can be downloaded. */
  EXPORT_LINK_HOURS: z.coerce.number().int().positive().default(24),
  /** Short codes (device authorization) one account may try per SHORT_CODE_WINDOW_SECONDS; more are refused (429). */
  SHORT_CODE_ATTEMPTS: z.coerce.number().int().positive().default(10),
  SHORT_CODE_WINDOW_SECONDS: z.coerce.number().int().positive().default(600),
  /** How often OnAir samples the linked Twitch channels for campaign eligibility (and sweeps campaigns). */
  CHANNEL_STATS_SAMPLE_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /** When the weekly digest goes out: a cron pattern in UTC (BullMQ's job scheduler); default Mondays 09:00. */
  DIGEST_CRON: z.string().min(9).default(DIGEST_DEFAULT_CRON),
  /** Lifetime of an access token issued to a third-party application, in seconds. */
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  ...authConfigShape,
  ...chatbotConfigShape,
  ...scalerConfigShape,
  ...destinationsConfigShape,
  ...ingestConfigShape,
  ...billingConfigShape,
  ...leasesConfigShape,
  ...chatConfigShape,
  ...eventsConfigShape,
  ...uploadsConfigShape,
  ...recordingsConfigShape,
});

export type ApiConfig = z.infer<typeof configSchema>;

/** Variables that were renamed, by new name: the former name is read when the new one is not set. */
const FORMER_NAMES: Record<string, string> = { ...leasesEnvFormerNames };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const renamed = Object.fromEntries(
    Object.entries(FORMER_NAMES).flatMap(([name, former]) => (env[name] === undefined && env[former] !== undefined ? [[name, env[former]]] : [])),
  );
  const parsed = configSchema.safeParse({ ...env, ...renamed });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid api configuration: ${problems}`);
  }
  return parsed.data;
}

export function documentLimits(config: ApiConfig): DocumentLimits {
  return { scenes: config.SCENE_MAX_SCENES, sources: config.SCENE_MAX_SOURCES, layersPerScene: config.SCENE_MAX_LAYERS };
}
