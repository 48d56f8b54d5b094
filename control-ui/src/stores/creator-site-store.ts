import { create } from 'zustand';
import type { CreatorSite, CreatorSiteContent } from '@onair/protocol';
import type { LoadStatus } from './partner-store.ts';

export interface CreatorSiteState {
  status: LoadStatus;
  /** The channel whose site is loaded. */
  channelId: string | null;
  saved: CreatorSite | null;
  draft: CreatorSiteContent | null;
  saving: boolean;
  error: string | null;
  fieldErrors: Record<string, string>;
}

export function initialCreatorSiteState(): CreatorSiteState {
  return { status: 'idle', channelId: null, saved: null, draft: null, saving: false, error: null, fieldErrors: {} };
}

export function createCreatorSiteStore() {
  return create<CreatorSiteState>()(() => initialCreatorSiteState());
}
