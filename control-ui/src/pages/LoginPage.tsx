import { Mail } from 'lucide-react';
import { useId } from 'react';
import { Brand } from '../components/Brand.tsx';
import { Button } from '../components/Button.tsx';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import styles from './CardPage.module.css';

/**
 * The sign-in screen's layout: passwordless sign-in by e-mail code (spec §1). The form stays
 * disabled, and says why, until the api has a sign-in endpoint to send it to.
 */
export function LoginPage() {
  useDocumentTitle('Sign in');
  const emailId = useId();
  const noticeId = useId();
  return (
    <main className={styles.screen}>
      <div className={styles.card}>
        <Brand />
        <h1 className={styles.title}>Sign in to OnAir</h1>
        <p className={styles.lead}>We e-mail you a one-time code; no password needed.</p>
        <form className={styles.form} onSubmit={(event) => event.preventDefault()} aria-describedby={noticeId}>
          <label htmlFor={emailId} className={styles.label}>
            E-mail
          </label>
          <input id={emailId} type="email" name="email" autoComplete="email" placeholder="you@example.com" className={styles.input} disabled />
          <Button type="submit" variant="primary" disabled>
            <Mail size={16} aria-hidden />
            Email me a code
          </Button>
        </form>
        <p id={noticeId} className={styles.notice} role="note">
          Sign-in is not available on this server yet.
        </p>
      </div>
    </main>
  );
}
