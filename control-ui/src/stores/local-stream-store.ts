import { create } from 'zustand';
import type { LocalStream } from '@onair/protocol';

/** What the Watch player shows: connecting, the stream playing, nothing live yet, or why it cannot play. */
export type LocalWatchState = 'connecting' | 'playing' | 'offline' | 'unsupported' | 'error';

export interface LocalStreamEntry {
  status: 'loading' | 'ready' | 'error';
  view: LocalStream | null;
  error: string | null;
}

export interface LocalStreamState {
  /** Each Local destination's address and Watch player, by destination id (loaded when its card shows). */
  streams: Record<string, LocalStreamEntry>;
  /** The stream name is shown only when asked (it is a secret of the project), per destination. */
  shown: Record<string, boolean>;
  /** The Watch player open now. */
  watch: { destinationId: string; state: LocalWatchState; error: string | null } | null;
}

export function initialLocalStreamState(): LocalStreamState {
  return { streams: {}, shown: {}, watch: null };
}

export function createLocalStreamStore() {
  return create<LocalStreamState>()(() => initialLocalStreamState());
}
