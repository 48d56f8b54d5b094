import { Link, useLocation } from 'react-router';
import { Brand } from '../../components/Brand.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import styles from '../partner-home/Partner.module.css';

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' });

/** After deleting: when the data goes, and how to come back before then. */
export function AccountDeletedPage() {
  useDocumentTitle('Account deleted');
  const state = useLocation().state as { eraseAfter?: string | null; retentionDays?: number } | null;
  return (
    <div className={styles.onboarding}>
      <Brand />
      <h1 className={styles.title}>Your account is deleted</h1>
      <section className={styles.card}>
        {state?.eraseAfter ? (
          <p role="status">
            You are signed out everywhere. Your data will be erased on <strong>{day(state.eraseAfter)}</strong>.
          </p>
        ) : (
          <p role="status">You are signed out everywhere. Your data will be erased after the retention window.</p>
        )}
        <p className={styles.muted}>Changed your mind? Sign in before then and confirm to reactivate your account.</p>
        <Link to="/login?next=%2Fpartner">Sign in</Link>
      </section>
    </div>
  );
}
