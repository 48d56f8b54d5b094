import { create } from 'zustand';
import type { ChannelStream, ChannelSummary, PartnerAccount, ReceivedInvite, SentInvite } from '@onair/protocol';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'unauthenticated' | 'failed';

export interface PartnerState {
  /** The creator account (Get Started, Settings). */
  accountStatus: LoadStatus;
  account: PartnerAccount | null;
  /** The channel selector: the own channel first, then those the user collaborates on. */
  channels: ChannelSummary[];
  /** The channel the Dashboard and Channel pages act on (remembered while the page lives). */
  selectedChannelId: string | null;
  collaboratorsStatus: LoadStatus;
  sent: SentInvite[];
  received: ReceivedInvite[];
  /** The Channel page: the channel as the user may see it, and its streams when Analytics allows. */
  channelStatus: LoadStatus;
  channel: ChannelSummary | null;
  channelError: string | null;
  streams: ChannelStream[] | null;
  streamsError: string | null;
}

export function initialPartnerState(): PartnerState {
  return {
    accountStatus: 'idle',
    account: null,
    channels: [],
    selectedChannelId: null,
    collaboratorsStatus: 'idle',
    sent: [],
    received: [],
    channelStatus: 'idle',
    channel: null,
    channelError: null,
    streams: null,
    streamsError: null,
  };
}

export function createPartnerStore() {
  return create<PartnerState>()(() => initialPartnerState());
}
