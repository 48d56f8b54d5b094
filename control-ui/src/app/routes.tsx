import type { RouteObject } from 'react-router';
import { AdminPage } from '../pages/AdminPage.tsx';
import { BillingReturnPage } from '../pages/BillingReturnPage.tsx';
import { DevInboxPage } from '../pages/DevInboxPage.tsx';
import { GuestPage } from '../pages/GuestPage.tsx';
import { InvitationPage } from '../pages/InvitationPage.tsx';
import { HomePage } from '../pages/HomePage.tsx';
import { LoginPage } from '../pages/LoginPage.tsx';
import { SignupPage, WaitlistPage } from '../pages/SignupPage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { StudioPage } from '../pages/StudioPage.tsx';
import { AccountSettingsPage } from '../features/account-settings/AccountSettingsPage.tsx';
import { RecordingsPage } from '../features/recordings/RecordingsPage.tsx';
import { TestModePage } from '../features/test-mode/TestModePage.tsx';
import { AppLayout } from './AppLayout.tsx';
import { PartnerAccountPage } from '../features/partner-home/AccountPage.tsx';
import { ChannelPage } from '../features/partner-home/ChannelPage.tsx';
import { ChatbotPage } from '../features/partner-chatbot/ChatbotPage.tsx';
import { DashboardPage } from '../features/partner-home/DashboardPage.tsx';
import { PartnerLayout } from '../features/partner-home/PartnerLayout.tsx';
import { GetStartedPage } from '../features/partner-onboarding/GetStartedPage.tsx';
import { SettingsPage } from '../features/partner-settings/SettingsPage.tsx';
import { DeclineInvitePage } from '../features/partner-collaborators/DeclineInvitePage.tsx';
import { AccountDeletedPage } from '../features/partner-account-deletion/AccountDeletedPage.tsx';
import { ReactivatePage } from '../features/partner-account-deletion/ReactivatePage.tsx';
import { AuthorizePage } from '../features/partner-applications/AuthorizePage.tsx';
import { DevicePage } from '../features/partner-applications/DevicePage.tsx';
import { CampaignAdminPage } from '../features/partner-campaigns/CampaignAdminPage.tsx';
import { CampaignDetailPage } from '../features/partner-campaigns/CampaignDetailPage.tsx';
import { CampaignsPage } from '../features/partner-campaigns/CampaignsPage.tsx';
import { SponsorshipPage } from '../features/partner-campaigns/SponsorshipPage.tsx';
import { MarketingCampaignsPage } from '../features/partner-campaigns/MarketingCampaignsPage.tsx';
import { OverlaysPage } from '../features/partner-overlays/OverlaysPage.tsx';
import { OverlayEditorPage } from '../features/partner-overlays/OverlayEditorPage.tsx';
import { CreatorSitePage } from '../features/partner-creator-site/CreatorSitePage.tsx';
import { PayoutsPage } from '../features/partner-payouts/PayoutsPage.tsx';
import { StatisticsPage } from '../features/partner-statistics/StatisticsPage.tsx';
import { TipPage } from '../features/tip-page/TipPage.tsx';
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
          // Issue 52: Account Settings and Plan & Billing are pages that can be linked (and opened in a tab beside the studio).
          { path: 'account', element: <AccountSettingsPage page="account" /> },
          { path: 'account/plan', element: <AccountSettingsPage page="plan" /> },
          // Issue 19: a project's recordings, with duration, size and download.
          { path: 'projects/:projectId/recordings', element: <RecordingsPage /> },
          // Issue 39: the platforms' test mode, as the audience of the project's test-mode channels.
          { path: 'projects/:projectId/test-mode', element: <TestModePage /> },
          { path: 'admin/campaigns', element: <CampaignAdminPage /> },
          // Spec §2 Marketing: the campaigns page, for anyone.
          { path: 'campaigns', element: <MarketingCampaignsPage /> },
          // Stripe's hosted checkout and portal come back here.
          { path: 'billing', element: <BillingReturnPage /> },
          // An invitation mail's link (spec §6): accepting gives the role.
          { path: 'invitation', element: <InvitationPage /> },
          // Development only: shows what the api kept instead of mailing (says so when it is off).
          { path: 'dev/inbox', element: <DevInboxPage /> },
          // The partner network (partner spec §2): a second area of the same app and sign-in.
          {
            path: 'partner',
            element: <PartnerLayout />,
            children: [
              { index: true, element: <DashboardPage /> },
              { path: 'get-started', element: <GetStartedPage /> },
              { path: 'channel', element: <ChannelPage /> },
              { path: 'chatbot/:section?', element: <ChatbotPage /> },
              { path: 'account', element: <PartnerAccountPage /> },
              { path: 'campaigns', element: <CampaignsPage /> },
              { path: 'campaigns/:campaignId', element: <CampaignDetailPage /> },
              { path: 'sponsorship', element: <SponsorshipPage /> },
              { path: 'overlays', element: <OverlaysPage /> },
              { path: 'overlays/:overlayId', element: <OverlayEditorPage /> },
              { path: 'site', element: <CreatorSitePage /> },
              { path: 'payouts', element: <PayoutsPage /> },
              { path: 'statistics', element: <StatisticsPage /> },
              { path: 'settings/:section?', element: <SettingsPage /> },
              // Partner spec §2 auth pages: OAuth authorize and short-code authorize.
              { path: 'authorize', element: <AuthorizePage /> },
              { path: 'device', element: <DevicePage /> },
            ],
          },
          // Decline Collaboration Invite: the invitation e-mail's link works without signing in.
          { path: 'partner/decline-invite', element: <DeclineInvitePage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      { path: 'studio/:projectId', element: <StudioPage /> },
      // Spec §2: a guest link is the origin plus /guest/ (here followed by the project's id); anything else says the link is incomplete.
      { path: 'guest/:projectId', element: <GuestPage /> },
      { path: 'guest/*', element: <GuestPage /> },
      { path: 'login', element: <LoginPage /> },
      // Partner spec §2 auth pages: Signup, and the Waitlist notice.
      { path: 'signup', element: <SignupPage /> },
      { path: 'waitlist', element: <WaitlistPage /> },
      // A creator's tip page: a direct public link (the creator site's tip button points here).
      { path: 'tip/:creatorId', element: <TipPage /> },
      // Partner spec §4: after deleting, and a new sign-in to an account pending deletion.
      { path: 'account-deleted', element: <AccountDeletedPage /> },
      { path: 'reactivate', element: <ReactivatePage /> },
    ],
  },
];
