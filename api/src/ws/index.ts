import type { Server } from 'node:http';
import type { AppDeps } from '../app.ts';
import { resolveSessionUserId, type Accounts } from '../auth/index.ts';
import { ProjectAccess } from '../access/project-access.ts';
import { SceneService } from '../scenes/scene-service.ts';
import { SessionService } from '../sessions/session-service.ts';
import { RoomSignaling } from '../signaling/room-signaling.ts';
import { StudioSockets } from './studio-sockets.ts';
import { startChat } from '../chat/index.ts';
import { startEvents } from '../events/index.ts';
import { startChatbots } from '../chatbot/index.ts';
import { createGuestService, guestResolverOf } from '../guests/index.ts';
import { createOverlayService, OverlayFeed, ownPageUrls } from '../overlays/index.ts';
import { createUploadStore, uploadLimits, UploadService } from '../uploads/index.ts';

/** Serves `/ws` on the api's HTTP server; close it before the server on shutdown. */
export async function attachStudioSockets(server: Server, deps: AppDeps & { accounts: Accounts }): Promise<{ close(): Promise<void> }> {
  const subscriber = deps.redis.duplicate();
  subscriber.on('error', (err: Error) => deps.logger.warn({ err: err.message }, 'redis subscriber connection error'));
  const signalingSubscriber = deps.redis.duplicate();
  signalingSubscriber.on('error', (err: Error) => deps.logger.warn({ err: err.message }, 'redis signaling subscriber connection error'));
  const ownSessions = deps.sessions ? undefined : new SessionService(deps.db, deps.redis, undefined, deps.logger);
  const access = new ProjectAccess(deps.db, deps.logger);
  const guests = deps.guests ?? createGuestService(deps);
  const room = new RoomSignaling({ access, db: deps.db, redis: deps.redis, subscriber: signalingSubscriber, sessions: deps.sessions ?? ownSessions!, logger: deps.logger, iceServers: deps.config.WEBRTC_ICE_SERVERS });
  // Every replica serving /ws also takes part in running the platform chat connectors.
  // The events connectors (Twitch EventSub) are elected the same way; YouTube's events come with its chat.
  const events = startEvents({ config: deps.config, db: deps.db, redis: deps.redis, logger: deps.logger });
  const chat = await startChat({ config: deps.config, db: deps.db, redis: deps.redis, logger: deps.logger, events: events.store });
  // The chatbots (partner spec §2) are elected the same way, one owner per channel.
  const chatbots = await startChatbots({ config: deps.config, db: deps.db, redis: deps.redis, logger: deps.logger });
  const sockets = new StudioSockets({
    chat: chat.service,
    db: deps.db,
    subscriber,
    scenes: new SceneService(deps.db, deps.redis, deps.logger, access, undefined, ownPageUrls(deps.config).trusted),
    access,
    resolveSession: (req) => resolveSessionUserId(deps.accounts.auth, req),
    logger: deps.logger,
    publicUrl: deps.config.PUBLIC_URL,
    room,
    guests: { service: guests, resolve: guestResolverOf(guests), redis: deps.redis },
    limits: {
      maxMessageBytes: deps.config.WS_MAX_MESSAGE_BYTES,
      messagesPerSecond: deps.config.WS_MESSAGES_PER_SECOND,
      burst: deps.config.WS_MESSAGE_BURST,
      maxSocketsPerUser: deps.config.WS_MAX_SOCKETS_PER_USER,
    },
  });
  sockets.attach(server);
  // Overlay pages' live feeds (`/overlay/o/{id}/ws`), authenticated by the overlay's key.
  const uploads = new UploadService(deps.db, deps.uploadStore ?? createUploadStore(deps.config), uploadLimits(deps.config), deps.logger);
  const overlayFeed = new OverlayFeed({ db: deps.db, redis: deps.redis, logger: deps.logger, overlays: createOverlayService({ ...deps, uploads }) });
  overlayFeed.attach(server);
  return {
    close: async () => {
      await sockets.close();
      await overlayFeed.close();
      await events.close();
      await chatbots.close();
      await chat.close();
      await room.close();
      await ownSessions?.closeQueue();
      subscriber.disconnect();
      signalingSubscriber.disconnect();
    },
  };
}
