import { z } from 'zod';
import { parseIceServers } from '@onair/protocol';
import { authConfigShape } from './auth/config.ts';
import { scalerConfigShape } from './fleet/scaler/config.ts';
import { destinationsConfigShape } from './destinations/config.ts';

/** Every environment variable the api reads, with its default. The README's table mirrors this. */
const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  DATABASE_URL: z.string().min(1),
  REDIS_URL: z.string().min(1),
  UI_DIST_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Largest JSON body accepted, in bytes. */
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_048_576),
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
  ...authConfigShape,
  ...scalerConfigShape,
  ...destinationsConfigShape,
});

export type ApiConfig = z.infer<typeof configSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid api configuration: ${problems}`);
  }
  return parsed.data;
}
