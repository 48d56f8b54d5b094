import { Router } from 'express';
import { partnerNetworkEndpoints } from '@onair/protocol';
import type { ChannelAccess } from '../access/channel-access.ts';
import type { Accounts } from '../auth/index.ts';
import { oauthProviders } from '../auth/oauth-providers.ts';
import type { SessionResolver } from '../http/auth-context.ts';
import { bodyParsing } from '../http/body.ts';
import { middleware, type HttpPart, type Platform, type Running } from '../module.ts';
import { AccountService } from './account/account-service.ts';
import { ApplicationService } from './applications/application-service.ts';
import { channelEventsStudioSocket } from './channels/channel-events-socket.ts';
import { ChannelService } from './channels/channel-service.ts';
import { CollaboratorService } from './collaborators/collaborator-service.ts';
import { DataExportQueue } from './data-exports/export-job.ts';
import { DataExportService } from './data-exports/export-service.ts';
import { partnerRoutes } from './index.ts';

export interface PartnerServices {
  partnerAccounts: AccountService;
  collaborators: CollaboratorService;
  /** Where data exports are queued; a process that runs its worker builds them. */
  exportQueue: DataExportQueue;
  dataExports: DataExportService;
  /** Third-party applications (OAuth, device codes). */
  applications: ApplicationService;
  channels: ChannelService;
}

type PartnerDeps = Platform & { accounts: Accounts; channelAccess: ChannelAccess; exportQueue?: DataExportQueue };

/** The partner network's account area: profile, collaborators, channels, data exports, applications (deletion is accounts/'s, for both areas). */
export const partnerModule = {
  name: 'partner',
  build: (deps: PartnerDeps): PartnerServices => {
    const { config, db, redis, logger } = deps;
    const now = deps.now ? { now: deps.now } : {};
    const mailer = deps.accounts.mailer;
    const exportQueue = deps.exportQueue ?? new DataExportQueue(redis);
    return {
      partnerAccounts: new AccountService({ db, offeredProviders: oauthProviders(config).map((p) => p.providerId), ...now }),
      collaborators: new CollaboratorService({ db, mailer, logger, publicUrl: config.PUBLIC_URL, ...now }),
      exportQueue,
      dataExports: new DataExportService({
        db,
        logger,
        mailer,
        publicUrl: config.PUBLIC_URL,
        linkHours: config.EXPORT_LINK_HOURS,
        enqueue: (job) => exportQueue.enqueue(job),
        ...now,
      }),
      applications: new ApplicationService({
        db,
        redis,
        logger,
        settings: {
          shortCodeAttempts: config.SHORT_CODE_ATTEMPTS,
          shortCodeWindowSeconds: config.SHORT_CODE_WINDOW_SECONDS,
          accessTokenLifetimeSeconds: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
          rateLimitPrefix: config.AUTH_RATE_LIMIT_PREFIX,
          publicUrl: config.PUBLIC_URL,
        },
        ...now,
      }),
      channels: new ChannelService({ db, access: deps.channelAccess, ...now }),
    };
  },
  /** `/ws`: a channel's events feed, live (the Channel page, the Dashboard). */
  studioSocket: {
    name: 'channel events',
    build: (c: Platform & { channelAccess: ChannelAccess }) => channelEventsStudioSocket(c),
  },
  http: {
    /** OAuth clients post forms to the token and device endpoints (RFC 6749, 8628). */
    oauthForms: middleware((c: Pick<Platform, 'config'>) =>
      Router().use('/api/oauth', ...bodyParsing({ limitBytes: c.config.AUTH_MAX_BODY_BYTES, forms: true })),
    ),
    /** The partner router with its areas (folders of their own) behind the same sign-in and channel access. */
    network: <D>(
      areas: readonly HttpPart<D>[],
    ): HttpPart<D & Platform & PartnerServices & { resolveSession: SessionResolver; channelAccess: ChannelAccess }> => ({
      // An area may serve contracts of the network's own list (account deletion): each is listed once, where the list has it.
      endpoints: [...new Set([...partnerNetworkEndpoints, ...areas.flatMap((area) => area.endpoints)])],
      mount: (c) => partnerRoutes({ ...c, areas: areas.flatMap((area) => area.mount(c)) }),
    }),
  },
  jobs: {
    /** Data exports are queued by the routes and built by a worker in every replica. */
    dataExports: {
      name: 'data exports',
      start: (c: Platform & PartnerServices): Running => {
        c.exportQueue.work(c.dataExports, c.logger);
        return { close: () => undefined };
      },
    },
  },
};
