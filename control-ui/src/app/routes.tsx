import type { RouteObject } from 'react-router';
import { AdminPage } from '../pages/AdminPage.tsx';
import { BillingReturnPage } from '../pages/BillingReturnPage.tsx';
import { DevInboxPage } from '../pages/DevInboxPage.tsx';
import { GuestPage } from '../pages/GuestPage.tsx';
import { InvitationPage } from '../pages/InvitationPage.tsx';
import { HomePage } from '../pages/HomePage.tsx';
import { LoginPage } from '../pages/LoginPage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { StudioPage } from '../pages/StudioPage.tsx';
import { AppLayout } from './AppLayout.tsx';
import { RootLayout } from './RootLayout.tsx';
import { RouteErrorFallback } from './RouteErrorFallback.tsx';

/**
 * Every screen of the app. The api answers any other GET with index.html, so each of these paths
 * also works when typed in or reloaded.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorFallback />,
    children: [
      {
        element: <AppLayout />,
        children: [
          { index: true, element: <HomePage /> },
          { path: 'admin', element: <AdminPage /> },
          // Stripe's hosted checkout and portal come back here.
          { path: 'billing', element: <BillingReturnPage /> },
          // An invitation mail's link (spec §6): accepting gives the role.
          { path: 'invitation', element: <InvitationPage /> },
          // Development only: shows what the api kept instead of mailing (says so when it is off).
          { path: 'dev/inbox', element: <DevInboxPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      { path: 'studio/:projectId', element: <StudioPage /> },
      // Spec §2: a guest link is the origin plus /guest/ (here followed by the project's id); anything else says the link is incomplete.
      { path: 'guest/:projectId', element: <GuestPage /> },
      { path: 'guest/*', element: <GuestPage /> },
      { path: 'login', element: <LoginPage /> },
    ],
  },
];
