import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/client.ts';

export type Db = PrismaClient;

/** The one way OnAir opens its database: Prisma Client over the node-postgres driver adapter. */
export function createDb(databaseUrl: string, options: { maxConnections?: number } = {}): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: options.maxConnections ?? 10 });
  return new PrismaClient({ adapter });
}
