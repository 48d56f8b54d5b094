import { AppWindow } from 'lucide-react';
import { useEffect } from 'react';
import { openGrants, revokeGrant } from '../../actions/partner-applications.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { usePartnerSettingsStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Settings › Manage Applications: the applications the creator authorized, each revocable. */
export function ManageApplicationsSection() {
  const grants = usePartnerSettingsStore((s) => s.grants);
  const failed = usePartnerSettingsStore((s) => s.grantsFailed);
  useEffect(() => {
    void openGrants();
  }, []);
  if (failed) return <EmptyState title="Failed to load your applications">Reload the page to try again.</EmptyState>;
  if (!grants) return null;
  if (grants.length === 0) {
    return (
      <EmptyState icon={<AppWindow size={32} />} title="No applications">
        Applications and devices you allow to use your account appear here.
      </EmptyState>
    );
  }
  return (
    <ul className={styles.list} aria-label="Authorized applications">
      {grants.map((grant) => (
        <li key={grant.id} className={styles.item} aria-label={grant.application.name}>
          <div className={styles.itemMain}>
            <span className={styles.itemTitle}>{grant.application.name}</span>
            <span className={styles.badges}>
              {grant.scopes.map((s) => (
                <span key={s.id} className={styles.badge}>
                  {s.label}
                </span>
              ))}
            </span>
            <span className={styles.hint}>
              Allowed {when(grant.createdAt)}
              {grant.lastUsedAt ? ` · last used ${when(grant.lastUsedAt)}` : ''}
            </span>
          </div>
          <Button onClick={() => void revokeGrant(grant)}>Revoke</Button>
        </li>
      ))}
    </ul>
  );
}
