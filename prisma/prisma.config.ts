// Prisma CLI configuration. In production `prisma migrate deploy` reads DATABASE_URL from here;
// on machines where Prisma's schema engine cannot be downloaded, OnAir applies the same
// migration folders itself (src/migrate.ts) and records them exactly as Prisma would.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'schema.prisma',
  migrations: { path: 'migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/onair' },
});
