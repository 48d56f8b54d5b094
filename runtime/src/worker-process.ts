import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import type { WorkerKind } from '@onair/protocol';
import { HeartbeatPublisher, type WorkerLoad } from './heartbeat.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMetricsRegistry, startMetricsServer } from './metrics-server.ts';
import { REDIS_GONE_MS, unlessRedisGone } from './redis-gone.ts';
import { onShutdownSignal } from './shutdown.ts';

const workerConfigSchema = z.object({
  REDIS_URL: z.string().min(1),
  WORKER_ID: z.string().min(1).optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How long a draining worker keeps its work after SIGTERM before it hands it over and exits. */
  DRAIN_GRACE_MS: z.coerce.number().int().nonnegative().default(3_600_000),
});

export type WorkerConfig = z.infer<typeof workerConfigSchema> & { WORKER_ID: string };

export interface WorkerContext {
  config: WorkerConfig;
  logger: Logger;
  redis: Redis;
  metrics: Registry;
  heartbeat: HeartbeatPublisher;
}

export interface WorkerDefinition {
  kind: WorkerKind;
  version: string;
  defaultMetricsPort: number;
  /** The worker's own load figures, read on every heartbeat. */
  load: () => WorkerLoad;
  /** Starts the worker's own work once it is registered. */
  start?: (ctx: WorkerContext) => Promise<void>;
  /**
   * Called on SIGTERM after the worker is marked draining: stop taking work, finish or hand over
   * what is running (within DRAIN_GRACE_MS), release resources.
   */
  drain?: (ctx: WorkerContext) => Promise<void>;
}

/**
 * The life of a worker process, the same for every kind: read its configuration, open Redis,
 * expose metrics, register with a heartbeat, run, and on SIGTERM drain, deregister and exit 0.
 */
export async function runWorker(def: WorkerDefinition, env: NodeJS.ProcessEnv = process.env): Promise<WorkerContext> {
  const parsed = workerConfigSchema.safeParse({ METRICS_PORT: def.defaultMetricsPort, ...env });
  if (!parsed.success) {
    throw new Error(`Invalid ${def.kind} worker configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const config: WorkerConfig = { ...parsed.data, WORKER_ID: parsed.data.WORKER_ID ?? `${def.kind}-${hostname()}-${process.pid}` };
  const logger = createLogger(`${def.kind}-worker`, config.LOG_LEVEL).child({ workerId: config.WORKER_ID });
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
  const metrics = createMetricsRegistry(`onair_${def.kind}_worker_`);
  const { server, port } = await startMetricsServer(metrics, config.METRICS_PORT);
  const heartbeat = new HeartbeatPublisher({ redis, kind: def.kind, id: config.WORKER_ID, version: def.version, logger, load: def.load });
  const ctx: WorkerContext = { config, logger, redis, metrics, heartbeat };

  await def.start?.(ctx);
  await heartbeat.start();
  logger.info({ metricsPort: port }, `${def.kind} worker registered`);

  onShutdownSignal(
    logger,
    async () => {
      // Every step talks to Redis: with Redis gone for good nothing can be handed over (redis-gone.ts).
      const outcome = await unlessRedisGone(redis, async () => {
        await heartbeat.drain();
        await def.drain?.(ctx);
        await heartbeat.stop();
      });
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (outcome === 'done' && (await unlessRedisGone(redis, () => redis.quit().then(() => undefined))) === 'done') return;
      logger.warn({ goneMs: REDIS_GONE_MS }, 'redis is gone: stopping without handing over');
    },
    config.DRAIN_GRACE_MS + 30_000,
  );
  return ctx;
}
