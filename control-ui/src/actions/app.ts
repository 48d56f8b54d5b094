import { IS_MIRRORED_STORAGE_KEY, browserStorage, useAppStore, writeBooleanFlag } from '../stores/index.ts';

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
