import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { SHORT_CODE_LENGTH, type Consent } from '@onair/protocol';
import { answerShortCode, lookupShortCode, type Refusal } from '../../actions/partner-applications.ts';
import { Button } from '../../components/Button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import styles from '../partner-home/Partner.module.css';
import { ConsentCard, RefusalCard } from './AuthorizePage.tsx';
import { Input } from '../../components/FormField.tsx';

/** Partner spec §2 auth page 'short-code authorize': the 6-character code a device shows. */
export function DevicePage() {
  useDocumentTitle('Connect a device');
  const id = useId();
  const [params] = useSearchParams();
  const [code, setCode] = useState(params.get('code') ?? '');
  const [consent, setConsent] = useState<Omit<Consent, 'redirectUri'> | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [done, setDone] = useState<boolean | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    const answer = await lookupShortCode(code);
    setPending(false);
    if (answer.ok) {
      setConsent(answer.consent);
      setRefusal(null);
    } else setRefusal(answer.refusal);
  };
  const answer = async (allowed: boolean) => {
    setPending(true);
    const failed = await answerShortCode(code, allowed);
    setPending(false);
    if (failed) setRefusal(failed);
    else setDone(allowed);
  };

  return (
    <div className={styles.onboarding}>
      <h1 className={styles.title}>Connect a device</h1>
      {done !== null ? (
        <section className={styles.card} role="status">
          {done ? 'Your device is connected. You can go back to it now.' : 'The device was not connected.'}
        </section>
      ) : consent ? (
        <ConsentCard consent={consent} pending={pending} onAnswer={(allowed) => void answer(allowed)} />
      ) : (
        <form className={styles.card} onSubmit={(e) => void submit(e)}>
          <label className={styles.label} htmlFor={id}>
            Enter the {SHORT_CODE_LENGTH}-character code shown on your device
          </label>
          <Input
            id={id}
            className={styles.input}
            value={code}
            autoComplete="off"
            autoCapitalize="characters"
            maxLength={SHORT_CODE_LENGTH + 2}
            onChange={(e) => setCode(e.target.value)}
          />
          <div className={styles.actions}>
            <Button type="submit" variant="primary" disabled={pending || code.trim() === ''}>
              Continue
            </Button>
          </div>
        </form>
      )}
      {refusal && <RefusalCard refusal={refusal} />}
    </div>
  );
}
