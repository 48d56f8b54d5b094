import {
  deleteCurrentUserEndpoint,
  getAccountDeletionEndpoint,
  getCurrentUserEndpoint,
  getUserSettingsEndpoint,
  reactivateAccountEndpoint,
  requestAccountDeletionEndpoint,
  updateCurrentUserEndpoint,
  updateMailingPreferencesEndpoint,
  updateMailingStatusEndpoint,
} from '@onair/protocol';
import type { BroadcastService } from '../destinations/broadcast-service.ts';
import type { SessionResolver } from '../http/auth-context.ts';
import type { Platform, Running } from '../module.ts';
import { AccountDeletionService } from './deletion-service.ts';
import { AccountErasureJob } from './erasure-job.ts';
import { accountDeletionRoutes } from './routes.ts';
import { userRoutes } from './user-routes.ts';

export interface AccountsServices {
  /** The one account deletion of both areas: deactivation, then erasure after ACCOUNT_RETENTION_DAYS. */
  accountDeletion: AccountDeletionService;
}

type AccountsDeps = Platform & { broadcasts: BroadcastService };
type Mounted = Platform & AccountsServices & { resolveSession: SessionResolver };

/** The signed-in user's own account, from either area: profile, settings and mailing, deletion and reactivation. */
export const accountsModule = {
  name: 'accounts',
  build: (deps: AccountsDeps): AccountsServices => ({
    accountDeletion: new AccountDeletionService({
      db: deps.db,
      logger: deps.logger,
      retentionDays: deps.config.ACCOUNT_RETENTION_DAYS,
      // Ends what runs for the account at the platforms (its live broadcasts).
      stopPlatformConnections: async (userId) => {
        await deps.broadcasts.endAllOwnedBy(userId);
      },
      ...(deps.now ? { now: deps.now } : {}),
    }),
  }),
  http: {
    /** Studio spec §7: the current user, display name, delete, settings and mailing. */
    users: {
      endpoints: [
        getCurrentUserEndpoint,
        updateCurrentUserEndpoint,
        deleteCurrentUserEndpoint,
        getUserSettingsEndpoint,
        updateMailingPreferencesEndpoint,
        updateMailingStatusEndpoint,
      ],
      mount: (c: Mounted) => userRoutes({ db: c.db, resolveSession: c.resolveSession, deletion: c.accountDeletion, mailingEnabled: c.config.MAILING_ENABLED }),
    },
    /** Partner spec §4: deletion confirmed with the username, its status, and reactivation (an area of the partner network). */
    partnerDeletion: {
      endpoints: [getAccountDeletionEndpoint, requestAccountDeletionEndpoint, reactivateAccountEndpoint],
      mount: (c: Mounted) => accountDeletionRoutes({ deletion: c.accountDeletion, resolveSession: c.resolveSession }),
    },
  },
  jobs: {
    /** Partner spec §4: accounts deleted longer ago than the retention window are erased. */
    erasure: {
      name: 'account erasure',
      start: async (c: Platform & AccountsServices): Promise<Running> => {
        const job = new AccountErasureJob({
          redis: c.redis,
          logger: c.logger,
          deletion: c.accountDeletion,
          everyMs: c.config.ACCOUNT_ERASURE_INTERVAL_SECONDS * 1000,
        });
        await job.start();
        return job;
      },
    },
  },
};
