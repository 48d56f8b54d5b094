import type { Db } from '@onair/db';
import type { ProjectAccess } from '../access/project-access.ts';
import type { Platform } from '../module.ts';
import type { SessionService } from '../sessions/session-service.ts';
import type { StudioSocketFeature } from '../ws/studio-feature.ts';
import { RoomSignaling } from './room-signaling.ts';

/**
 * `/ws` of WebRTC signaling (`room.*`): joins, offers and candidates relayed to the session's
 * media worker; a socket that ends leaves the room (its media stops). Listens on a Redis
 * connection of its own for the workers' answers.
 */
export function signalingStudioSocket(deps: Platform & { db: Db; access: ProjectAccess; sessions: SessionService }): StudioSocketFeature {
  const subscriber = deps.redis.duplicate();
  subscriber.on('error', (err: Error) => deps.logger.warn({ err: err.message }, 'redis signaling subscriber connection error'));
  const room = new RoomSignaling({
    access: deps.access,
    db: deps.db,
    redis: deps.redis,
    subscriber,
    sessions: deps.sessions,
    logger: deps.logger,
    iceServers: deps.config.WEBRTC_ICE_SERVERS,
  });
  const relay = (client: Parameters<RoomSignaling['handle']>[0], message: Parameters<RoomSignaling['handle']>[1]) => room.handle(client, message);
  return {
    name: 'signaling',
    handlers: { 'room.join': relay, 'room.offer': relay, 'room.ice': relay, 'room.leave': relay },
    disconnected: (client) => {
      room.disconnected(client).catch((err: unknown) => deps.logger.warn({ err, userId: client.user.id }, 'room not left'));
    },
    close: async () => {
      await room.close();
      subscriber.disconnect();
    },
  };
}
