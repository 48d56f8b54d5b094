import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { createDb } from '@onair/db';
import { createLogger, onShutdownSignal, REDIS_GONE_MS, unlessRedisGone } from '@onair/runtime';
import { createApp } from './app.ts';
import { startBackgroundJobs } from './background.ts';
import { compose } from './compose.ts';
import { loadConfig } from './config.ts';
import { attachStudioSockets } from './sockets.ts';

const config = loadConfig();
const logger = createLogger('api', config.LOG_LEVEL);
const db = createDb(config.DATABASE_URL);
const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 3 });
redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));

// Every service once, for HTTP, /ws and the background jobs alike.
const services = compose({ config, db, redis, logger });
const jobs = await startBackgroundJobs(services);
const server = createServer(createApp(services));
const sockets = await attachStudioSockets(server, services);
server.listen(config.PORT, config.HOST, () => {
  logger.info({ port: config.PORT, host: config.HOST, publicUrl: config.PUBLIC_URL }, 'api listening');
});

onShutdownSignal(logger, async () => {
  // The jobs, the sockets' pub/sub and the services' queues all close through Redis: with Redis
  // gone for good (the one-machine stack killed with -9 takes it along) the api stops without them.
  const outcome = await unlessRedisGone(redis, async () => {
    await jobs.close();
    await sockets.close();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await closed;
    await services.close();
    await redis.quit();
  });
  if (outcome === 'redis gone') logger.warn({ goneMs: REDIS_GONE_MS }, 'redis is gone: stopping without closing its clients');
  await db.$disconnect();
});
