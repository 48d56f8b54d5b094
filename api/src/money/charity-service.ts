import type { CharityCampaignView } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';

/**
 * Settings › Integrations › Charity (partner spec §3 Charity integrations): the channel's charity
 * campaign, by its link, active or not. Donations themselves arrive as charity events in the
 * events feed from Twitch's channel.charity_campaign.donate EventSub subscription (api/src/events).
 */
export class CharityService {
  constructor(private readonly deps: { db: Db; logger: Logger }) {}

  async get(channelId: string): Promise<CharityCampaignView> {
    const row = await this.deps.db.charityCampaign.findUnique({ where: { channelId } });
    return row ? { link: row.link, name: row.name, active: row.active, providerId: row.providerId } : null;
  }

  async connect(channelId: string, input: { link: string; name: string; active: boolean }): Promise<CharityCampaignView> {
    await this.deps.db.charityCampaign.upsert({ where: { channelId }, create: { channelId, ...input }, update: input });
    this.deps.logger.info({ audit: 'charity-connected', channelId, active: input.active }, 'charity campaign connected');
    return this.get(channelId);
  }

  async disconnect(channelId: string): Promise<CharityCampaignView> {
    await this.deps.db.charityCampaign.deleteMany({ where: { channelId } });
    this.deps.logger.info({ audit: 'charity-disconnected', channelId }, 'charity campaign disconnected');
    return null;
  }
}
