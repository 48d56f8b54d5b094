export { createDb, type Db } from './client.ts';
export { applyMigrations, listMigrations, migrationsDir, MigrationError, type MigrationResult } from './migrate.ts';
export * from '../generated/client.ts';
