import { chatOnScreenEndpoints } from '@onair/protocol';
import type { OwnPageUrls } from '../access/own-page-urls.ts';
import type { PlatformAccounts } from '../destinations/platform-accounts.ts';
import type { SessionResolver } from '../http/auth-context.ts';
import type { EventsStore } from '../events/events-store.ts';
import { middleware, type Platform } from '../module.ts';
import type { RedisLease } from '../leases/lease.ts';
import type { LeasesServices } from '../leases/module.ts';
import { chatKeys } from './keys.ts';
import { ChatService } from './chat-service.ts';
import { ChatStore } from './chat-store.ts';
import { startChatConnectors, type ChatConnectors } from './index.ts';
import { chatOnScreenOverlayRoutes } from './on-screen-overlay.ts';
import { chatOnScreenRoutes } from './on-screen-routes.ts';
import { ChatOnScreenService } from './on-screen-service.ts';
import { chatStudioSocket } from './studio-socket.ts';

export interface ChatServices {
  /** This replica's lease on each chat whose connector it runs; sends are routed to the holder. */
  chatLease: RedisLease;
  chatStore: ChatStore;
  /** The studio-facing chat (read, send, moderate), served over /ws. */
  chat: ChatService;
  /** The chat message shown in the program (chat on screen). */
  chatOnScreen: ChatOnScreenService;
}

/** Platform chat (Twitch, YouTube, Facebook) in the studio. */
export const chatModule = {
  name: 'chat',
  build: (deps: Platform & LeasesServices & { ownPages: OwnPageUrls }): ChatServices => {
    const chatLease = deps.connectorLeases(chatKeys.owner);
    const chatStore = new ChatStore(deps.db, deps.redis, deps.logger);
    return {
      chatLease,
      chatStore,
      chat: new ChatService({ db: deps.db, redis: deps.redis, store: chatStore, lease: chatLease, logger: deps.logger }),
      chatOnScreen: new ChatOnScreenService({
        db: deps.db,
        redis: deps.redis,
        logger: deps.logger,
        publicUrl: deps.config.PUBLIC_URL,
        secret: deps.config.AUTH_SECRET,
        signForStudio: deps.ownPages.sign,
      }),
    };
  },
  http: {
    /** Chat on screen: which message the program shows (read by the project, changed by those who edit the show). */
    onScreen: {
      endpoints: chatOnScreenEndpoints,
      mount: (c: Platform & ChatServices & { resolveSession: SessionResolver }) =>
        chatOnScreenRoutes({ db: c.db, resolveSession: c.resolveSession, onScreen: c.chatOnScreen }),
    },
    /** The chat on screen overlay page, opened by the render worker with the project's overlay key (no session). */
    onScreenOverlay: middleware((c: Platform & ChatServices) => chatOnScreenOverlayRoutes({ redis: c.redis, onScreen: c.chatOnScreen, logger: c.logger })),
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
