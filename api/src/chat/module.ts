import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { PlatformAccounts } from '../destinations/platform-accounts.ts';
import type { EventsStore } from '../events/events-store.ts';
import type { Platform } from '../module.ts';
import { ChatOwnership } from '../leases/chat-ownership.ts';
import { chatKeys } from './keys.ts';
import { ChatService } from './chat-service.ts';
import { ChatStore } from './chat-store.ts';
import { startChatConnectors, type ChatConnectors } from './index.ts';

export interface ChatServices {
  /** This replica's hold on the channels whose connectors it runs; sends are routed to the holder. */
  chatOwnership: ChatOwnership;
  chatStore: ChatStore;
  /** The studio-facing chat (read, send, moderate), served over /ws. */
  chat: ChatService;
}

/** Platform chat (Twitch, YouTube, Facebook) in the studio. */
export const chatModule = {
  name: 'chat',
  build: (deps: Platform): ChatServices => {
    const replicaId = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
    const chatOwnership = new ChatOwnership(deps.redis, replicaId, deps.config.CHAT_OWNER_LEASE_MS, chatKeys.owner);
    const chatStore = new ChatStore(deps.db, deps.redis, deps.logger);
    return { chatOwnership, chatStore, chat: new ChatService({ db: deps.db, redis: deps.redis, store: chatStore, ownership: chatOwnership, logger: deps.logger }) };
  },
  sockets: {
    // Every replica serving /ws also takes part in running the platform chat connectors.
    connectors: {
      name: 'chat connectors',
      attach: (_server: unknown, c: Platform & ChatServices & { platformAccounts: PlatformAccounts; eventsStore: EventsStore }): Promise<ChatConnectors> => startChatConnectors(c),
    },
  },
};
