import { create } from 'zustand';
import type { AdminApplication, CampaignView, CreatorCampaign, PublicCampaign } from '@onair/protocol';

/** What the campaign lists show: the api's answer, or its words for why there is none. */
export interface CampaignList<T> {
  items: T[] | null;
  error: string | null;
}

export interface CampaignsState {
  /** The partner Campaigns page (Discover or My campaigns with its filters); the last answer stays while the next is read. */
  list: CampaignList<CreatorCampaign>;
  /** The public marketing page: the campaigns running now. */
  running: CampaignList<PublicCampaign>;
  /** One campaign's page: the campaign with the caller's application, or why it could not be read. */
  detail: { campaignId: string | null; item: CreatorCampaign | null; error: string | null };
  /** The admin portal: every campaign (the last answer stays while the next is read). */
  admin: CampaignList<CampaignView>;
  /** The admin portal's open campaign: its applications, or why they could not be read. */
  applications: CampaignList<AdminApplication> & { campaignId: string | null };
}

export const initialCampaignsState = (): CampaignsState => ({
  list: { items: null, error: null },
  running: { items: null, error: null },
  detail: { campaignId: null, item: null, error: null },
  admin: { items: null, error: null },
  applications: { campaignId: null, items: null, error: null },
});

export function createCampaignsStore() {
  return create<CampaignsState>()(() => initialCampaignsState());
}
