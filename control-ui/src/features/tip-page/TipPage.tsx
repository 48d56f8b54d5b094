import { HandCoins } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { formatMoney, TIP_MESSAGE_MAX, TIP_NAME_MAX, TIPS_NOT_AVAILABLE, type TipPage as TipPageView } from '@onair/protocol';
import { loadTipPage, startTip } from '../../actions/money.ts';
import { Brand } from '../../components/Brand.tsx';
import { Button } from '../../components/Button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import card from '../../styles/CardPage.module.css';
import styles from '../partner-home/Partner.module.css';
import { Input, TextArea } from '../../components/FormField.tsx';

/** "12.50" → 1250; anything unreadable becomes NaN and the api says why. */
export function toMinor(text: string): number {
  const cleaned = text.replace(/[\s,$€£]/g, '').replace('−', '-');
  if (!/^-?\d+(\.\d{1,2})?$/.test(cleaned)) return Number.NaN;
  return Math.round(Number(cleaned) * 100);
}

/**
 * A creator's tip page (partner spec §1 tips), a direct public link: name, message and an amount
 * within the creator's limits, paid on Stripe's hosted page; back here with thanks. When tipping
 * is switched off it says 'Tips Not Available' and why.
 */
export function TipPage() {
  const { creatorId = '' } = useParams();
  const [params] = useSearchParams();
  const [page, setPage] = useState<TipPageView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [message, setMessage] = useState('');
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  useDocumentTitle(page ? `Tip ${page.creatorName}` : 'Tip');
  useEffect(() => {
    void loadTipPage(creatorId).then((r) => (r.ok ? setPage(r.value) : setLoadError(r.message)));
  }, [creatorId]);
  const thanked = params.has('tip');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    const minor = toMinor(amount);
    const result = await startTip(creatorId, { name, message, amount: Number.isNaN(minor) ? 0 : minor });
    setPending(false);
    if (result.ok) {
      window.location.assign(result.value.url);
      return;
    }
    setErrors(Number.isNaN(minor) ? { ...result.fieldErrors, amount: 'Enter an amount such as 5 or 12.50' } : result.fieldErrors);
    setFormError(result.message);
  };

  return (
    <main className={card.screen}>
      <div className={card.card}>
        <Brand />
        {loadError && (
          <p role="alert" className={card.lead}>
            {loadError}
          </p>
        )}
        {page && !page.available && (
          <>
            <h1 className={card.title}>{TIPS_NOT_AVAILABLE}</h1>
            <p className={card.lead}>{page.unavailableReason}</p>
          </>
        )}
        {page && page.available && thanked && (
          <>
            <HandCoins size={32} className={card.icon} aria-hidden />
            <h1 className={card.title}>Thank you!</h1>
            <p className={card.lead}>Your tip to {page.creatorName} was sent. It shows on stream in a moment.</p>
          </>
        )}
        {page && page.available && !thanked && (
          <>
            <h1 className={card.title}>Tip {page.creatorName}</h1>
            <p className={card.lead}>
              From {formatMoney(page.minTip, page.currency)} to {formatMoney(page.maxTip, page.currency)}. Your name and message may appear on stream.
              {page.testMode && ' Test mode: no real payment is taken.'}
            </p>
            <form className={card.form} onSubmit={(e) => void submit(e)} noValidate>
              <label className={styles.label} htmlFor="tip-name">
                Your name
              </label>
              <Input
                id="tip-name"
                className={styles.input}
                value={name}
                maxLength={TIP_NAME_MAX}
                aria-invalid={!!errors.name}
                onChange={(e) => setName(e.target.value)}
              />
              {errors.name && (
                <span className={styles.fieldError} role="alert">
                  {errors.name}
                </span>
              )}
              <label className={styles.label} htmlFor="tip-amount">
                Amount ({page.currency.toUpperCase()})
              </label>
              <Input
                id="tip-amount"
                className={styles.input}
                inputMode="decimal"
                value={amount}
                placeholder={(page.minTip / 100).toFixed(2)}
                aria-invalid={!!errors.amount}
                onChange={(e) => setAmount(e.target.value)}
              />
              {errors.amount && (
                <span className={styles.fieldError} role="alert">
                  {errors.amount}
                </span>
              )}
              <label className={styles.label} htmlFor="tip-message">
                Message (optional)
              </label>
              <TextArea
                id="tip-message"
                className={`${styles.input} ${styles.textarea}`}
                value={message}
                maxLength={TIP_MESSAGE_MAX}
                rows={3}
                onChange={(e) => setMessage(e.target.value)}
              />
              {formError && !errors.amount && !errors.name && (
                <span className={styles.formError} role="alert">
                  {formError}
                </span>
              )}
              <Button type="submit" variant="primary" disabled={pending}>
                Continue to payment
              </Button>
            </form>
          </>
        )}
      </div>
    </main>
  );
}
