import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { restoreSession } from '../actions/session.ts';
import { Toaster } from '../features/toasts/Toaster.tsx';
import { AccountSettingsDialog } from '../features/account-settings/AccountSettingsDialog.tsx';

/** Wraps every route: the overlays that can open over any screen live here, once. */
export function RootLayout() {
  // Spec §4: once per page load, restore the stored session (or read a sign-in redirect's result).
  useEffect(() => void restoreSession(), []);
  return (
    <>
      <Outlet />
      <AccountSettingsDialog />
      <Toaster />
    </>
  );
}
