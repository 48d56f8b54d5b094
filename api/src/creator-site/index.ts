export { CreatorSiteService } from './creator-site-service.ts';
export { creatorSiteRoutes, creatorSiteUploadRoutes } from './routes.ts';
export { creatorSitePageRoutes } from './site-page.ts';
