import { Router, type RequestHandler } from 'express';
import type { Db } from '@onair/db';
import { provideChannelAccess, type ChannelAccess } from '../access/channel-access.ts';
import { authenticate, type SessionResolver } from '../http/auth-context.ts';
import type { ApplicationService } from './applications/application-service.ts';
import { applicationRoutes } from './applications/routes.ts';
import type { AccountService } from './account/account-service.ts';
import { accountRoutes } from './account/routes.ts';
import type { ChannelService } from './channels/channel-service.ts';
import { channelRoutes } from './channels/routes.ts';
import type { CollaboratorService } from './collaborators/collaborator-service.ts';
import { collaboratorRoutes } from './collaborators/routes.ts';
import type { DataExportService } from './data-exports/export-service.ts';
import { dataExportRoutes } from './data-exports/routes.ts';

export interface PartnerRoutesDeps {
  db: Db;
  resolveSession: SessionResolver;
  channelAccess: ChannelAccess;
  partnerAccounts: AccountService;
  collaborators: CollaboratorService;
  dataExports: DataExportService;
  applications: ApplicationService;
  channels: ChannelService;
  /** Partner areas with folders of their own (account deletion, chatbot, overlays, creator site): mounted behind the same sign-in and channel access. */
  areas: RequestHandler[];
}

/** The partner network's api (partner spec): one router, each capability one folder. */
export function partnerRoutes(deps: PartnerRoutesDeps): Router {
  const router = Router();
  router.use(['/api/v1/partner', '/api/v1/admin/applications'], authenticate(deps.db, deps.resolveSession), provideChannelAccess(deps.channelAccess));
  router.use(accountRoutes(deps.partnerAccounts));
  router.use(collaboratorRoutes(deps.collaborators));
  router.use(dataExportRoutes(deps.dataExports));
  router.use(applicationRoutes(deps.applications));
  router.use(channelRoutes(deps.channels, deps.collaborators));
  for (const area of deps.areas) router.use(area);
  return router;
}
