import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { AuthorizeRequest, Consent } from '@onair/protocol';
import { answerAuthorizeRequest, closeAuthorizeRequest, openAuthorizeRequest, type Refusal } from '../../actions/partner-applications.ts';
import { Button } from '../../components/Button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useAuthorizeStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';

const keys = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

export function ConsentCard({ consent, pending, onAnswer }: { consent: Omit<Consent, 'redirectUri'>; pending: boolean; onAnswer: (allowed: boolean) => void }) {
  return (
    <section className={styles.card} aria-label="Authorize application">
      <h2 className={styles.cardTitle}>{consent.application.name} wants to use your OnAir account</h2>
      <p className={styles.muted}>It will be able to:</p>
      <ul className={styles.list}>
        {consent.scopes.map((s) => (
          <li key={s.id} className={styles.item}>
            {s.label}
          </li>
        ))}
      </ul>
      <p className={styles.hint}>You can take this back any time in Settings › Manage Applications.</p>
      <div className={styles.actions}>
        <Button disabled={pending} onClick={() => onAnswer(false)}>
          Deny
        </Button>
        <Button variant="primary" disabled={pending} onClick={() => onAnswer(true)}>
          Allow
        </Button>
      </div>
    </section>
  );
}

export function RefusalCard({ refusal }: { refusal: Refusal }) {
  return (
    <section className={styles.card} role="alert">
      <p>{refusal.message}</p>
      <p className={styles.hint}>Error code: {refusal.code}</p>
    </section>
  );
}

/** Partner spec §2 auth page 'OAuth authorize': a registered application asks for access. */
export function AuthorizePage() {
  useDocumentTitle('Authorize');
  const [params] = useSearchParams();
  const state = useAuthorizeStore((s) => s.answer);
  const [pending, setPending] = useState(false);
  const request: AuthorizeRequest = Object.fromEntries(keys.flatMap((k) => (params.has(k) ? [[k, params.get(k) ?? '']] : [])));
  const query = params.toString();
  useEffect(() => {
    void openAuthorizeRequest(Object.fromEntries(new URLSearchParams(query)));
  }, [query]);
  useEffect(() => closeAuthorizeRequest, []);
  const answer = async (allowed: boolean) => {
    setPending(true);
    const refusal = await answerAuthorizeRequest(request, allowed);
    if (refusal) setPending(false);
  };
  return (
    <div className={styles.onboarding}>
      <h1 className={styles.title}>Authorize</h1>
      {state && 'consent' in state && <ConsentCard consent={state.consent} pending={pending} onAnswer={(allowed) => void answer(allowed)} />}
      {state && 'refusal' in state && <RefusalCard refusal={state.refusal} />}
    </div>
  );
}
