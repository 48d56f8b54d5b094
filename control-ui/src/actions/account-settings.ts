import { useUiStore, type AccountSettingsPage } from '../stores/index.ts';

export function openAccountSettings(page: AccountSettingsPage): void {
  useUiStore.setState({ accountSettingsPage: page });
}

export function closeAccountSettings(): void {
  useUiStore.setState({ accountSettingsPage: null });
}
