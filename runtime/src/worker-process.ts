import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import type { WorkerKind } from '@onair/protocol';
import { HeartbeatPublisher, type WorkerLoad } from './heartbeat.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMetricsRegistry, startMetricsServer } from './metrics-server.ts';
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
      // Every step below talks to Redis, whose client waits for it to come back for ever. When it
      // is gone for good (the one-machine stack killed with -9 takes its Redis along with every
      // worker) nothing can be handed over: the worker stops at once instead of waiting out the
      // shutdown deadline (30 s and more), and what it started ends with it (tethered-process.ts).
      const lost = redisLostFor(redis, REDIS_LOST_MS);
      const finished = (async () => {
        await heartbeat.drain();
        await def.drain?.(ctx);
        await heartbeat.stop();
      })();
      const gone = lost.promise.then(() => 'redis lost' as const);
      let outcome = await Promise.race([finished.then(() => 'drained' as const), gone]);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (outcome === 'drained') outcome = await Promise.race([redis.quit().then(() => 'drained' as const), gone]);
      lost.cancel();
      if (outcome === 'redis lost') {
        logger.warn({ lostMs: REDIS_LOST_MS }, 'redis is gone: stopping without handing over');
        // Still-queued commands are failed, not left pending, and the drain's own rejection is not a crash.
        finished.catch(() => undefined);
        redis.disconnect();
      }
    },
    config.DRAIN_GRACE_MS + 30_000,
  );
  return ctx;
}

/** Redis unreachable this long during a shutdown counts as gone (a reconnect after a blip takes well under it). */
const REDIS_LOST_MS = 3000;

/** Resolves once `redis` has not been ready for `ms` in a row (looked at four times a second). */
function redisLostFor(redis: Redis, ms: number): { promise: Promise<void>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    let downSince: number | undefined;
    timer = setInterval(() => {
      if (redis.status === 'ready') {
        downSince = undefined;
        return;
      }
      downSince ??= Date.now();
      if (Date.now() - downSince >= ms) resolve();
    }, 250);
    timer.unref();
  });
  return { promise, cancel: () => clearInterval(timer) };
}
