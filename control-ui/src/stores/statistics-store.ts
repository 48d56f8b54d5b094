import { create } from 'zustand';
import type { Statistics } from '@onair/protocol';

/** The partner Statistics page of one channel; the last answer stays while the next window is read. */
export interface StatisticsState {
  channelId: string | null;
  stats: Statistics | null;
  error: string | null;
}

export const initialStatisticsState = (): StatisticsState => ({ channelId: null, stats: null, error: null });

export function createStatisticsStore() {
  return create<StatisticsState>()(() => initialStatisticsState());
}
