import { creatorSiteEndpoints } from '@onair/protocol';
import type { ChannelAccess } from '../access/channel-access.ts';
import type { SessionResolver } from '../http/auth-context.ts';
import { middleware, type Platform } from '../module.ts';
import type { TipsService } from '../money/tips-service.ts';
import type { UploadService } from '../uploads/upload-service.ts';
import { CreatorSiteService } from './creator-site-service.ts';
import { creatorSiteRoutes, creatorSiteUploadRoutes } from './routes.ts';
import { creatorSitePageRoutes } from './site-page.ts';

export interface CreatorSiteServices {
  sites: CreatorSiteService;
}

/** The creator site: a public page per channel, with its tip button. */
export const creatorSiteModule = {
  name: 'creator-site',
  build: (deps: Platform & { uploads: UploadService; money: { tips: TipsService } }): CreatorSiteServices => ({
    sites: new CreatorSiteService({
      db: deps.db,
      publicUrl: deps.config.PUBLIC_URL,
      uploads: deps.uploads,
      tips: deps.money.tips,
      ...(deps.now ? { now: deps.now } : {}),
    }),
  }),
  http: {
    /** Before the JSON parser: the picture is the body. */
    upload: {
      // Its contract is listed with the site routes below (the OpenAPI document reads the area as one).
      endpoints: [],
      mount: (c: Platform & { uploads: UploadService; resolveSession: SessionResolver; channelAccess: ChannelAccess }) =>
        creatorSiteUploadRoutes({ db: c.db, uploads: c.uploads, resolveSession: c.resolveSession, channelAccess: c.channelAccess }),
    },
    /** The sites themselves (visitors): public, no session. */
    pages: middleware((c: CreatorSiteServices) => creatorSitePageRoutes(c.sites)),
    /** A partner area: mounted behind the partner network's sign-in and channel access. */
    routes: { endpoints: creatorSiteEndpoints, mount: (c: CreatorSiteServices) => creatorSiteRoutes(c.sites) },
  },
};
