import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** The folder holding Prisma's migration folders (`<timestamp>_<name>/migration.sql`). */
export const migrationsDir = fileURLToPath(new URL('../migrations', import.meta.url));

export interface AppliedMigration {
  name: string;
  checksum: string;
}

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

/** Any constant works; it only has to be the same for every OnAir process that migrates. */
const MIGRATION_LOCK_KEY = 7_274_101;

// The exact table `prisma migrate deploy` creates, so that a database migrated by OnAir is
// recognised by Prisma's own tooling in production and vice versa.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export async function listMigrations(dir = migrationsDir): Promise<{ name: string; sql: string; checksum: string }[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
      // Prisma's checksum is the SHA-256 of the script, hex encoded.
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/**
 * Applies every migration folder that is not yet recorded in `_prisma_migrations`, in name order,
 * each in its own transaction, under an advisory lock so that concurrent starters serialise.
 * A migration already applied with a different checksum, or one left half-applied, stops the start:
 * silently continuing on a drifted schema would corrupt data later.
 */
export async function applyMigrations(databaseUrl: string, dir = migrationsDir): Promise<MigrationResult> {
  const migrations = await listMigrations(dir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
    );
    const recorded = new Map(rows.map((r) => [r.migration_name, r]));
    const result: MigrationResult = { applied: [], alreadyApplied: [] };

    for (const migration of migrations) {
      const existing = recorded.get(migration.name);
      if (existing) {
        if (existing.finished_at === null) {
          throw new MigrationError(`Migration ${migration.name} was started but never finished; resolve it before starting.`);
        }
        if (existing.checksum !== migration.checksum) {
          throw new MigrationError(`Migration ${migration.name} was modified after it was applied (checksum mismatch).`);
        }
        result.alreadyApplied.push(migration.name);
        continue;
      }
      const id = randomUUID();
      await client.query('BEGIN');
      try {
        await client.query('INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())', [
          id,
          migration.checksum,
          migration.name,
        ]);
        await client.query(migration.sql);
        await client.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new MigrationError(`Migration ${migration.name} failed: ${(err as Error).message}`);
      }
      result.applied.push(migration.name);
    }
    return result;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}
