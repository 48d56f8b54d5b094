import { Outlet } from 'react-router';
import { Toaster } from '../components/Toaster.tsx';
import { AccountSettingsDialog } from '../features/account-settings/AccountSettingsDialog.tsx';

/** Wraps every route: the overlays that can open over any screen live here, once. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <AccountSettingsDialog />
      <Toaster />
    </>
  );
}
