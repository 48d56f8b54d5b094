import type { Redis } from 'ioredis';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { ApiConfig } from '../config.ts';
import type { UploadService } from '../uploads/index.ts';
import { OverlayService } from './overlay-service.ts';
import { ownPageUrls } from './own-page-urls.ts';

/** The overlays of the partner network: one service per process, shared by the routes and the live feed. */
export function createOverlayService(deps: { config: ApiConfig; db: Db; redis: Redis; logger: Logger; uploads: UploadService }): OverlayService {
  return new OverlayService({ db: deps.db, redis: deps.redis, logger: deps.logger, publicUrl: deps.config.PUBLIC_URL, secret: deps.config.AUTH_SECRET, ownPages: ownPageUrls(deps.config), uploads: deps.uploads });
}

export { OverlayService } from './overlay-service.ts';
export { OverlayFeed, isOverlayFeedPath } from './overlay-feed.ts';
export { overlayRoutes, overlayUploadRoutes } from './routes.ts';
export { overlayPageRoutes } from './overlay-page.ts';
export { ownPageUrls, ownPageSecret } from './own-page-urls.ts';
