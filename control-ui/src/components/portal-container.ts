import { createContext, useContext } from 'react';

/**
 * Where pop-ups (drop-downs, menus, tooltips) are portalled: the open dialog's content inside a
 * Modal, the document body elsewhere. Inside a dialog they then stack within it, above its overlay,
 * while the page-level order of spec §9 (dropdown 1, tooltip 2, modal 3, toast 4) stays as it is.
 */
export const PortalContainer = createContext<HTMLElement | null>(null);

export function usePortalContainer(): HTMLElement | undefined {
  return useContext(PortalContainer) ?? undefined;
}
