import { create } from 'zustand';
import type { LiveEvent } from '@onair/protocol';

/** The partner Channel page's events feed (spec §2, §4): the channel's events across its projects. */
export interface ChannelEventsState {
  channelId: string | null;
  /** Newest first, as shown. */
  events: LiveEvent[];
  nextCursor: string | null;
  /** Event types shown; every type when empty. */
  types: string[];
  paused: boolean;
  /** Events that arrived while paused: added on resume (spec §4). */
  queued: LiveEvent[];
  error: string | null;
  loading: boolean;
}

export const initialChannelEventsState = (): ChannelEventsState => ({
  channelId: null,
  events: [],
  nextCursor: null,
  types: [],
  paused: false,
  queued: [],
  error: null,
  loading: false,
});

export function createChannelEventsStore() {
  return create<ChannelEventsState>()(() => initialChannelEventsState());
}
