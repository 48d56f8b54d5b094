import { Crown } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { setVip } from '../../actions/billing.ts';
import { Button } from '../../components/Button.tsx';
import styles from './VipGrants.module.css';
import { Input } from '../../components/FormField.tsx';

/**
 * Spec §2: VIP is not sold; an administrator grants it to an account, or takes it back (audited on
 * the server). The page puts it in a card labelled by its heading (#vip-heading).
 */
export function VipGrants() {
  const [email, setEmail] = useState('');
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = (vip: boolean) => async (event?: FormEvent) => {
    event?.preventDefault();
    setPending(true);
    setResult(await setVip(email, vip));
    setPending(false);
  };
  return (
    <div className={styles.grants}>
      <h2 id="vip-heading" className={styles.heading}>
        <Crown size={18} aria-hidden /> VIP plan
      </h2>
      <p className={styles.muted}>VIP is not sold: grant it to an account here, or take it back. Every change is recorded with who made it.</p>
      <form className={styles.form} onSubmit={(e) => void submit(true)(e)}>
        <label htmlFor="vip-email">Account e-mail</label>
        <Input id="vip-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} placeholder="creator@example.com" />
        <Button type="submit" variant="primary" disabled={pending || email.trim() === ''}>
          Grant VIP
        </Button>
        <Button disabled={pending || email.trim() === ''} onClick={() => void submit(false)()}>
          Take VIP back
        </Button>
      </form>
      {result && (
        <p role={result.ok ? 'status' : 'alert'} className={result.ok ? styles.ok : styles.error}>
          {result.text}
        </p>
      )}
    </div>
  );
}
