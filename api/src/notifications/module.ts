import { notificationEndpoints } from '@onair/protocol';
import type { Accounts } from '../auth/index.ts';
import type { SessionResolver } from '../http/auth-context.ts';
import { middleware, type Platform, type Running } from '../module.ts';
import { Announcements } from './announcements.ts';
import { DigestJob, DigestService } from './digest.ts';
import { PreferenceMailer } from './preference-mailer.ts';
import { announcementRoutes, unsubscribeRoutes } from './routes.ts';
import { UnsubscribeTokens } from './unsubscribe-token.ts';

export interface NotificationsServices {
  /** Sends the mails a switch of Settings › Email notifications governs, with their unsubscribe link. */
  preferenceMail: PreferenceMailer;
  unsubscribeTokens: UnsubscribeTokens;
  digests: DigestService;
  announcements: Announcements;
}

/** Mail under the creator's preferences (issue 40 item 3): the weekly digest, announcements, unsubscribe links. */
export const notificationsModule = {
  name: 'notifications',
  build: (deps: Platform & { accounts: Accounts }): NotificationsServices => {
    const { config, db, redis, logger } = deps;
    const tokens = new UnsubscribeTokens(config.AUTH_SECRET);
    const preferenceMail = new PreferenceMailer({ db, mailer: deps.accounts.mailer, tokens, publicUrl: config.PUBLIC_URL, logger });
    return {
      preferenceMail,
      unsubscribeTokens: tokens,
      digests: new DigestService({ db, redis, mail: preferenceMail, publicUrl: config.PUBLIC_URL, logger, ...(deps.now ? { now: deps.now } : {}) }),
      announcements: new Announcements({ db, mail: preferenceMail, logger }),
    };
  },
  http: {
    /** Public, before the JSON parser (RFC 8058's one-click POST is a form). */
    unsubscribe: middleware((c: Platform & NotificationsServices) =>
      unsubscribeRoutes({
        db: c.db,
        tokens: c.unsubscribeTokens,
        publicUrl: c.config.PUBLIC_URL,
        logger: c.logger,
        authMaxBodyBytes: c.config.AUTH_MAX_BODY_BYTES,
      }),
    ),
    /** The admin portal's product updates and partner news. */
    admin: {
      endpoints: notificationEndpoints,
      mount: (c: Platform & NotificationsServices & { resolveSession: SessionResolver }) =>
        announcementRoutes({ db: c.db, announcements: c.announcements, resolveSession: c.resolveSession }),
    },
  },
  jobs: {
    /** The weekly digest on DIGEST_CRON (UTC). */
    digest: {
      name: 'weekly digest',
      start: async (c: Platform & NotificationsServices): Promise<Running> => {
        const job = new DigestJob({ redis: c.redis, logger: c.logger, digests: c.digests, cron: c.config.DIGEST_CRON });
        await job.start();
        return job;
      },
    },
  },
};
