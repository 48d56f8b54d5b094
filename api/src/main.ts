import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { createDb } from '@onair/db';
import { createLogger, onShutdownSignal, SecretBox } from '@onair/runtime';
import { createApp } from './app.ts';
import { createAccounts } from './auth/index.ts';
import { loadConfig } from './config.ts';
import { startBroadcastWatch } from './destinations/index.ts';
import { startIngestWatch } from './ingest/index.ts';
import { createFleetController } from './fleet/create-fleet-controller.ts';
import { SessionService } from './sessions/session-service.ts';
import { attachStudioSockets } from './ws/index.ts';

const config = loadConfig();
const logger = createLogger('api', config.LOG_LEVEL);
const db = createDb(config.DATABASE_URL);
const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 3 });
redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));

const accounts = createAccounts({ config, db, redis, logger });
// One session placement for the routes and the broadcast watch (output health, plan stream limit).
const sessions = new SessionService(db, redis, config.SECRETS_KEY ? new SecretBox(config.SECRETS_KEY) : undefined, logger);
const app = createApp({ config, db, redis, logger, accounts, sessions });
const broadcastWatch = await startBroadcastWatch({ config, db, redis, logger, sessions });
const ingestWatch = startIngestWatch({ config, db, redis, logger, sessions });
const server = createServer(app);
const sockets = await attachStudioSockets(server, { config, db, redis, logger, accounts });
server.listen(config.PORT, config.HOST, () => {
  logger.info({ port: config.PORT, host: config.HOST, publicUrl: config.PUBLIC_URL }, 'api listening');
});
// Every replica runs it; only the one holding the Redis lease samples load and scales.
const fleet = createFleetController(config, redis, logger);
fleet.start();

onShutdownSignal(logger, async () => {
  await fleet.stop();
  await broadcastWatch.close();
  ingestWatch.close();
  await sockets.close();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await closed;
  await sessions.closeQueue();
  await redis.quit();
  await db.$disconnect();
});
