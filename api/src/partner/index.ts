import { Router } from 'express';
import type { Redis } from 'ioredis';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { authenticate, type SessionResolver } from '../http/auth-context.ts';
import { ChatbotService } from '../chatbot/chatbot-service.ts';
import { chatbotRoutes } from '../chatbot/routes.ts';
import type { Mailer } from '../mail/mailer.ts';
import { ChannelAccess, provideChannelAccess } from './access/channel-access.ts';
import { AccountDeletionService } from './account-deletion/deletion-service.ts';
import { accountDeletionRoutes } from './account-deletion/routes.ts';
import { ApplicationService, type ApplicationSettings } from './applications/application-service.ts';
import { applicationRoutes } from './applications/routes.ts';
import { AccountService } from './account/account-service.ts';
import { accountRoutes } from './account/routes.ts';
import { ChannelService } from './channels/channel-service.ts';
import { channelRoutes } from './channels/routes.ts';
import { CollaboratorService } from './collaborators/collaborator-service.ts';
import { collaboratorRoutes } from './collaborators/routes.ts';
import type { DataExportQueue } from './data-exports/export-job.ts';
import { DataExportService } from './data-exports/export-service.ts';
import { dataExportRoutes } from './data-exports/routes.ts';

export interface PartnerDeps {
  /** Partner areas with folders of their own (overlays, creator site): mounted behind the same sign-in and channel access. */
  areas?: Router[];
  db: Db;
  redis: Redis;
  mailer: Mailer;
  logger: Logger;
  publicUrl: string;
  resolveSession: SessionResolver;
  /** OAuth providers offered for sign-in (Settings › Integrations lists them). */
  offeredProviders: readonly string[];
  /** Days between deleting an account and erasing it (ACCOUNT_RETENTION_DAYS). */
  retentionDays: number;
  /** Ends what runs for an account at the platforms when it is deleted (its live broadcasts). */
  stopPlatformConnections?: (userId: string) => Promise<void>;
  /** Hours a ready data export can be downloaded (EXPORT_LINK_HOURS). */
  exportLinkHours: number;
  /** Where data exports are queued; a process that runs `work()` on the same queue builds them. */
  exportQueue: DataExportQueue;
  /** Third-party applications: short-code attempts, token lifetime, rate-limit keys. */
  applications: Omit<ApplicationSettings, 'publicUrl'>;
  /** The clock; tests advance it. */
  now?: () => Date;
}

/** The data-export service of the routes and of the worker that builds them. */
export function createDataExportService(deps: Pick<PartnerDeps, 'db' | 'logger' | 'mailer' | 'publicUrl' | 'exportLinkHours' | 'exportQueue' | 'now'>): DataExportService {
  return new DataExportService({
    db: deps.db,
    logger: deps.logger,
    mailer: deps.mailer,
    publicUrl: deps.publicUrl,
    linkHours: deps.exportLinkHours,
    enqueue: (job) => deps.exportQueue.enqueue(job),
    ...(deps.now ? { now: deps.now } : {}),
  });
}

/** The partner network's api (partner spec): one router, each capability one folder. */
export function partnerRoutes(deps: PartnerDeps): Router {
  const router = Router();
  const access = new ChannelAccess(deps.db);
  router.use(['/api/v1/partner', '/api/v1/admin/applications'], authenticate(deps.db, deps.resolveSession), provideChannelAccess(access));
  const collaborators = new CollaboratorService(deps);
  router.use(accountDeletionRoutes({ deletion: new AccountDeletionService({
        db: deps.db,
        logger: deps.logger,
        retentionDays: deps.retentionDays,
        ...(deps.stopPlatformConnections ? { stopPlatformConnections: deps.stopPlatformConnections } : {}),
        ...(deps.now ? { now: deps.now } : {}),
      }), resolveSession: deps.resolveSession }));
  router.use(accountRoutes(new AccountService({ db: deps.db, offeredProviders: deps.offeredProviders, ...(deps.now ? { now: deps.now } : {}) })));
  router.use(collaboratorRoutes(collaborators));
  router.use(dataExportRoutes(createDataExportService(deps)));
  router.use(
    applicationRoutes(
      new ApplicationService({ db: deps.db, redis: deps.redis, logger: deps.logger, settings: { ...deps.applications, publicUrl: deps.publicUrl }, ...(deps.now ? { now: deps.now } : {}) }),
    ),
  );
  router.use(channelRoutes(new ChannelService({ db: deps.db, access, ...(deps.now ? { now: deps.now } : {}) }), collaborators));
  // Partner spec §2 Chatbot: its own capability folder, on the channel access rules of this router.
  router.use(chatbotRoutes(new ChatbotService({ db: deps.db, redis: deps.redis, logger: deps.logger, ...(deps.now ? { now: deps.now } : {}) })));
  for (const area of deps.areas ?? []) router.use(area);
  return router;
}
