import { create } from 'zustand';
import { clampDestinationsHeight } from '../model/live-panel.ts';
import { readBooleanFlag, writeBooleanFlag, type FlagStorage } from './browser-storage.ts';

export const DESTINATIONS_OPEN_STORAGE_KEY = 'onair.studio.destinationsOpen';
export const DESTINATIONS_HEIGHT_STORAGE_KEY = 'onair.studio.destinationsHeight';

/** How the creator arranged the studio's side column; kept in this browser, so a reload or the next show finds it so. */
export interface SideLayoutState {
  /** The destinations list shown (true) or folded to its heading. */
  destinationsOpen: boolean;
  /** The height the creator dragged the destinations list to; null: as tall as its rows (up to the column's share). */
  destinationsHeight: number | null;
}

function readHeight(storage: FlagStorage | undefined): number | null {
  try {
    const raw = storage?.getItem(DESTINATIONS_HEIGHT_STORAGE_KEY);
    if (!raw) return null;
    const value = Number(raw);
    return Number.isFinite(value) ? clampDestinationsHeight(value) : null;
  } catch {
    return null;
  }
}

export function createSideLayoutStore(storage?: FlagStorage) {
  const store = create<SideLayoutState>()(() => ({
    destinationsOpen: readBooleanFlag(storage, DESTINATIONS_OPEN_STORAGE_KEY, true),
    destinationsHeight: readHeight(storage),
  }));
  store.subscribe((s, before) => {
    if (s.destinationsOpen !== before.destinationsOpen) writeBooleanFlag(storage, DESTINATIONS_OPEN_STORAGE_KEY, s.destinationsOpen);
    if (s.destinationsHeight !== before.destinationsHeight) {
      try {
        storage?.setItem(DESTINATIONS_HEIGHT_STORAGE_KEY, s.destinationsHeight === null ? '' : String(s.destinationsHeight));
      } catch {
        // Storage refused: the arrangement lasts for this page only.
      }
    }
  });
  return store;
}
