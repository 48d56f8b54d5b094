import type { PlatformAccounts } from '../destinations/platform-accounts.ts';
import type { EventsStore } from '../events/events-store.ts';
import type { Platform } from '../module.ts';
import type { RedisLease } from '../leases/lease.ts';
import type { LeasesServices } from '../leases/module.ts';
import { chatKeys } from './keys.ts';
import { ChatService } from './chat-service.ts';
import { ChatStore } from './chat-store.ts';
import { startChatConnectors, type ChatConnectors } from './index.ts';
import { chatStudioSocket } from './studio-socket.ts';

export interface ChatServices {
  /** This replica's lease on each chat whose connector it runs; sends are routed to the holder. */
  chatLease: RedisLease;
  chatStore: ChatStore;
  /** The studio-facing chat (read, send, moderate), served over /ws. */
  chat: ChatService;
}

/** Platform chat (Twitch, YouTube, Facebook) in the studio. */
export const chatModule = {
  name: 'chat',
  build: (deps: Platform & LeasesServices): ChatServices => {
    const chatLease = deps.connectorLeases(chatKeys.owner);
    const chatStore = new ChatStore(deps.db, deps.redis, deps.logger);
    return { chatLease, chatStore, chat: new ChatService({ db: deps.db, redis: deps.redis, store: chatStore, lease: chatLease, logger: deps.logger }) };
  },
  /** `/ws`: chat.send, chat.history.request and the chats' messages. */
  studioSocket: { name: 'platform chat', build: (c: Platform & { chat: ChatService }) => chatStudioSocket(c) },
  sockets: {
    // Every replica serving /ws also takes part in running the platform chat connectors.
    connectors: {
      name: 'chat connectors',
      attach: (_server: unknown, c: Platform & ChatServices & { platformAccounts: PlatformAccounts; eventsStore: EventsStore }): Promise<ChatConnectors> =>
        startChatConnectors(c),
    },
  },
};
