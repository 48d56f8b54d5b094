import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { setLanguage } from '../actions/app.ts';
import { restoreSession } from '../actions/session.ts';
import { useUiStore } from '../stores/index.ts';
import { Toaster } from '../features/toasts/Toaster.tsx';

/** Wraps every route: the overlays that can open over any screen live here, once. */
export function RootLayout() {
  // Spec §4: once per page load, restore the stored session (or read a sign-in redirect's result).
  useEffect(() => void restoreSession(), []);
  // Partner spec §9: the language kept in this browser (English unless chosen) is the page's, and is kept.
  const language = useUiStore((s) => s.language);
  useEffect(() => setLanguage(language), [language]);
  return (
    <>
      <Outlet />
      <Toaster />
    </>
  );
}
