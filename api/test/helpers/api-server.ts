// Starts the real api app (createApp) on an ephemeral port against a fresh test database and the
// test Redis. Tests talk to it over HTTP like any client.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createDb, type Db } from '@onair/db';
import { createTestDatabase, testRedisUrl, type TestDatabase } from '@onair/embedded/test-services';
import { createLogger } from '@onair/runtime';
import { createApp } from '../../src/app.ts';
import { compose } from '../../src/compose.ts';
import { loadConfig } from '../../src/config.ts';

export interface TestApi {
  url: string;
  db: Db;
  redis: Redis;
  close(): Promise<void>;
}

export async function startTestApi(env: NodeJS.ProcessEnv = {}): Promise<TestApi> {
  const database: TestDatabase = await createTestDatabase();
  // Listen first: the api's PUBLIC_URL (magic links, OAuth redirect URIs) is its real address.
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    LOG_LEVEL: 'silent',
    PUBLIC_URL: url,
    // Test files share one Redis and all call from 127.0.0.1: each api gets its own rate-limit buckets.
    AUTH_RATE_LIMIT_PREFIX: `test-rate:${randomBytes(6).toString('hex')}`,
    ...env,
  });
  const db = createDb(database.url);
  const redis = new Redis(config.REDIS_URL);
  const app = createApp(compose({ config, db, redis, logger: createLogger('api-test', 'silent') }));
  server.on('request', app);
  return {
    url,
    db,
    redis,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
      await db.$disconnect();
      await database.drop();
    },
  };
}
