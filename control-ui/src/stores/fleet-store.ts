import { create } from 'zustand';
import type { FleetLoadSample, FleetOverview } from '@onair/protocol';

/**
 * The operators' dashboard data. `forbidden` is the api's answer to a signed-in user who is not an
 * administrator; `signed-out` to no session at all; `unreachable` to anything else that failed.
 */
export type FleetStatus =
  | { kind: 'loading' }
  | { kind: 'ready'; overview: FleetOverview; fetchedAt: number }
  | { kind: 'forbidden' }
  | { kind: 'signed-out' }
  | { kind: 'unreachable'; reason: string; lastOverview?: FleetOverview };

export interface FleetState {
  status: FleetStatus;
  history: FleetLoadSample[];
  historyIntervalSeconds: number;
}

export const initialFleetState: FleetState = { status: { kind: 'loading' }, history: [], historyIntervalSeconds: 5 };

export function createFleetStore() {
  return create<FleetState>()(() => initialFleetState);
}
