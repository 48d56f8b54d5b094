import type { Redis } from 'ioredis';
import { queues } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { SweepJob } from '../jobs/sweep-job.ts';
import type { CampaignService } from './campaign-service.ts';
import type { ChannelStatsSampler } from './channel-stats-sampler.ts';

export interface CampaignSweepResult {
  sampled: number;
  expired: number;
  keyMails: number;
}

/**
 * Once every sampling interval across all api replicas: a sample of every linked channel, the
 * applications of expired campaigns marked expired, and the 'your key is ready' mails.
 */
export class CampaignSweepJob extends SweepJob<CampaignSweepResult> {
  constructor(deps: { redis: Redis; logger: Logger; campaigns: CampaignService; sampler: ChannelStatsSampler; everyMs: number; prefix?: string }) {
    super({
      ...deps,
      queue: queues.campaignSweep,
      what: 'campaign sweep',
      run: async () => ({
        sampled: (await deps.sampler.sampleAll()).sampled,
        expired: await deps.campaigns.expireDue(),
        keyMails: await deps.campaigns.notifyKeysAvailable(),
      }),
    });
  }
}
