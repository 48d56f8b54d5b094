import { alertEndpoints, channelEventEndpoints, eventEndpoints } from '@onair/protocol';
import type { PlatformAccounts } from '../destinations/platform-accounts.ts';
import type { SessionResolver } from '../http/auth-context.ts';
import type { LeasesServices } from '../leases/module.ts';
import { middleware, type Platform, type Running } from '../module.ts';
import type { OwnPageUrls } from '../access/own-page-urls.ts';
import type { UploadsServices } from '../uploads/module.ts';
import { alertsOverlayRoutes } from './alerts-overlay.ts';
import { AlertsService } from './alerts-service.ts';
import { EventsStore } from './events-store.ts';
import { startEventsConnectors } from './index.ts';
import { channelEventRoutes, eventRoutes } from './routes.ts';
import { eventsStudioSocket } from './studio-socket.ts';

export interface EventsServices {
  alerts: AlertsService;
  /** The one store every source of events writes through (platform connectors, chat, tips). */
  eventsStore: EventsStore;
}

/** The events feed (follows, subs, raids, Super Chats, tips…) and the alerts they play. */
export const eventsModule = {
  name: 'events',
  build: (deps: Platform & UploadsServices & { ownPages: OwnPageUrls }): EventsServices => {
    const alerts = new AlertsService({
      db: deps.db,
      redis: deps.redis,
      logger: deps.logger,
      publicUrl: deps.config.PUBLIC_URL,
      secret: deps.config.AUTH_SECRET,
      signForStudio: deps.ownPages.sign,
    });
    // An alert's uploaded sound is kept while an alert plays it.
    deps.uploads.guardUse(alerts.soundInUse);
    return { alerts, eventsStore: new EventsStore(deps.db, deps.redis, deps.logger, alerts) };
  },
  /** `/ws`: new events of the feed. */
  studioSocket: { name: 'events', build: (c: Platform) => eventsStudioSocket(c) },
  http: {
    /** A partner area: the channel's feed, behind the partner network's sign-in and channel access. */
    channelFeed: { endpoints: channelEventEndpoints, mount: (c: Platform) => channelEventRoutes({ db: c.db }) },
    routes: {
      endpoints: [...eventEndpoints, ...alertEndpoints],
      mount: (c: Platform & EventsServices & { resolveSession: SessionResolver }) =>
        eventRoutes({ db: c.db, resolveSession: c.resolveSession, alerts: c.alerts }),
    },
    /** The alerts overlay page, opened by the render worker with the project's overlay key (no session). */
    alertsOverlay: middleware((c: Platform & EventsServices & UploadsServices) =>
      alertsOverlayRoutes({ redis: c.redis, alerts: c.alerts, uploads: c.uploads, logger: c.logger }),
    ),
  },
  sockets: {
    // The events connectors (Twitch EventSub) are elected as the chat's are; YouTube's events come with its chat.
    connectors: {
      name: 'events connectors',
      attach: (_server: unknown, c: Platform & EventsServices & LeasesServices & { platformAccounts: PlatformAccounts }): Running => startEventsConnectors(c),
    },
  },
};
