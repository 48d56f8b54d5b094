import { campaignEndpoints } from '@onair/protocol';
import type { SecretBox } from '@onair/runtime';
import type { Accounts } from '../auth/index.ts';
import type { SessionResolver } from '../http/auth-context.ts';
import type { Ledger } from '../money/ledger.ts';
import type { Platform, Running } from '../module.ts';
import type { PreferenceMailer } from '../notifications/preference-mailer.ts';
import { CampaignSweepJob } from './campaign-jobs.ts';
import { CampaignService } from './campaign-service.ts';
import { ChannelStatsSampler } from './channel-stats-sampler.ts';
import { campaignRoutes } from './routes.ts';

export interface CampaignsServices {
  campaigns: CampaignService;
  /** Samples every linked Twitch channel's live statistics. */
  channelStats: ChannelStatsSampler;
}

/** Campaigns (issue 25): game keys for creators who stream the game. */
export const campaignsModule = {
  name: 'campaigns',
  build: (deps: Platform & { accounts: Accounts; box: SecretBox | null; money: { ledger: Ledger }; preferenceMail: PreferenceMailer }): CampaignsServices => ({
    campaigns: new CampaignService({
      db: deps.db,
      logger: deps.logger,
      mail: deps.preferenceMail,
      publicUrl: deps.config.PUBLIC_URL,
      secrets: deps.box,
      ledger: deps.money.ledger,
      ...(deps.now ? { now: deps.now } : {}),
    }),
    channelStats: new ChannelStatsSampler({
      db: deps.db,
      logger: deps.logger,
      apiUrl: deps.config.TWITCH_API_URL,
      clientId: deps.config.TWITCH_CLIENT_ID ?? null,
      // YouTube channels through the creator's Google sign-in (its token carries the YouTube read-only scope).
      youtubeApiUrl: deps.config.GOOGLE_CLIENT_ID ? deps.config.YOUTUBE_API_URL : null,
      // better-auth hands out the linked account's token, refreshing it when it has expired.
      tokenFor: async (userId, accountId) => (await deps.accounts.auth.api.getAccessToken({ body: { accountId, userId } })).accessToken ?? null,
      intervalMinutes: deps.config.CHANNEL_STATS_SAMPLE_MINUTES,
    }),
  }),
  http: {
    routes: {
      endpoints: campaignEndpoints,
      mount: (c: Platform & CampaignsServices & { resolveSession: SessionResolver }) =>
        campaignRoutes({ db: c.db, campaigns: c.campaigns, resolveSession: c.resolveSession }),
    },
  },
  jobs: {
    /** Sampled channel statistics, expiry, 'your key is ready' mails. */
    sweep: {
      name: 'campaign sweep',
      start: async (c: Platform & CampaignsServices): Promise<Running> => {
        const job = new CampaignSweepJob({
          redis: c.redis,
          logger: c.logger,
          campaigns: c.campaigns,
          sampler: c.channelStats,
          everyMs: c.config.CHANNEL_STATS_SAMPLE_MINUTES * 60_000,
        });
        await job.start();
        return job;
      },
    },
  },
};
