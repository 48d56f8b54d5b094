import { KeyRound, Mail, MailCheck, MessageSquare, ShieldCheck } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import type { OAuthProviderId } from '@onair/protocol';
import { safeReturnPath } from '../model/partner.ts';
import {
  chooseSignInPath,
  loadSignInMethods,
  requestEmailCode,
  requestMagicLink,
  requestSmsCode,
  restartSignIn,
  setSignInReturn,
  startOAuth,
  submitEmailCode,
  submitSecondFactor,
  submitSmsCode,
} from '../actions/session.ts';
import { Brand } from '../components/Brand.tsx';
import { Button } from '../components/Button.tsx';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import { useSessionStore } from '../stores/index.ts';
import card from '../styles/CardPage.module.css';
import styles from './LoginPage.module.css';
import { Input } from '../components/FormField.tsx';

// Selectors must return stable values (zustand re-renders on every new reference).
const NO_PROVIDERS: never[] = [];

const providerLabels: Record<OAuthProviderId, string> = {
  twitch: 'Continue with Twitch',
  google: 'Continue with YouTube (Google)',
  facebook: 'Continue with Facebook',
};

function ErrorNote() {
  const error = useSessionStore((s) => s.signIn.error);
  return error ? (
    <p className={styles.error} role="alert">
      {error}
    </p>
  ) : null;
}

function DevInboxHint() {
  const devInbox = useSessionStore((s) => s.methods?.devInbox ?? false);
  if (!devInbox) return null;
  return (
    <p className={styles.hint}>
      This server keeps mail instead of sending it: open the{' '}
      <Link to="/dev/inbox" target="_blank" rel="noreferrer">
        development inbox
      </Link>
      .
    </p>
  );
}

function EmailStep() {
  const emailId = useId();
  const { email: remembered, pending } = useSessionStore((s) => s.signIn);
  const oauth = useSessionStore((s) => s.methods?.oauth) ?? NO_PROVIDERS;
  const sms = useSessionStore((s) => s.methods?.sms ?? false);
  const [email, setEmail] = useState(remembered);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void requestEmailCode(email);
  };
  return (
    <>
      <h1 className={card.title}>Sign in to OnAir</h1>
      <p className={card.lead}>We e-mail you a one-time code; no password needed.</p>
      <form className={styles.form} onSubmit={submit}>
        <label htmlFor={emailId} className={styles.label}>
          E-mail
        </label>
        <Input
          id={emailId}
          type="email"
          name="email"
          autoComplete="email"
          placeholder="you@example.com"
          className={styles.input}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
        <Button type="submit" variant="primary" disabled={pending || email.trim() === ''}>
          <Mail size={16} aria-hidden />
          Email me a code
        </Button>
      </form>
      <div className={styles.links}>
        <button type="button" className={styles.linkButton} disabled={pending || email.trim() === ''} onClick={() => void requestMagicLink(email)}>
          Email me a sign-in link instead
        </button>
        {sms && (
          <button type="button" className={styles.linkButton} onClick={() => chooseSignInPath('phone')}>
            Text me a code instead
          </button>
        )}
      </div>
      <ErrorNote />
      <p className={styles.hint}>
        New to OnAir? <Link to="/signup">Create an account</Link>
      </p>
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

function CodeStep() {
  const { email, pending } = useSessionStore((s) => s.signIn);
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void submitEmailCode(code);
  };
  return (
    <>
      <h1 className={card.title}>Check your e-mail</h1>
      <p className={card.lead}>We sent a 6-digit code to {email}. It expires in a few minutes.</p>
      <form className={styles.form} onSubmit={submit}>
        <CodeField code={code} onChange={setCode} pending={pending} />
      </form>
      <ErrorNote />
      <div className={styles.links}>
        <button type="button" className={styles.linkButton} disabled={pending} onClick={() => void requestEmailCode(email)}>
          Send a new code
        </button>
        <button type="button" className={styles.linkButton} onClick={restartSignIn}>
          Use another e-mail
        </button>
      </div>
      <DevInboxHint />
    </>
  );
}

/** The 6-digit code a sign-in sent (by e-mail or text message), and the button that signs in with it. */
function CodeField({ code, onChange, pending }: { code: string; onChange: (code: string) => void; pending: boolean }) {
  const codeId = useId();
  return (
    <>
      <label htmlFor={codeId} className={styles.label}>
        Code
      </label>
      <Input
        id={codeId}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        className={`${styles.input} ${styles.code}`}
        value={code}
        onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))}
        autoFocus
        required
      />
      <Button type="submit" variant="primary" disabled={pending || code.length !== 6}>
        <KeyRound size={16} aria-hidden />
        Sign in
      </Button>
    </>
  );
}

/** SMS sign-in, for accounts that added and verified a phone number on the Account page. */
function PhoneStep() {
  const phoneId = useId();
  const { step, phoneNumber, pending } = useSessionStore((s) => s.signIn);
  const [number, setNumber] = useState(phoneNumber);
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void (step === 'phone' ? requestSmsCode(number) : submitSmsCode(code));
  };
  return (
    <>
      <MessageSquare size={32} className={card.icon} aria-hidden />
      <h1 className={card.title}>{step === 'phone' ? 'Sign in with your phone' : 'Check your messages'}</h1>
      <p className={card.lead}>
        {step === 'phone' ? 'For accounts with a verified phone number. We text you a one-time code.' : `We sent a 6-digit code to ${phoneNumber}.`}
      </p>
      <form className={styles.form} onSubmit={submit}>
        {step === 'phone' ? (
          <>
            <label htmlFor={phoneId} className={styles.label}>
              Phone number
            </label>
            <Input
              id={phoneId}
              type="tel"
              autoComplete="tel"
              placeholder="+15551234567"
              className={styles.input}
              value={number}
              onChange={(e) => setNumber(e.target.value)}
              required
            />
            <Button type="submit" variant="primary" disabled={pending || number.trim() === ''}>
              <MessageSquare size={16} aria-hidden />
              Text me a code
            </Button>
          </>
        ) : (
          <CodeField code={code} onChange={setCode} pending={pending} />
        )}
      </form>
      <ErrorNote />
      <div className={styles.links}>
        <button type="button" className={styles.linkButton} onClick={() => chooseSignInPath('email')}>
          Use your e-mail instead
        </button>
      </div>
      {step === 'phone-code' && <DevInboxHint />}
    </>
  );
}

function LinkSentStep() {
  const email = useSessionStore((s) => s.signIn.email);
  return (
    <>
      <MailCheck size={32} className={card.icon} aria-hidden />
      <h1 className={card.title}>Check your e-mail</h1>
      <p className={card.lead}>We sent a sign-in link to {email}. Open it on this device; it works once.</p>
      <ErrorNote />
      <div className={styles.links}>
        <button type="button" className={styles.linkButton} onClick={restartSignIn}>
          Back to sign-in
        </button>
      </div>
      <DevInboxHint />
    </>
  );
}

function SecondFactorStep() {
  const codeId = useId();
  const pending = useSessionStore((s) => s.signIn.pending);
  const [kind, setKind] = useState<'totp' | 'recovery'>('totp');
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void submitSecondFactor(code, kind);
  };
  return (
    <>
      <ShieldCheck size={32} className={card.icon} aria-hidden />
      <h1 className={card.title}>Two-step verification</h1>
      <p className={card.lead}>
        {kind === 'totp' ? 'Enter the 6-digit code from your authenticator app.' : 'Enter one of your recovery codes. Each works once.'}
      </p>
      <form className={styles.form} onSubmit={submit}>
        <label htmlFor={codeId} className={styles.label}>
          {kind === 'totp' ? 'Authentication code' : 'Recovery code'}
        </label>
        <Input
          id={codeId}
          name="code"
          autoComplete="one-time-code"
          className={`${styles.input} ${styles.code}`}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoFocus
          required
        />
        <Button type="submit" variant="primary" disabled={pending || code.trim() === ''}>
          Verify
        </Button>
      </form>
      <ErrorNote />
      <div className={styles.links}>
        <button
          type="button"
          className={styles.linkButton}
          onClick={() => {
            setKind(kind === 'totp' ? 'recovery' : 'totp');
            setCode('');
          }}
        >
          {kind === 'totp' ? 'Use a recovery code' : 'Use your authenticator app'}
        </button>
        <button type="button" className={styles.linkButton} onClick={restartSignIn}>
          Start over
        </button>
      </div>
    </>
  );
}

/** The sign-in screen (spec §1, §4): e-mail code or magic link, OAuth providers, then MFA when on. */
export function LoginPage() {
  const ready = useSessionStore((s) => s.ready);
  // Partner spec §2 route titles: the auth pages are Auth; a sign-in on its way is Logging in.
  const signingIn = useSessionStore((s) => s.signIn.pending);
  useDocumentTitle(signingIn ? 'Logging in' : 'Auth');
  const loggedIn = useSessionStore((s) => s.loggedIn);
  const step = useSessionStore((s) => s.signIn.step);
  const [params] = useSearchParams();
  const next = params.get('next');
  useEffect(() => void loadSignInMethods(), []);
  useEffect(() => setSignInReturn(next), [next]);
  const pendingDeletion = useSessionStore((s) => s.pendingDeletion);
  if (pendingDeletion) return <Navigate to={`/reactivate?next=${encodeURIComponent(safeReturnPath(next))}`} replace />;
  if (ready && loggedIn) return <Navigate to={safeReturnPath(next)} replace />;
  return (
    <main className={card.screen}>
      <div className={card.card}>
        <Brand />
        {step === 'email' && <EmailStep />}
        {step === 'code' && <CodeStep />}
        {step === 'link-sent' && <LinkSentStep />}
        {(step === 'phone' || step === 'phone-code') && <PhoneStep />}
        {step === 'mfa' && <SecondFactorStep />}
      </div>
    </main>
  );
}
