import { useEffect, useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { loadDeletionStatus, requestAccountDeletion } from '../../actions/partner-deletion.ts';
import { Button } from '../../components/Button.tsx';
import { usePartnerSettingsStore, usePartnerStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';
import { Input } from '../../components/FormField.tsx';

/** Partner spec §2 'Account deletion', §5: type the own username; deactivated at once, erased after the window. */
export function DeleteAccountSection() {
  const id = useId();
  const navigate = useNavigate();
  const account = usePartnerStore((s) => s.account);
  const status = usePartnerSettingsStore((s) => s.deletion);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    void loadDeletionStatus();
  }, []);
  if (!status || !account) return null;
  const byUsername = status.confirmWith === 'username';
  const expected = byUsername ? (account.profile?.username ?? '') : account.email;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    const result = await requestAccountDeletion(typed);
    setPending(false);
    if (result.ok)
      void navigate('/account-deleted', { replace: true, state: { eraseAfter: result.value.eraseAfter, retentionDays: result.value.retentionDays } });
    else setError(result.message);
  };

  return (
    <form className={styles.subsection} onSubmit={(e) => void submit(e)}>
      <h3 className={styles.itemTitle}>Delete account</h3>
      <p className={styles.muted}>
        Your account is deactivated at once: you are signed out everywhere, your channel and collaborations stop, and your public pages are hidden. Your data is
        erased for good {status.retentionDays} days later. Signing in before then lets you reactivate it.
      </p>
      <label className={styles.label} htmlFor={id}>
        Type your {byUsername ? 'username' : 'e-mail address'} <strong>{expected}</strong> to confirm
      </label>
      <Input id={id} className={styles.input} value={typed} autoComplete="off" aria-invalid={!!error} onChange={(e) => setTyped(e.target.value)} />
      {error && (
        <span className={styles.fieldError} role="alert">
          {error}
        </span>
      )}
      <div>
        <Button type="submit" variant="primary" disabled={pending || typed.trim().toLowerCase() !== expected.toLowerCase()}>
          Delete my account
        </Button>
      </div>
    </form>
  );
}
