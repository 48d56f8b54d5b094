import { create } from 'zustand';
import type { Readiness } from '@onair/protocol';

/**
 * What the UI knows about the servers behind it. `degraded` means the api answered but not every
 * part is up (its `/readyz` said so); `unreachable` means no usable answer came back at all.
 */
export type ReadinessStatus =
  | { kind: 'checking' }
  | { kind: 'ready'; readiness: Readiness; checkedAt: number }
  | { kind: 'degraded'; readiness: Readiness; checkedAt: number }
  | { kind: 'unreachable'; reason: string; checkedAt: number };

export interface SystemState {
  readiness: ReadinessStatus;
}

export function createSystemStore() {
  return create<SystemState>()(() => ({ readiness: { kind: 'checking' } }));
}
