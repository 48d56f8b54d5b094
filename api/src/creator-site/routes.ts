import { Router } from 'express';
import { getCreatorSiteEndpoint, updateCreatorSiteEndpoint, uploadSiteImageEndpoint } from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, type SessionResolver } from '../http/auth-context.ts';
import { queryTextRule } from '../http/body.ts';
import { mount, Reply } from '../http/mount.ts';
import { provideChannelAccess, type ChannelAccess } from '../access/channel-access.ts';
import type { UploadService } from '../uploads/index.ts';
import type { CreatorSiteService } from './creator-site-service.ts';

/** Editing the creator site; mount() lets through only the owner and collaborators with the Creator Site group. */
export function creatorSiteRoutes(sites: CreatorSiteService): Router {
  const router = Router();
  mount(router, getCreatorSiteEndpoint, async ({ params }) => sites.get(params.channelId));
  mount(router, updateCreatorSiteEndpoint, async ({ params, body }) => sites.update(params.channelId, body));
  return router;
}

/**
 * The site's pictures, through the uploads store (issue 19's checks: size from Content-Length,
 * type from the bytes, the owner's storage). Mounted before the api's JSON body parser: the body
 * is the file. Same access rule as editing the site (Creator Site group).
 */
export function creatorSiteUploadRoutes(deps: { db: Db; uploads: UploadService; resolveSession: SessionResolver; channelAccess: ChannelAccess }): Router {
  const router = Router();
  router.use(uploadSiteImageEndpoint.path, authenticate(deps.db, deps.resolveSession), provideChannelAccess(deps.channelAccess), queryTextRule());
  mount(router, uploadSiteImageEndpoint, async ({ params, query }, { req }) => {
    const length = req.headers['content-length'];
    const upload = await deps.uploads.createForChannel(params.channelId, {
      body: req,
      declaredBytes: length === undefined ? undefined : Number(length),
      purpose: 'site',
      name: query.name,
    });
    return new Reply(201, upload);
  });
  return router;
}
