import { Router } from 'express';
import { getCreatorSiteEndpoint, updateCreatorSiteEndpoint } from '@onair/protocol';
import { mount } from '../http/mount.ts';
import type { CreatorSiteService } from './creator-site-service.ts';

/** Editing the creator site; mount() lets through only the owner and collaborators with the Creator Site group. */
export function creatorSiteRoutes(sites: CreatorSiteService): Router {
  const router = Router();
  mount(router, getCreatorSiteEndpoint, async ({ params }) => sites.get(params.channelId));
  mount(router, updateCreatorSiteEndpoint, async ({ params, body }) => sites.update(params.channelId, body));
  return router;
}
