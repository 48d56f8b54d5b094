import { Mail, UserPlus } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import type { OAuthProviderId } from '@onair/protocol';
import { joinWaitlist, loadSignInMethods, requestEmailCode, restartSignIn, setSignInReturn, startOAuth, submitEmailCode } from '../actions/session.ts';
import { Brand } from '../components/Brand.tsx';
import { Button } from '../components/Button.tsx';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import { SIGNUP_EXPIRED_NOTICE } from '../model/partner.ts';
import { useSessionStore } from '../stores/index.ts';
import card from '../styles/CardPage.module.css';
import styles from './LoginPage.module.css';
import { Input } from '../components/FormField.tsx';

const NO_PROVIDERS: never[] = [];
const providerLabels: Record<OAuthProviderId, string> = {
  twitch: 'Sign up with Twitch',
  google: 'Sign up with YouTube (Google)',
  facebook: 'Sign up with Facebook',
};
/** The codes that mean the signup request (its code) is no longer valid. */
const EXPIRED = new Set(['CODE_EXPIRED', 'LINK_INVALID', 'CODE_ATTEMPTS_EXCEEDED']);

function Notice() {
  const { error, errorCode } = useSessionStore((s) => s.signIn);
  if (!error) return null;
  const expired = errorCode !== null && EXPIRED.has(errorCode);
  return (
    <p className={styles.error} role="alert" data-testid="signup-notice">
      {expired ? SIGNUP_EXPIRED_NOTICE : error}
      {expired && (
        <>
          {' '}
          <button type="button" className={styles.linkButton} onClick={restartSignIn}>
            Start again
          </button>
        </>
      )}
    </p>
  );
}

/** Waitlist mode: the address goes on the list, and the Waitlist page says so. */
function WaitlistForm() {
  const id = useId();
  const navigate = useNavigate();
  const pending = useSessionStore((s) => s.signIn.pending);
  const [email, setEmail] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await joinWaitlist(email)) void navigate('/waitlist');
  };
  return (
    <>
      <h1 className={card.title}>Create your OnAir account</h1>
      <p className={card.lead}>New accounts open from the waitlist. Leave your e-mail address and we write when yours is ready.</p>
      <form className={styles.form} onSubmit={(e) => void submit(e)} aria-label="Join the waitlist">
        <label htmlFor={id} className={styles.label}>
          E-mail
        </label>
        <Input id={id} type="email" autoComplete="email" className={styles.input} value={email} onChange={(e) => setEmail(e.target.value)} required />
        <Button type="submit" variant="primary" disabled={pending || email.trim() === ''}>
          <UserPlus size={16} aria-hidden />
          Join the waitlist
        </Button>
      </form>
      <Notice />
    </>
  );
}

/** Signing up is open: a code by e-mail makes the account at its first use, or a platform's sign-in does. */
function OpenSignup() {
  const id = useId();
  const { step, email: sentTo, pending } = useSessionStore((s) => s.signIn);
  const oauth = useSessionStore((s) => s.methods?.oauth) ?? NO_PROVIDERS;
  const [email, setEmail] = useState(sentTo);
  const [code, setCode] = useState('');
  if (step === 'code')
    return (
      <>
        <h1 className={card.title}>Confirm your e-mail</h1>
        <p className={card.lead}>We sent a 6-digit code to {sentTo}. Enter it to create your account.</p>
        <form
          className={styles.form}
          onSubmit={(e) => {
            e.preventDefault();
            void submitEmailCode(code);
          }}
        >
          <label htmlFor={id} className={styles.label}>
            Code
          </label>
          <Input
            id={id}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            className={`${styles.input} ${styles.code}`}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
          />
          <Button type="submit" variant="primary" disabled={pending || code.length !== 6}>
            Create account
          </Button>
        </form>
        <Notice />
      </>
    );
  return (
    <>
      <h1 className={card.title}>Create your OnAir account</h1>
      <p className={card.lead}>One e-mail address, no password: we send you a code.</p>
      <form
        className={styles.form}
        onSubmit={(e) => {
          e.preventDefault();
          void requestEmailCode(email);
        }}
        aria-label="Sign up"
      >
        <label htmlFor={id} className={styles.label}>
          E-mail
        </label>
        <Input id={id} type="email" autoComplete="email" className={styles.input} value={email} onChange={(e) => setEmail(e.target.value)} required />
        <Button type="submit" variant="primary" disabled={pending || email.trim() === ''}>
          <Mail size={16} aria-hidden />
          Email me a code
        </Button>
      </form>
      <Notice />
      {oauth.length > 0 && (
        <>
          <div className={styles.divider}>or</div>
          <div className={styles.providers}>
            {oauth.map((provider) => (
              <Button key={provider.id} disabled={pending} onClick={() => void startOAuth(provider.id)}>
                {providerLabels[provider.id]}
              </Button>
            ))}
          </div>
        </>
      )}
    </>
  );
}

/**
 * Partner spec §2 auth pages: Signup. Open installations make the account at the first code (or
 * platform sign-in) and go on to Get Started; with SIGNUP_MODE=waitlist the address joins the
 * waitlist. §8's notices: the signup request expired, a platform login failed.
 */
export function SignupPage() {
  const pending = useSessionStore((s) => s.signIn.pending);
  useDocumentTitle(pending ? 'Logging in' : 'Auth');
  const ready = useSessionStore((s) => s.ready);
  const loggedIn = useSessionStore((s) => s.loggedIn);
  const mode = useSessionStore((s) => s.methods?.signup ?? null);
  useEffect(() => {
    setSignInReturn('/partner');
    void loadSignInMethods();
  }, []);
  if (ready && loggedIn) return <Navigate to="/partner" replace />;
  return (
    <main className={card.screen}>
      <div className={card.card}>
        <Brand />
        {mode === 'waitlist' ? <WaitlistForm /> : mode === 'open' ? <OpenSignup /> : null}
        <p className={styles.hint}>
          Already have an account? <Link to="/login?next=%2Fpartner">Sign in</Link>
        </p>
      </div>
    </main>
  );
}

/** Partner spec §2 Waitlist: the notice after joining it. */
export function WaitlistPage() {
  useDocumentTitle('Waitlist');
  const email = useSessionStore((s) => s.signIn.email);
  return (
    <main className={card.screen}>
      <div className={card.card}>
        <Brand />
        <h1 className={card.title}>You are on the waitlist</h1>
        <p className={card.lead} role="status">
          {email ? `We will write to ${email} when your account is ready.` : 'We will write to you when your account is ready.'} Until then there is nothing
          else to do.
        </p>
        <p className={styles.hint}>
          <Link to="/">Back to the home page</Link>
        </p>
      </div>
    </main>
  );
}
