import { create } from 'zustand';
import type { AccountDeletionStatus, DataExport, Grant } from '@onair/protocol';

/**
 * What the partner Settings sections read from the api: the account's deletion terms, its data
 * exports and the applications it authorized. Each is null until read; `…Failed` says a read did
 * not work (the section then says so instead of its content).
 */
export interface PartnerSettingsState {
  deletion: AccountDeletionStatus | null;
  exports: { exports: DataExport[]; linkHours: number } | null;
  exportsFailed: boolean;
  grants: Grant[] | null;
  grantsFailed: boolean;
}

export const initialPartnerSettingsState = (): PartnerSettingsState => ({
  deletion: null,
  exports: null,
  exportsFailed: false,
  grants: null,
  grantsFailed: false,
});

export function createPartnerSettingsStore() {
  return create<PartnerSettingsState>()(() => initialPartnerSettingsState());
}
