import { useEffect, useState, type FormEvent } from 'react';
import { countryCodes, moneyCurrencies, type PaymentMethodView } from '@onair/protocol';
import {
  addPaymentMethod,
  closeTaxInterview,
  openPaymentMethods,
  openTaxInterview,
  removePaymentMethod,
  setDefaultPaymentMethod,
  submitTaxInterview,
} from '../../actions/money.ts';
import { Button } from '../../components/Button.tsx';
import { FormField, Input, TextField } from '../../components/FormField.tsx';
import { Select } from '../../components/Select.tsx';
import { usePartnerStore, usePayoutsStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });
const countries = countryCodes.map((code) => ({ value: code, label: countryNames.of(code) ?? code })).sort((a, b) => a.label.localeCompare(b.label));
const ENTITY_TYPES = [
  { value: 'individual', label: 'An individual' },
  { value: 'business', label: 'A business' },
];
const BANK_REGIONS = [
  { value: 'usa', label: 'USA' },
  { value: 'international', label: 'International' },
];
const currencies = moneyCurrencies.map((c) => ({ value: c, label: c.toUpperCase() }));

/** Settings › Payout information: the tax interview and the payment methods (partner spec §3). */
export function PayoutInformationSection() {
  const channelId = usePartnerStore((s) => s.channels.find((c) => c.owner)?.id ?? null);
  if (!channelId) return null;
  return (
    <>
      <TaxInterviewForm channelId={channelId} />
      <PaymentMethods channelId={channelId} />
    </>
  );
}

export function TaxInterviewForm({ channelId, onDone }: { channelId: string; onDone?: () => void }) {
  const view = usePayoutsStore((s) => s.taxInterview);
  const loadError = usePayoutsStore((s) => s.taxInterviewError);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState({ legalName: '', entityType: 'individual', taxCountry: 'US', taxId: '', certify: false });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  useEffect(() => {
    void openTaxInterview(channelId);
    return closeTaxInterview;
  }, [channelId]);
  if (!view) return loadError ? <p role="alert">{loadError}</p> : null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await submitTaxInterview(channelId, draft);
    if (result.ok) {
      setEditing(false);
      setErrors({});
      setFormError(null);
      onDone?.();
    } else {
      setErrors(result.fieldErrors);
      setFormError(result.message);
    }
  };
  return (
    <div className={styles.subsection} aria-label="Tax interview" role="region">
      <h3 className={styles.cardTitle}>Tax interview</h3>
      {view.completed && !editing ? (
        <div className={styles.item}>
          <div className={styles.itemMain}>
            <span className={styles.itemTitle}>Completed</span>
            <span className={styles.hint}>
              {view.legalName} · {view.entityType} · {view.taxCountry} · tax id ending in {view.taxIdLast4}
            </span>
          </div>
          <Button onClick={() => setEditing(true)}>Redo</Button>
        </div>
      ) : (
        <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate aria-label="Tax interview form">
          <p className={`${styles.muted} ${styles.full}`}>
            Payouts need your tax details first. They are kept encrypted and shown only by their last four characters.
          </p>
          <TextField
            id="tax-name"
            label="Legal name"
            error={errors.legalName}
            value={draft.legalName}
            maxLength={64}
            onChange={(legalName) => setDraft({ ...draft, legalName })}
          />
          <FormField id="tax-type" label="You are" error={errors.entityType}>
            <Select id="tax-type" value={draft.entityType} options={ENTITY_TYPES} onValueChange={(entityType) => setDraft({ ...draft, entityType })} />
          </FormField>
          <FormField id="tax-country" label="Country of tax residence" error={errors.taxCountry}>
            <Select id="tax-country" value={draft.taxCountry} options={countries} onValueChange={(taxCountry) => setDraft({ ...draft, taxCountry })} />
          </FormField>
          <TextField
            id="tax-id"
            label="Tax identification number"
            error={errors.taxId}
            value={draft.taxId}
            maxLength={20}
            onChange={(taxId) => setDraft({ ...draft, taxId })}
          />
          <label className={`${styles.check} ${styles.full}`}>
            <input type="checkbox" checked={draft.certify} onChange={(e) => setDraft({ ...draft, certify: e.target.checked })} />I confirm that this information
            is correct.
          </label>
          {errors.certify && (
            <span className={`${styles.fieldError} ${styles.full}`} role="alert">
              {errors.certify}
            </span>
          )}
          <div className={`${styles.actions} ${styles.full}`}>
            {formError && (
              <span className={styles.formError} role="alert">
                {formError}
              </span>
            )}
            <Button type="submit" variant="primary">
              Complete tax interview
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}

const emptyMethod = {
  region: 'usa',
  name: '',
  email: '',
  addressLine1: '',
  addressLine2: '',
  accountHolder: '',
  accountNumber: '',
  routingCode: '',
  iban: '',
  swift: '',
  bankName: '',
  bankAddress: '',
  country: 'DE',
  currency: 'eur',
  isDefault: false,
};

export function PaymentMethods({ channelId, onChange }: { channelId: string; onChange?: () => void }) {
  const methods = usePayoutsStore((s) => s.wallet?.paymentMethods ?? null);
  const loadError = usePayoutsStore((s) => s.walletError);
  const [adding, setAdding] = useState(false);
  const [draft, setDraft] = useState(emptyMethod);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  useEffect(() => {
    void openPaymentMethods(channelId);
  }, [channelId]);
  if (!methods) return loadError ? <p role="alert">{loadError}</p> : null;
  const usa = draft.region === 'usa';
  const set = (key: keyof typeof emptyMethod, value: string | boolean) => setDraft({ ...draft, [key]: value });
  const text = (key: keyof typeof emptyMethod, label: string, opts: { full?: boolean; hint?: string } = {}) => (
    <TextField
      id={`pm-${key}`}
      label={label}
      error={errors[key]}
      full={opts.full ?? false}
      hint={opts.hint}
      value={String(draft[key])}
      onChange={(value) => set(key, value)}
    />
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const common = {
      region: draft.region,
      name: draft.name,
      email: draft.email,
      addressLine1: draft.addressLine1,
      addressLine2: draft.addressLine2,
      accountHolder: draft.accountHolder,
      bankName: draft.bankName,
      bankAddress: draft.bankAddress,
      isDefault: draft.isDefault,
    };
    const body = usa
      ? { ...common, accountNumber: draft.accountNumber, routingCode: draft.routingCode }
      : { ...common, iban: draft.iban, swift: draft.swift, country: draft.country, currency: draft.currency };
    const result = await addPaymentMethod(channelId, body);
    if (!result.ok) {
      setErrors(result.fieldErrors);
      setFormError(result.message);
      return;
    }
    setAdding(false);
    setDraft(emptyMethod);
    setErrors({});
    setFormError(null);
    onChange?.();
  };
  const act = async (promise: Promise<{ ok: true; value: { paymentMethods: PaymentMethodView[] } } | { ok: false; message: string }>) => {
    const r = await promise;
    if (r.ok) onChange?.();
    else setFormError(r.message);
  };
  return (
    <div className={styles.subsection} role="region" aria-label="Payment methods">
      <h3 className={styles.cardTitle}>Payment methods</h3>
      {methods.length === 0 && !adding && <p className={styles.muted}>No payment method yet. Add the bank account your payouts go to.</p>}
      {methods.length > 0 && (
        <ul className={styles.list}>
          {methods.map((m) => (
            <li key={m.id} className={styles.item}>
              <div className={styles.itemMain}>
                <span className={styles.itemTitle}>
                  {m.bankName} ····{m.accountLast4} {m.isDefault && <span className={styles.badge}>Default</span>}
                </span>
                <span className={styles.hint}>
                  {m.region === 'usa' ? 'USA bank account (ACH)' : `International (SWIFT ${m.swift})`} · {m.currency.toUpperCase()} · {m.accountHolder} ·
                  arrives in {m.businessDays.from}–{m.businessDays.to} business days · no fees
                </span>
              </div>
              <div className={styles.actions}>
                {!m.isDefault && <Button onClick={() => void act(setDefaultPaymentMethod(channelId, m.id))}>Make default</Button>}
                <Button onClick={() => void act(removePaymentMethod(channelId, m.id))}>Remove</Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {!adding && <Button onClick={() => setAdding(true)}>Add payment method</Button>}
      {adding && (
        <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate aria-label="Add payment method">
          <FormField id="pm-region" label="Bank location">
            <Select id="pm-region" value={draft.region} options={BANK_REGIONS} onValueChange={(region) => set('region', region)} />
          </FormField>
          {usa ? (
            <FormField id="pm-currency-usa" label="Currency">
              <Input id="pm-currency-usa" value="USD" disabled />
            </FormField>
          ) : (
            <FormField id="pm-currency" label="Currency" error={errors.currency}>
              <Select id="pm-currency" value={draft.currency} options={currencies} onValueChange={(currency) => set('currency', currency)} />
            </FormField>
          )}
          {text('name', 'Name')}
          {text('email', 'Email')}
          {text('addressLine1', 'Address line 1')}
          {text('addressLine2', 'Address line 2')}
          {text('accountHolder', 'Account holder')}
          {text('bankName', 'Bank name')}
          {usa ? text('accountNumber', 'Account number') : text('iban', 'IBAN', { hint: 'Spaces are fine' })}
          {usa ? text('routingCode', 'Routing number (ABA)') : text('swift', 'SWIFT/BIC')}
          {!usa && (
            <FormField id="pm-country" label="Bank country" error={errors.country}>
              <Select id="pm-country" value={draft.country} options={countries} onValueChange={(country) => set('country', country)} />
            </FormField>
          )}
          {text('bankAddress', 'Bank address', { full: usa })}
          <label className={`${styles.check} ${styles.full}`}>
            <input type="checkbox" checked={draft.isDefault} onChange={(e) => set('isDefault', e.target.checked)} />
            Make this the default payment method
          </label>
          <div className={`${styles.actions} ${styles.full}`}>
            {formError && (
              <span className={styles.formError} role="alert">
                {formError}
              </span>
            )}
            <Button onClick={() => setAdding(false)}>Cancel</Button>
            <Button type="submit" variant="primary">
              Save payment method
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
