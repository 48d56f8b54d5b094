/**
 * Real services for tests. Used as a vitest `globalSetup`: starts one embedded PostgreSQL and one
 * redis-server per test run in a temporary folder (or uses TEST_DATABASE_ADMIN_URL / REDIS_URL when
 * the caller already runs them), and hands their addresses to the test files through the
 * environment. Each test file then makes its own database with `createTestDatabase`, so files never
 * see each other's rows.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { applyMigrations } from '@onair/db';
import { freePort } from './ports.ts';
import { startEmbeddedPostgres, type RunningService } from './postgres.ts';
import { startRedisServer } from './redis.ts';

export { StackClient } from './stack-client.ts';

const ADMIN_URL_VAR = 'TEST_DATABASE_ADMIN_URL';

export default async function setup(): Promise<() => Promise<void>> {
  const started: RunningService[] = [];
  let dir: string | undefined;
  if (!process.env[ADMIN_URL_VAR] || !process.env.REDIS_URL) {
    dir = await mkdtemp(join(tmpdir(), 'onair-test-'));
  }
  if (!process.env[ADMIN_URL_VAR]) {
    const pgService = await startEmbeddedPostgres(join(dir!, 'postgres'), await freePort());
    started.push(pgService);
    process.env[ADMIN_URL_VAR] = pgService.url;
  }
  if (!process.env.REDIS_URL) {
    const redis = await startRedisServer(join(dir!, 'redis'), await freePort());
    started.push(redis);
    process.env.REDIS_URL = redis.url;
  }
  return async () => {
    for (const s of started.reverse()) await s.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  };
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database on the test server, built from the migration files only. */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = process.env[ADMIN_URL_VAR];
  if (!adminUrl) throw new Error(`${ADMIN_URL_VAR} is not set: add @onair/embedded/test-services as the vitest globalSetup`);
  const name = `onair_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (options.migrate ?? true) await applyMigrations(url.toString());
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * A Redis database of its own (1–15, handed out in turn over the shared test server, emptied) for
 * a test file that runs worker processes: files run side by side, and workers sharing a database
 * would take each other's sessions. Picking one at random collided often enough to fail runs.
 */
export async function isolatedRedisUrl(): Promise<string> {
  const base = testRedisUrl();
  const shared = new Redis(base);
  try {
    const n = await shared.incr('onair:test:next-database');
    const url = `${base}/${1 + ((n - 1) % 15)}`;
    const own = new Redis(url);
    await own.flushdb();
    own.disconnect();
    return url;
  } finally {
    shared.disconnect();
  }
}

export function testRedisUrl(): string {
  const url = process.env.REDIS_URL;
  if (!url) throw new Error('REDIS_URL is not set: add @onair/embedded/test-services as the vitest globalSetup');
  return url;
}

/** Runs one statement on a test database (a test setting up rows the product writes elsewhere, such as a platform's stream key). */
export async function runSql(url: string, sql: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql, params);
  } finally {
    await client.end();
  }
}
