import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { loadDeletionStatus, reactivateAccount } from '../../actions/partner-deletion.ts';
import { signOut } from '../../actions/session.ts';
import { Brand } from '../../components/Brand.tsx';
import { Button } from '../../components/Button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { safeReturnPath } from '../../model/partner.ts';
import { usePartnerSettingsStore, useSessionStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' });

/** Partner spec §4: another connection to an account pending deletion requires confirmation. */
export function ReactivatePage() {
  useDocumentTitle('Reactivate your account');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const ready = useSessionStore((s) => s.ready);
  const pendingDeletion = useSessionStore((s) => s.pendingDeletion);
  const status = usePartnerSettingsStore((s) => s.deletion);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    void loadDeletionStatus();
  }, []);
  if (!ready) return null;
  if (!pendingDeletion) return <Navigate to="/login" replace />;

  const reactivate = async () => {
    setPending(true);
    const result = await reactivateAccount();
    setPending(false);
    if (result.ok) void navigate(safeReturnPath(params.get('next')), { replace: true });
    else setError(result.message);
  };
  return (
    <div className={styles.onboarding}>
      <Brand />
      <h1 className={styles.title}>Reactivate your account?</h1>
      <section className={styles.card}>
        <p>
          This account was deleted
          {status?.eraseAfter ? (
            <>
              {' '}
              and will be erased on <strong>{day(status.eraseAfter)}</strong>
            </>
          ) : null}
          . Reactivate it to keep your data and use OnAir again.
        </p>
        {error && (
          <p role="alert" className={styles.formError}>
            {error}
          </p>
        )}
        <div className={styles.actions}>
          <Button onClick={() => void signOut().then(() => navigate('/login', { replace: true }))}>Sign out</Button>
          <Button variant="primary" disabled={pending} onClick={() => void reactivate()}>
            Reactivate account
          </Button>
        </div>
      </section>
    </div>
  );
}
