import { create } from 'zustand';
import type { AlertSettings } from '@onair/protocol';

export interface AlertsState {
  open: boolean;
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** As saved on the server. */
  saved: AlertSettings | null;
  /** As edited in the dialog. */
  draft: AlertSettings | null;
  overlayUrl: string | null;
  saving: boolean;
  error: string | null;
  /** Says the last test alert went out (or why not). */
  notice: string | null;
}

export function initialAlertsState(): AlertsState {
  return { open: false, status: 'idle', saved: null, draft: null, overlayUrl: null, saving: false, error: null, notice: null };
}

export function createAlertsStore() {
  return create<AlertsState>()(() => initialAlertsState());
}
