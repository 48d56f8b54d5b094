// `node --import tsx prisma/src/migrate-cli.ts`: apply pending migrations to DATABASE_URL and exit.
// Production runs it once per release (the Kubernetes migration Job); the embedded stack calls
// applyMigrations itself at start.
import { applyMigrations } from './migrate.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is required');
  process.exit(2);
}
const result = await applyMigrations(url);
process.stdout.write(
  `migrations: ${result.applied.length} applied (${result.applied.join(', ') || 'none'}), ${result.alreadyApplied.length} already in place\n`,
);
