import { create } from 'zustand';
import { EVENT_FILTER_DEFAULT, type LiveEvent } from '@onair/protocol';
import type { FlagStorage } from './browser-storage.ts';

/** Where the feed's filter is remembered (studio spec §9: stored locally). */
export const EVENT_FILTER_STORAGE_KEY = 'onair.events.filter';

export interface EventsState {
  projectId: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** Newest first, one entry per event id. */
  events: LiveEvent[];
  /** Spec §4: paused, events arriving are kept here (oldest first) and added on resume. */
  paused: boolean;
  queued: LiveEvent[];
  /** The event types shown (spec §9 default until changed). */
  filter: string[];
  /** The next page of the feed (partner spec §4 fetching flag: `loadingMore`). */
  nextCursor: string | null;
  loadingMore: boolean;
  /** The feed is open in its popout window. */
  poppedOut: boolean;
}

/** The filter remembered in this browser, or spec §9's default set. */
export function readEventFilter(storage: FlagStorage | undefined): string[] {
  try {
    const raw = storage?.getItem(EVENT_FILTER_STORAGE_KEY);
    if (!raw) return [...EVENT_FILTER_DEFAULT];
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed) && parsed.every((t) => typeof t === 'string')) return parsed as string[];
  } catch {
    // Unreadable or not ours: the default.
  }
  return [...EVENT_FILTER_DEFAULT];
}

export function writeEventFilter(storage: FlagStorage | undefined, filter: string[]): void {
  try {
    storage?.setItem(EVENT_FILTER_STORAGE_KEY, JSON.stringify(filter));
  } catch {
    // Quota or privacy settings: the filter then lasts only for this page.
  }
}

export function initialEventsState(storage?: FlagStorage): EventsState {
  return {
    projectId: null,
    status: 'idle',
    error: null,
    events: [],
    paused: false,
    queued: [],
    filter: readEventFilter(storage),
    nextCursor: null,
    loadingMore: false,
    poppedOut: false,
  };
}

export function createEventsStore(storage: FlagStorage | undefined) {
  return create<EventsState>()(() => initialEventsState(storage));
}
