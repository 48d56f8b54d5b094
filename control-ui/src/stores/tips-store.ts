import { create } from 'zustand';
import type { CharityCampaignView, TipSettings } from '@onair/protocol';

/** Settings › Tips of the owner's channel: the saved tip settings and the connected charity campaign. */
export interface TipsState {
  channelId: string | null;
  settings: TipSettings | null;
  settingsError: string | null;
  /** undefined until read; null when no campaign is connected. */
  charity: CharityCampaignView | null | undefined;
  charityError: string | null;
}

export const initialTipsState = (): TipsState => ({ channelId: null, settings: null, settingsError: null, charity: undefined, charityError: null });

export function createTipsStore() {
  return create<TipsState>()(() => initialTipsState());
}
