import { create } from 'zustand';
import type { Overlay, OverlayContent, OverlaySummary } from '@onair/protocol';
import type { LoadStatus } from './partner-store.ts';

export interface OverlaysState {
  /** The selected channel's overlays (Overlay page). */
  listStatus: LoadStatus;
  overlays: OverlaySummary[];
  listError: string | null;
  /** The overlay open in the editor: as saved, and the edits not saved yet. */
  editorStatus: LoadStatus;
  saved: Overlay | null;
  draft: OverlayContent | null;
  selectedWidgetId: string | null;
  saving: boolean;
  error: string | null;
  /** The api's words per field of the last refused save ("widgets.0.text"). */
  fieldErrors: Record<string, string>;
}

export function initialOverlaysState(): OverlaysState {
  return {
    listStatus: 'idle',
    overlays: [],
    listError: null,
    editorStatus: 'idle',
    saved: null,
    draft: null,
    selectedWidgetId: null,
    saving: false,
    error: null,
    fieldErrors: {},
  };
}

export function createOverlaysStore() {
  return create<OverlaysState>()(() => initialOverlaysState());
}
