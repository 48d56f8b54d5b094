import { BarChart3, Bot, Gamepad2, Globe, Handshake, Layers, LayoutDashboard, Radio, Settings, UserRound, Wallet } from 'lucide-react';
import { setLanguage } from '../../actions/app.ts';
import { Select } from '../../components/Select.tsx';
import { isUiLanguage, uiLanguages } from '../../model/language.ts';
import { channelAllows } from '@onair/protocol';
import { useEffect } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { loadPartnerAccount } from '../../actions/partner.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { usePartnerStore, useSessionStore, useUiStore } from '../../stores/index.ts';
import { ChannelSelector } from './ChannelSelector.tsx';
import styles from './Partner.module.css';

const linkClass = ({ isActive }: { isActive: boolean }) => `${styles.navLink} ${isActive ? styles.navLinkActive : ''}`;

/**
 * The partner network's area (partner spec §2): its own navigation beside the studio's, the
 * channel selector, and the two gates: signed in (else the one sign-in), and Get Started done.
 */
export function PartnerLayout() {
  const location = useLocation();
  const status = usePartnerStore((s) => s.accountStatus);
  const onboarded = usePartnerStore((s) => s.account?.onboarded ?? false);
  const loggedIn = useSessionStore((s) => s.loggedIn);
  const language = useUiStore((s) => s.language);
  const channel = usePartnerStore((s) => s.channels.find((c) => c.id === s.selectedChannelId) ?? null);
  // Money and statistics links only where the selected channel allows them (the api checks again).
  const role = channel ? (channel.owner ? ({ kind: 'owner' } as const) : ({ kind: 'collaborator', groups: channel.permissions } as const)) : null;
  // Read again when the sign-in changes: a 401 from before signing in is no answer after it.
  useEffect(() => {
    void loadPartnerAccount();
  }, [loggedIn]);

  if (status === 'unauthenticated' && !loggedIn) return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  if (status === 'failed') {
    return (
      <div className={styles.content}>
        <EmptyState title="The partner network could not be loaded">Reload the page to try again.</EmptyState>
      </div>
    );
  }
  if (status !== 'ready') return null;
  const onGetStarted = location.pathname.startsWith('/partner/get-started');
  if (!onboarded && !onGetStarted) return <Navigate to="/partner/get-started" replace />;
  // Get Started and the authorize pages stand alone, without the area's navigation.
  if (onGetStarted || /^\/partner\/(authorize|device)\b/.test(location.pathname)) return <Outlet />;
  return (
    <div className={styles.layout}>
      <nav className={styles.nav} aria-label="Partner network">
        <ChannelSelector />
        <span className={styles.navLabel}>Partner network</span>
        <NavLink to="/partner" end className={linkClass}>
          <LayoutDashboard size={16} aria-hidden />
          Dashboard
        </NavLink>
        <NavLink to="/partner/channel" className={linkClass}>
          <Radio size={16} aria-hidden />
          Channel
        </NavLink>
        <NavLink to="/partner/chatbot" className={linkClass}>
          <Bot size={16} aria-hidden />
          Chatbot
        </NavLink>
        <NavLink to="/partner/campaigns" className={linkClass}>
          <Gamepad2 size={16} aria-hidden />
          Campaigns
        </NavLink>
        <NavLink to="/partner/sponsorship" className={linkClass}>
          <Handshake size={16} aria-hidden />
          Sponsorship
        </NavLink>
        <NavLink to="/partner/overlays" className={linkClass}>
          <Layers size={16} aria-hidden />
          Overlays
        </NavLink>
        <NavLink to="/partner/site" className={linkClass}>
          <Globe size={16} aria-hidden />
          Creator Site
        </NavLink>
        {role && channelAllows(role, 'view statistics') && (
          <NavLink to="/partner/statistics" className={linkClass}>
            <BarChart3 size={16} aria-hidden />
            Statistics
          </NavLink>
        )}
        {role && channelAllows(role, 'manage money') && (
          <NavLink to="/partner/payouts" className={linkClass}>
            <Wallet size={16} aria-hidden />
            Payouts
          </NavLink>
        )}
        <NavLink to="/partner/account" className={linkClass}>
          <UserRound size={16} aria-hidden />
          Account
        </NavLink>
        <NavLink to="/partner/settings" className={linkClass}>
          <Settings size={16} aria-hidden />
          Settings
        </NavLink>
        <div className={styles.navLanguage}>
          <Select
            aria-label="Language"
            value={language}
            options={uiLanguages.map((l) => ({ value: l.code, label: l.label }))}
            onValueChange={(code) => isUiLanguage(code) && setLanguage(code)}
          />
        </div>
      </nav>
      <div className={styles.content}>
        <Outlet />
      </div>
    </div>
  );
}
