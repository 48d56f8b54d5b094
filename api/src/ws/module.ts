import type { Server } from 'node:http';
import type { ProjectAccess } from '../access/project-access.ts';
import type { GuestResolver, SessionResolver } from '../http/auth-context.ts';
import type { Platform, Running, SocketPart } from '../module.ts';
import type { StudioSocketPart } from './studio-feature.ts';
import { StudioSockets } from './studio-sockets.ts';

type StudioSocketsNeeds = Platform & { access: ProjectAccess; guestResolver: GuestResolver; resolveSession: SessionResolver };

/**
 * The studio's `/ws`, one socket per open studio: the transport (sign-in, limits, the Redis
 * subscriptions of the projects its sockets watch) with the features' parts — their message
 * handlers and feeds — in the order given.
 */
export const studioSocketsModule = {
  name: 'studio sockets',
  sockets: {
    studio: <D>(features: readonly StudioSocketPart<D>[], options: { otherPath?: (path: string) => boolean } = {}): SocketPart<D & StudioSocketsNeeds> => ({
      name: 'studio sockets',
      attach: (server: Server, c: D & StudioSocketsNeeds): Running => {
        const subscriber = c.redis.duplicate();
        subscriber.on('error', (err: Error) => c.logger.warn({ err: err.message }, 'redis subscriber connection error'));
        const sockets = new StudioSockets({
          db: c.db,
          subscriber,
          access: c.access,
          resolveSession: c.resolveSession,
          resolveGuest: c.guestResolver,
          ...(options.otherPath ? { otherPath: options.otherPath } : {}),
          logger: c.logger,
          publicUrl: c.config.PUBLIC_URL,
          features: features.map((part) => part.build(c)),
          limits: {
            maxMessageBytes: c.config.WS_MAX_MESSAGE_BYTES,
            messagesPerSecond: c.config.WS_MESSAGES_PER_SECOND,
            burst: c.config.WS_MESSAGE_BURST,
            maxSocketsPerUser: c.config.WS_MAX_SOCKETS_PER_USER,
          },
        });
        sockets.attach(server);
        return {
          close: async () => {
            await sockets.close();
            subscriber.disconnect();
          },
        };
      },
    }),
  },
};
