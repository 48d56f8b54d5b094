// What the api serves on its HTTP server besides HTTP: `/ws` and the overlay feeds, with the live
// connectors that feed them (every replica serving /ws takes part in electing their owners).
import type { Server } from 'node:http';
import { billingModule } from './billing/module.ts';
import { chatModule } from './chat/module.ts';
import { chatbotModule } from './chatbot/module.ts';
import type { Composition } from './compose.ts';
import { destinationsModule } from './destinations/module.ts';
import { eventsModule } from './events/module.ts';
import { guestsModule } from './guests/module.ts';
import type { Running, SocketPart } from './module.ts';
import { isOverlayFeedPath } from './overlays/overlay-feed.ts';
import { overlaysModule } from './overlays/module.ts';
import { partnerModule } from './partner/module.ts';
import { scenesModule } from './scenes/module.ts';
import { sessionsModule } from './sessions/module.ts';
import { signalingModule } from './signaling/module.ts';
import type { StudioSocketPart } from './ws/studio-feature.ts';
import { studioSocketsModule } from './ws/module.ts';

/** What each feature handles and forwards on the studio's `/ws`. */
const studioFeatures: readonly StudioSocketPart<Composition>[] = [
  scenesModule.studioSocket,
  signalingModule.studioSocket,
  chatModule.studioSocket,
  guestsModule.studioSocket,
  destinationsModule.studioSocket,
  sessionsModule.studioSocket,
  eventsModule.studioSocket,
  billingModule.studioSocket,
  partnerModule.studioSocket,
];

/** In start order: the chat connectors write the events a chat carries through the events store. */
const socketParts: readonly SocketPart<Composition>[] = [
  eventsModule.sockets.connectors,
  chatModule.sockets.connectors,
  chatbotModule.sockets.runners,
  // Overlay pages' feeds are the overlays' (below), on the same server.
  studioSocketsModule.sockets.studio(studioFeatures, { otherPath: isOverlayFeedPath }),
  overlaysModule.sockets.feed,
];

/** Serves `/ws` on the api's HTTP server; close it before the server on shutdown (it closes in reverse order). */
export async function attachStudioSockets(server: Server, c: Composition): Promise<Running & { close(): Promise<void> }> {
  const attached: Running[] = [];
  for (const part of socketParts) attached.push(await part.attach(server, c));
  return {
    close: async () => {
      for (const part of attached.reverse()) await part.close();
    },
  };
}
