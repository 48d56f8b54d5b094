import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { ApiConfig } from '../config.ts';
import { createDestinations } from '../destinations/index.ts';
import { ChatOwnership } from './chat-ownership.ts';
import { ChatService } from './chat-service.ts';
import { ChatStore } from './chat-store.ts';
import { ChatSupervisor } from './chat-supervisor.ts';
import type { EventsStore } from '../events/events-store.ts';

export interface Chat {
  service: ChatService;
  /** Null when this replica runs no connectors (CHAT_CONNECTORS=false). */
  supervisor: ChatSupervisor | null;
  close(): Promise<void>;
}

/**
 * The platform chat of one api replica: the studio-facing service, and (unless switched off) the
 * supervisor that takes part in electing connector owners and runs the connectors it owns.
 */
export async function startChat(deps: { config: ApiConfig; db: Db; redis: Redis; logger: Logger; events?: EventsStore }): Promise<Chat> {
  const { config, db, redis, logger } = deps;
  const replicaId = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const ownership = new ChatOwnership(redis, replicaId, config.CHAT_OWNER_LEASE_MS);
  const store = new ChatStore(db, redis, logger);
  const service = new ChatService({ db, redis, store, ownership, logger });
  let supervisor: ChatSupervisor | null = null;
  let subscriber: Redis | null = null;
  if (config.CHAT_CONNECTORS) {
    // Only its token methods are used here; project access is checked where studios call in.
    const { accounts } = createDestinations({ config, db, redis, logger, assertProjectAccess: async () => undefined, sessions: null });
    subscriber = redis.duplicate();
    subscriber.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis chat subscriber connection error'));
    supervisor = new ChatSupervisor({ config, db, redis, subscriber, logger, accounts, store, service, ownership, ...(deps.events ? { events: deps.events } : {}) });
    await supervisor.start().catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'chat connectors could not start'));
  }
  return {
    service,
    supervisor,
    close: async () => {
      await supervisor?.close();
      await store.settle().catch(() => undefined);
      subscriber?.disconnect();
    },
  };
}

export { ChatService } from './chat-service.ts';
