// Starts the real api app (createApp) on an ephemeral port against a fresh test database and the
// test Redis. Tests talk to it over HTTP like any client.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createDb, type Db } from '@onair/db';
import { createTestDatabase, testRedisUrl, type TestDatabase } from '@onair/embedded/test-services';
import { createLogger } from '@onair/runtime';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';

export interface TestApi {
  url: string;
  db: Db;
  redis: Redis;
  close(): Promise<void>;
}

export async function startTestApi(env: NodeJS.ProcessEnv = {}): Promise<TestApi> {
  const database: TestDatabase = await createTestDatabase();
  const config = loadConfig({ DATABASE_URL: database.url, REDIS_URL: testRedisUrl(), LOG_LEVEL: 'silent', ...env });
  const db = createDb(database.url);
  const redis = new Redis(config.REDIS_URL);
  const app = createApp({ config, db, redis, logger: createLogger('api-test', 'silent') });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
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
