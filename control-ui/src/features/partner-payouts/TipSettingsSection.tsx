import { useEffect, useState, type FormEvent } from 'react';
import { moneyCurrencies, TIP_MAX_CEILING, TIP_MIN_FLOOR, formatMoney, type TipSettings } from '@onair/protocol';
import { closeTips, connectCharity, disconnectCharity, openCharity, openTipSettings, saveTipSettings } from '../../actions/money.ts';
import { Button } from '../../components/Button.tsx';
import { FormField, TextField } from '../../components/FormField.tsx';
import { Select } from '../../components/Select.tsx';
import { Switch } from '../../components/Switch.tsx';
import { usePartnerStore, useTipsStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';
import { toMinor } from '../tip-page/TipPage.tsx';

const major = (minor: number) => (minor / 100).toFixed(2);
const currencies = moneyCurrencies.map((c) => ({ value: c, label: c.toUpperCase() }));

/** Settings › Tips (partner spec §3 Tip settings, §9 limits) and the tip page's link. */
export function TipSettingsSection() {
  const channelId = usePartnerStore((s) => s.channels.find((c) => c.owner)?.id ?? null);
  const saved = useTipsStore((s) => s.settings);
  const loadError = useTipsStore((s) => s.settingsError);
  const [draft, setDraft] = useState({ enabled: false, paymentEmail: '', currency: 'usd', min: '', max: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (!channelId) return;
    // The form starts from what is saved; after that it is the creator's until saved again.
    void openTipSettings(channelId).then((value) => {
      if (value)
        setDraft({ enabled: value.enabled, paymentEmail: value.paymentEmail, currency: value.currency, min: major(value.minTip), max: major(value.maxTip) });
    });
  }, [channelId]);
  useEffect(() => closeTips, []);
  if (!channelId || !saved) return loadError ? <p role="alert">{loadError}</p> : null;
  const link = `${window.location.origin}/tip/${channelId}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    const result = await saveTipSettings(channelId, {
      enabled: draft.enabled,
      paymentEmail: draft.paymentEmail,
      currency: draft.currency as TipSettings['currency'],
      minTip: toMinor(draft.min) || 0,
      maxTip: toMinor(draft.max) || 0,
    });
    setPending(false);
    if (result.ok) {
      setErrors({});
      setFormError(null);
    } else {
      setErrors(result.fieldErrors);
      setFormError(result.message);
    }
  };

  return (
    <>
      <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate aria-label="Tip settings">
        <div className={`${styles.field} ${styles.full}`}>
          <Switch checked={draft.enabled} onCheckedChange={(enabled) => setDraft({ ...draft, enabled })} label="Take tips" />
          <span className={styles.hint}>
            Your tip page: <a href={link}>{link}</a>
          </span>
        </div>
        <TextField
          id="tip-email"
          type="email"
          label="Payment-account e-mail"
          error={errors.paymentEmail}
          full
          value={draft.paymentEmail}
          onChange={(paymentEmail) => setDraft({ ...draft, paymentEmail })}
        />
        <FormField id="tip-currency" label="Currency" error={errors.currency}>
          <Select id="tip-currency" value={draft.currency} options={currencies} onValueChange={(currency) => setDraft({ ...draft, currency })} />
        </FormField>
        <span />
        <TextField
          id="tip-min"
          label="Minimum tip"
          error={errors.minTip}
          hint={`More than ${formatMoney(TIP_MIN_FLOOR, draft.currency)}`}
          inputMode="decimal"
          value={draft.min}
          onChange={(min) => setDraft({ ...draft, min })}
        />
        <TextField
          id="tip-max"
          label="Maximum tip"
          error={errors.maxTip}
          hint={`At most ${formatMoney(TIP_MAX_CEILING, draft.currency)}`}
          inputMode="decimal"
          value={draft.max}
          onChange={(max) => setDraft({ ...draft, max })}
        />
        <div className={`${styles.actions} ${styles.full}`}>
          {formError && (
            <span className={styles.formError} role="alert">
              {formError}
            </span>
          )}
          <Button type="submit" variant="primary" disabled={pending}>
            Save
          </Button>
        </div>
      </form>
      <CharitySection channelId={channelId} />
    </>
  );
}

/** Partner spec §3 Charity integrations: a campaign link and whether it is the active one. */
function CharitySection({ channelId }: { channelId: string }) {
  const campaign = useTipsStore((s) => s.charity);
  const [draft, setDraft] = useState({ link: '', name: '', active: true });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  useEffect(() => {
    void openCharity(channelId).then((loaded) => {
      if (loaded) setDraft({ link: loaded.link, name: loaded.name, active: loaded.active });
    });
  }, [channelId]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await connectCharity(channelId, draft);
    if (result.ok) {
      setErrors({});
      setFormError(null);
    } else {
      setErrors(result.fieldErrors);
      setFormError(result.ok ? null : 'The charity campaign could not be connected. ' + result.message);
    }
  };
  if (campaign === undefined) return null;
  return (
    <div className={styles.subsection}>
      <h3 className={styles.cardTitle}>Charity campaign</h3>
      <p className={styles.muted}>Donations to your campaign on Twitch appear in your events feed as charity events.</p>
      <p className={styles.muted} data-testid="charity-platforms-note">
        Charity donations are read from Twitch only. Donations made through YouTube or Facebook fundraisers do not reach OnAir: they are not in your events
        feed, alerts or statistics.
      </p>
      <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate aria-label="Charity campaign">
        <TextField
          id="charity-link"
          label="Campaign link"
          error={errors.link}
          full
          value={draft.link}
          placeholder="https://"
          onChange={(link) => setDraft({ ...draft, link })}
        />
        <TextField
          id="charity-name"
          label="Campaign name"
          error={errors.name}
          value={draft.name}
          maxLength={64}
          onChange={(name) => setDraft({ ...draft, name })}
        />
        <div className={styles.field}>
          <Switch checked={draft.active} onCheckedChange={(active) => setDraft({ ...draft, active })} label="Active campaign" />
        </div>
        <div className={`${styles.actions} ${styles.full}`}>
          {formError && (
            <span className={styles.formError} role="alert">
              {formError}
            </span>
          )}
          {campaign && (
            <Button
              onClick={() =>
                void disconnectCharity(channelId).then((r) => {
                  if (r.ok) setDraft({ link: '', name: '', active: true });
                  else setFormError('The charity campaign could not be disconnected. ' + r.message);
                })
              }
            >
              Disconnect
            </Button>
          )}
          <Button type="submit" variant="primary">
            {campaign ? 'Save campaign' : 'Connect campaign'}
          </Button>
        </div>
      </form>
    </div>
  );
}
