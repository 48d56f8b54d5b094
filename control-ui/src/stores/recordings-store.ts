import { create } from 'zustand';
import type { Recording } from '@onair/protocol';

export interface RecordingsState {
  projectId: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  recordings: Recording[];
  error: string | null;
}

export const initialRecordingsState = (): RecordingsState => ({ projectId: null, status: 'idle', recordings: [], error: null });

export function createRecordingsStore() {
  return create<RecordingsState>()(() => initialRecordingsState());
}
