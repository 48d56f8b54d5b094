import type { Server } from 'node:http';
import type { ProjectAccess } from '../access/project-access.ts';
import type { ChatService } from '../chat/chat-service.ts';
import type { GuestResolver, SessionResolver } from '../http/auth-context.ts';
import type { GuestService } from '../guests/guest-service.ts';
import type { Platform, Running } from '../module.ts';
import type { SceneService } from '../scenes/scene-service.ts';
import type { SessionService } from '../sessions/session-service.ts';
import { RoomSignaling } from '../signaling/room-signaling.ts';
import { StudioSockets } from './studio-sockets.ts';

type StudioSocketsNeeds = Platform & {
  access: ProjectAccess;
  scenes: SceneService;
  sessions: SessionService;
  chat: ChatService;
  guests: GuestService;
  guestResolver: GuestResolver;
  resolveSession: SessionResolver;
};

/** The studio's `/ws`: scene patches, room signaling, chat and guest events, one socket per open studio. */
export const studioSocketsModule = {
  name: 'studio sockets',
  sockets: {
    studio: {
      name: 'studio sockets',
      attach: (server: Server, c: StudioSocketsNeeds): Running => {
        const subscriber = c.redis.duplicate();
        subscriber.on('error', (err: Error) => c.logger.warn({ err: err.message }, 'redis subscriber connection error'));
        const signalingSubscriber = c.redis.duplicate();
        signalingSubscriber.on('error', (err: Error) => c.logger.warn({ err: err.message }, 'redis signaling subscriber connection error'));
        const room = new RoomSignaling({ access: c.access, db: c.db, redis: c.redis, subscriber: signalingSubscriber, sessions: c.sessions, logger: c.logger, iceServers: c.config.WEBRTC_ICE_SERVERS });
        const sockets = new StudioSockets({
          chat: c.chat,
          db: c.db,
          subscriber,
          scenes: c.scenes,
          access: c.access,
          resolveSession: c.resolveSession,
          logger: c.logger,
          publicUrl: c.config.PUBLIC_URL,
          room,
          guests: { service: c.guests, resolve: c.guestResolver, redis: c.redis },
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
            await room.close();
            subscriber.disconnect();
            signalingSubscriber.disconnect();
          },
        };
      },
    },
  },
};
