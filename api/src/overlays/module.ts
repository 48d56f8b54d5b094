import type { Server } from 'node:http';
import { overlayEndpoints } from '@onair/protocol';
import type { ChannelAccess } from '../access/channel-access.ts';
import type { SessionResolver } from '../http/auth-context.ts';
import { middleware, type Platform, type Running } from '../module.ts';
import type { UploadService } from '../uploads/upload-service.ts';
import { OverlayFeed } from './overlay-feed.ts';
import { overlayPageRoutes } from './overlay-page.ts';
import { OverlayService } from './overlay-service.ts';
import type { OwnPageUrls } from '../access/own-page-urls.ts';
import { overlayRoutes, overlayUploadRoutes } from './routes.ts';

export interface OverlaysServices {
  /** One per process, shared by the routes, the pages and the live feed. */
  overlays: OverlayService;
}

/** The partner network's overlays: pages on a transparent background, for the studio's web-page sources and OBS. */
export const overlaysModule = {
  name: 'overlays',
  build: (deps: Platform & { uploads: UploadService; ownPages: OwnPageUrls }): OverlaysServices => ({
    overlays: new OverlayService({
      db: deps.db,
      redis: deps.redis,
      logger: deps.logger,
      publicUrl: deps.config.PUBLIC_URL,
      secret: deps.config.AUTH_SECRET,
      ownPages: deps.ownPages,
      uploads: deps.uploads,
    }),
  }),
  http: {
    /** Before the JSON parser: the picture is the body. */
    upload: {
      // Its contract is listed with the overlay routes below (the OpenAPI document reads the area as one).
      endpoints: [],
      mount: (c: Platform & { uploads: UploadService; resolveSession: SessionResolver; channelAccess: ChannelAccess }) =>
        overlayUploadRoutes({ db: c.db, uploads: c.uploads, resolveSession: c.resolveSession, channelAccess: c.channelAccess }),
    },
    /** The pages themselves (OBS, the render worker): public, authenticated by the overlay's key. */
    pages: middleware((c: OverlaysServices) => overlayPageRoutes(c.overlays)),
    /** A partner area: mounted behind the partner network's sign-in and channel access. */
    routes: { endpoints: overlayEndpoints, mount: (c: OverlaysServices) => overlayRoutes(c.overlays) },
  },
  sockets: {
    /** Overlay pages' live feeds (`/overlay/o/{id}/ws`), authenticated by the overlay's key. */
    feed: {
      name: 'overlay feeds',
      attach: (server: Server, c: Platform & OverlaysServices): Running => {
        const feed = new OverlayFeed({ db: c.db, redis: c.redis, logger: c.logger, overlays: c.overlays, publicUrl: c.config.PUBLIC_URL });
        feed.attach(server);
        return feed;
      },
    },
  },
};
