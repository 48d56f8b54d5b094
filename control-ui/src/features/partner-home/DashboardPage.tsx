import { Inbox, Radio, Settings, Users } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { loadCollaborators } from '../../actions/partner.ts';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { usePartnerStore } from '../../stores/index.ts';
import { ChannelEvents } from './ChannelEvents.tsx';
import { PermissionBadges } from './PermissionBadges.tsx';
import styles from './Partner.module.css';

/** Partner spec §2 Dashboard: the chosen channel, what one may do there, what waits for an answer, and the live events feed. */
export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const account = usePartnerStore((s) => s.account);
  const channel = usePartnerStore((s) => s.channels.find((c) => c.id === s.selectedChannelId) ?? null);
  const pending = usePartnerStore((s) => s.received.filter((i) => i.state === 'pending').length);
  useEffect(() => {
    void loadCollaborators();
  }, []);
  return (
    <div className={styles.narrow}>
      <h1 className={styles.title}>Dashboard</h1>
      <p className={styles.lead}>Welcome{account?.profile ? `, ${account.profile.firstName}` : ''}.</p>
      {channel && (
        <section className={styles.card} aria-label="Channel">
          <h2 className={styles.cardTitle}>{channel.name}</h2>
          {channel.owner ? (
            <p className={styles.muted}>Your channel. You can do everything here.</p>
          ) : (
            <>
              <p className={styles.muted}>You collaborate on this channel. You may:</p>
              <PermissionBadges groups={channel.permissions} />
            </>
          )}
          <div>
            <Link to="/partner/channel" className={styles.navLink}>
              <Radio size={16} aria-hidden />
              Open the channel
            </Link>
          </div>
        </section>
      )}
      <div className={styles.grid}>
        <Link to="/partner/settings/collaborators?tab=received" className={styles.card}>
          <Inbox size={20} aria-hidden />
          <span className={styles.itemTitle}>
            {pending === 0 ? 'No invitations waiting' : pending === 1 ? '1 invitation waiting' : `${pending} invitations waiting`}
          </span>
        </Link>
        <Link to="/partner/settings/collaborators" className={styles.card}>
          <Users size={20} aria-hidden />
          <span className={styles.itemTitle}>Your collaborators</span>
        </Link>
        <Link to="/partner/settings" className={styles.card}>
          <Settings size={20} aria-hidden />
          <span className={styles.itemTitle}>Settings</span>
        </Link>
      </div>
      {channel && (channel.owner || channel.permissions.includes('analytics')) && <ChannelEvents channelId={channel.id} />}
    </div>
  );
}
