import { AppWindow } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import type { Grant } from '@onair/protocol';
import { loadGrants, revokeGrant } from '../../actions/partner-applications.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import styles from '../partner-home/Partner.module.css';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Settings › Manage Applications: the applications the creator authorized, each revocable. */
export function ManageApplicationsSection() {
  const [grants, setGrants] = useState<Grant[] | null>(null);
  const [failed, setFailed] = useState(false);
  const refresh = useCallback(async () => {
    const answer = await loadGrants();
    if (answer) setGrants(answer);
    else setFailed(true);
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
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
          <Button onClick={() => void revokeGrant(grant).then(refresh)}>Revoke</Button>
        </li>
      ))}
    </ul>
  );
}
