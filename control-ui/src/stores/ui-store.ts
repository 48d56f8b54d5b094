import { create } from 'zustand';

/** Spec §2: account settings open on one of two pages, or not at all. */
export type AccountSettingsPage = 'account' | 'plan';

export interface UiState {
  accountSettingsPage: AccountSettingsPage | null;
}

export function createUiStore() {
  return create<UiState>()(() => ({ accountSettingsPage: null }));
}
