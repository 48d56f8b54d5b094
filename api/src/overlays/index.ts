export { OverlayService } from './overlay-service.ts';
export { OverlayFeed, isOverlayFeedPath } from './overlay-feed.ts';
export { overlayRoutes, overlayUploadRoutes } from './routes.ts';
export { overlayPageRoutes } from './overlay-page.ts';
export { ownPageUrls, ownPageSecret } from '../access/own-page-urls.ts';
