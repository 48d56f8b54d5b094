import { create } from 'zustand';
import type { ScheduledBroadcast } from '@onair/protocol';

/** The project's scheduled video broadcasts (issue 19), soonest first, as the server last listed them. */
export interface SchedulesState {
  projectId: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  scheduled: ScheduledBroadcast[];
  error: string | null;
  /** The schedule whose cancel is being sent. */
  cancelling: string | null;
}

export const initialSchedulesState = (): SchedulesState => ({ projectId: null, status: 'idle', scheduled: [], error: null, cancelling: null });

export function createSchedulesStore() {
  return create<SchedulesState>()(() => initialSchedulesState());
}
