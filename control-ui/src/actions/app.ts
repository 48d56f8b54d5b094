import { LANGUAGE_STORAGE_KEY, type UiLanguage } from '../model/language.ts';
import { IS_MIRRORED_STORAGE_KEY, browserStorage, useAppStore, useUiStore, writeBooleanFlag, type FlagStorage } from '../stores/index.ts';

export function setMirrored(isMirrored: boolean): void {
  useAppStore.setState({ isMirrored });
  writeBooleanFlag(browserStorage(), IS_MIRRORED_STORAGE_KEY, isMirrored);
}

export interface GuestLink {
  guestToken: string | null;
  commandToken: string | null;
}

/**
 * Spec §2: a guest link carries `guestToken` and `commandToken`; a local environment puts the guest
 * token in `at` instead. The tokens are kept in the app store for the guest join flow.
 */
export function readGuestLink(search: string): GuestLink {
  const params = new URLSearchParams(search);
  const link: GuestLink = {
    guestToken: params.get('guestToken') ?? params.get('at'),
    commandToken: params.get('commandToken'),
  };
  useAppStore.setState(link);
  return link;
}

/** Partner spec §9: the interface language, kept in local storage and set on the page (`<html lang>`). */
export function setLanguage(language: UiLanguage, storage: FlagStorage | undefined = browserStorage()): void {
  useUiStore.setState({ language });
  try {
    storage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Quota or privacy settings: the choice then lasts only for this page.
  }
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
