import type { Redis } from 'ioredis';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { ApiConfig } from '../config.ts';
import type { PlatformAccounts } from '../destinations/platform-accounts.ts';
import type { EventsStore } from '../events/events-store.ts';
import type { RedisLease } from '../leases/lease.ts';
import type { ChatService } from './chat-service.ts';
import type { ChatStore } from './chat-store.ts';
import { ChatSupervisor } from './chat-supervisor.ts';

export interface ChatConnectors {
  /** Null when this replica runs no connectors (CHAT_CONNECTORS=false). */
  supervisor: ChatSupervisor | null;
  close(): Promise<void>;
}

/**
 * The platform chat connectors of one api replica: unless switched off, the supervisor that takes
 * part in electing connector owners and runs the connectors it owns.
 */
export async function startChatConnectors(deps: {
  config: ApiConfig;
  db: Db;
  redis: Redis;
  logger: Logger;
  platformAccounts: PlatformAccounts;
  chatStore: ChatStore;
  chat: ChatService;
  chatLease: RedisLease;
  eventsStore: EventsStore;
}): Promise<ChatConnectors> {
  const { config, db, redis, logger } = deps;
  let supervisor: ChatSupervisor | null = null;
  let subscriber: Redis | null = null;
  if (config.CHAT_CONNECTORS) {
    subscriber = redis.duplicate();
    subscriber.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis chat subscriber connection error'));
    supervisor = new ChatSupervisor({
      config,
      db,
      redis,
      subscriber,
      logger,
      accounts: deps.platformAccounts,
      store: deps.chatStore,
      service: deps.chat,
      lease: deps.chatLease,
      events: deps.eventsStore,
    });
    await supervisor.start().catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'chat connectors could not start'));
  }
  return {
    supervisor,
    close: async () => {
      await supervisor?.close();
      await deps.chatStore.settle().catch(() => undefined);
      subscriber?.disconnect();
    },
  };
}

export { ChatService } from './chat-service.ts';
