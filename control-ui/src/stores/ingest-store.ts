import { create } from 'zustand';
import type { ConsoleKind, IngestFeed, IngestStatus, IngestView } from '@onair/protocol';

export interface IngestState {
  projectId: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  view: IngestView | null;
  /** The key is shown only when asked (it is a secret of the project). */
  keyShown: boolean;
  regenerating: boolean;
  switching: boolean;
  /** The console guide open now. */
  guide: ConsoleKind | null;
  /** The Auto Live, encoder and console settings dialog is open. */
  settingsOpen: boolean;
}

export function initialIngestState(): IngestState {
  return { projectId: null, status: 'idle', error: null, view: null, keyShown: false, regenerating: false, switching: false, guide: null, settingsOpen: false };
}

export function createIngestStore() {
  return create<IngestState>()(() => initialIngestState());
}

export type { IngestFeed, IngestStatus };
