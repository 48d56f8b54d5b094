// The drift test: a database built ONLY from the migration files must hold every model of
// schema.prisma, every field included. A migration that is missing, or a schema change without
// its migration, makes a create or a read fail here. It lives here, not in @onair/db, because it needs
// a PostgreSQL server and this package starts them (@onair/db depends on nothing of the project).
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, createDb, listMigrations, migrationsDir, MigrationError, Prisma, type Db } from '@onair/db';
import setupServices, { createTestDatabase, type TestDatabase } from '../src/test-services.ts';
import { fixtures } from './db-fixtures.ts';

type Delegate = {
  create(args: { data: unknown }): Promise<unknown>;
  findUniqueOrThrow(args: { where: Record<string, unknown> }): Promise<Record<string, unknown>>;
};

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const scalarFields = (model: string) => Object.values((Prisma as unknown as Record<string, Record<string, string>>)[`${model}ScalarFieldEnum`] ?? {});

// The services the other workspaces get from their globalSetup; this workspace's tests start their own.
let stopServices: (() => Promise<void>) | undefined;
beforeAll(async () => {
  stopServices = await setupServices();
}, 60_000);
afterAll(async () => {
  await stopServices?.();
});

describe('schema and migrations', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
    const result = await applyMigrations(database.url);
    expect(result.applied.length).toBe((await listMigrations()).length);
    db = createDb(database.url);
  });

  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  it('has a fixture for every model and every scalar field of the schema', () => {
    const models = Object.values(Prisma.ModelName);
    expect(Object.keys(fixtures).sort()).toEqual(models.map(lowerFirst).sort());
    for (const model of models) {
      const fixture = fixtures[lowerFirst(model) as keyof typeof fixtures];
      expect(Object.keys(fixture).sort(), `fields of ${model}`).toEqual(scalarFields(model).sort());
    }
  });

  /** The unique key of a fixture's row: `id`, or the key of the few models that have none. */
  const keyOf = (model: string, data: Record<string, unknown>): Record<string, unknown> => {
    if (model === 'chatbotSettings') return { channelId: data.channelId };
    if (model === 'chatbotViewer') return { channelId_platformUserId: { channelId: data.channelId, platformUserId: data.platformUserId } };
    if (model === 'chatbotRaffleEntry') return { raffleId_platformUserId: { raffleId: data.raffleId, platformUserId: data.platformUserId } };
    if (model === 'chatbotPointReward') return { channelId_key: { channelId: data.channelId, key: data.key } };
    return { id: data.id };
  };

  it('round-trips every model through Prisma Client', async () => {
    for (const [name, data] of Object.entries(fixtures)) {
      const delegate = (db as unknown as Record<string, Delegate>)[name]!;
      await delegate.create({ data });
      const row = await delegate.findUniqueOrThrow({ where: keyOf(name, data) });
      expect(row, name).toEqual(data);
    }
  });

  it('records migrations as Prisma does and applies each only once', async () => {
    const again = await applyMigrations(database.url);
    expect(again.applied).toEqual([]);
    const rows = await db.$queryRaw<{ migration_name: string; checksum: string; applied_steps_count: number; finished_at: Date | null }[]>`
      SELECT migration_name, checksum, applied_steps_count, finished_at FROM "_prisma_migrations" ORDER BY migration_name`;
    const files = await listMigrations();
    expect(rows.map((r) => [r.migration_name, r.checksum, r.applied_steps_count])).toEqual(files.map((f) => [f.name, f.checksum, 1]));
    expect(rows.every((r) => r.finished_at instanceof Date)).toBe(true);
  });

  it('refuses to start on a migration edited after it was applied', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'onair-migrations-'));
    try {
      await cp(migrationsDir, dir, { recursive: true });
      const [first] = await listMigrations(dir);
      await writeFile(join(dir, first!.name, 'migration.sql'), `${first!.sql}\n-- edited\n`);
      await expect(applyMigrations(database.url, dir)).rejects.toBeInstanceOf(MigrationError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails the round trip when a migration is missing', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'onair-no-migrations-'));
    const bare = await createTestDatabase({ migrate: false });
    const bareDb = createDb(bare.url);
    try {
      await applyMigrations(bare.url, empty);
      await expect(bareDb.user.create({ data: { ...fixtures.user, labels: [...fixtures.user.labels] } })).rejects.toThrow();
    } finally {
      await bareDb.$disconnect();
      await bare.drop();
      await rm(empty, { recursive: true, force: true });
    }
  });
});
