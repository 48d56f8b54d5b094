import { useId, useState, type FormEvent } from 'react';
import {
  discoverySources,
  identities,
  mainPlatforms,
  PROFILE_TEXT_MAX,
  streamingDevices,
  USERNAME_CHANGE_COOLDOWN_DAYS,
  type PersonalInfo,
} from '@onair/protocol';
import type { Result } from '../../actions/result.ts';
import { Button } from '../../components/Button.tsx';
import { FormField, Input } from '../../components/FormField.tsx';
import { Select } from '../../components/Select.tsx';
import { countryOptions, languageOptions } from '../../model/partner.ts';
import styles from '../partner-home/Partner.module.css';

/** A form's draft: every field as the inputs hold it (empty until chosen). */
type Draft = Omit<PersonalInfo, 'identity' | 'mainPlatform' | 'discoverySource' | 'contentLanguage'> & {
  identity: string;
  mainPlatform: string;
  discoverySource: string;
  contentLanguage: string;
};

const emptyDraft: Draft = {
  username: '',
  firstName: '',
  lastName: '',
  identity: '',
  pronouns: '',
  birthdate: '',
  country: '',
  contentLanguage: '',
  streamingDevices: [],
  mainPlatform: '',
  discoverySource: '',
};

const asOptions = (values: readonly string[]) => values.map((v) => ({ value: v, label: v }));

/**
 * Partner spec §3 Account, as Get Started collects it and Settings › Personal information edits it.
 * The api validates; its words appear under each field.
 */
export function PersonalInfoForm(props: {
  initial: PersonalInfo | null;
  submitLabel: string;
  /** Set when the username is in its change cooldown (ISO date). */
  usernameLockedUntil?: string | null;
  onSubmit: (info: PersonalInfo) => Promise<Result>;
}) {
  const base = useId();
  const id = (name: string) => `${base}-${name}`;
  const [draft, setDraft] = useState<Draft>(props.initial ?? emptyDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const locked = props.usernameLockedUntil ?? null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    // The api is the judge of every rule; the draft goes as typed.
    const result = await props.onSubmit(draft as PersonalInfo);
    setPending(false);
    setErrors(result.ok ? {} : result.fieldErrors);
    setFormError(result.ok ? null : result.message);
  };

  const toggleDevice = (device: (typeof streamingDevices)[number], on: boolean) =>
    set('streamingDevices', on ? [...draft.streamingDevices, device] : draft.streamingDevices.filter((d) => d !== device));

  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
      <FormField
        id={id('username')}
        label="Username"
        error={errors.username}
        hint={
          locked
            ? `You can change your username again on ${locked.slice(0, 10)}.`
            : `You can change your username once every ${USERNAME_CHANGE_COOLDOWN_DAYS} days.`
        }
        full
      >
        <Input
          id={id('username')}
          className={styles.input}
          value={draft.username}
          maxLength={25}
          disabled={!!locked}
          aria-invalid={!!errors.username}
          onChange={(e) => set('username', e.target.value)}
        />
      </FormField>
      <FormField id={id('first')} label="First name" error={errors.firstName}>
        <Input
          id={id('first')}
          className={styles.input}
          value={draft.firstName}
          maxLength={PROFILE_TEXT_MAX}
          aria-invalid={!!errors.firstName}
          onChange={(e) => set('firstName', e.target.value)}
        />
      </FormField>
      <FormField id={id('last')} label="Last name" error={errors.lastName}>
        <Input
          id={id('last')}
          className={styles.input}
          value={draft.lastName}
          maxLength={PROFILE_TEXT_MAX}
          aria-invalid={!!errors.lastName}
          onChange={(e) => set('lastName', e.target.value)}
        />
      </FormField>
      <FormField id={id('identity')} label="Identity" error={errors.identity}>
        <Select
          id={id('identity')}
          value={draft.identity || null}
          options={asOptions(identities)}
          onValueChange={(v) => set('identity', v)}
          placeholder="Choose one"
          aria-invalid={!!errors.identity}
        />
      </FormField>
      <FormField id={id('pronouns')} label="Pronouns (optional)" error={errors.pronouns}>
        <Input
          id={id('pronouns')}
          className={styles.input}
          value={draft.pronouns}
          maxLength={32}
          placeholder="they/them"
          onChange={(e) => set('pronouns', e.target.value)}
        />
      </FormField>
      <FormField id={id('birthdate')} label="Birthdate" error={errors.birthdate}>
        <Input
          id={id('birthdate')}
          type="date"
          className={styles.input}
          value={draft.birthdate}
          aria-invalid={!!errors.birthdate}
          onChange={(e) => set('birthdate', e.target.value)}
        />
      </FormField>
      <FormField id={id('country')} label="Country" error={errors.country}>
        <Select
          id={id('country')}
          value={draft.country || null}
          options={countryOptions()}
          onValueChange={(v) => set('country', v)}
          placeholder="Choose a country"
          aria-invalid={!!errors.country}
        />
      </FormField>
      <FormField id={id('language')} label="Content language" error={errors.contentLanguage}>
        <Select
          id={id('language')}
          value={draft.contentLanguage || null}
          options={languageOptions()}
          onValueChange={(v) => set('contentLanguage', v)}
          placeholder="Choose a language"
          aria-invalid={!!errors.contentLanguage}
        />
      </FormField>
      <FormField id={id('platform')} label="Main platform" error={errors.mainPlatform}>
        <Select
          id={id('platform')}
          value={draft.mainPlatform || null}
          options={asOptions(mainPlatforms)}
          onValueChange={(v) => set('mainPlatform', v)}
          placeholder="Choose a platform"
          aria-invalid={!!errors.mainPlatform}
        />
      </FormField>
      <fieldset className={`${styles.field} ${styles.fieldset} ${styles.full}`}>
        <legend className={styles.label}>Streaming devices</legend>
        <div className={styles.checks}>
          {streamingDevices.map((device) => (
            <label key={device} className={styles.check}>
              <input type="checkbox" checked={draft.streamingDevices.includes(device)} onChange={(e) => toggleDevice(device, e.target.checked)} />
              {device}
            </label>
          ))}
        </div>
        {errors.streamingDevices && (
          <span className={styles.fieldError} role="alert">
            {errors.streamingDevices}
          </span>
        )}
      </fieldset>
      <FormField id={id('discovery')} label="How did you hear about us?" error={errors.discoverySource}>
        <Select
          id={id('discovery')}
          value={draft.discoverySource || null}
          options={asOptions(discoverySources)}
          onValueChange={(v) => set('discoverySource', v)}
          placeholder="Choose one"
          aria-invalid={!!errors.discoverySource}
        />
      </FormField>
      <div className={`${styles.actions} ${styles.full}`}>
        {formError && (
          <span className={styles.formError} role="alert">
            {formError}
          </span>
        )}
        <Button type="submit" variant="primary" disabled={pending}>
          {props.submitLabel}
        </Button>
      </div>
    </form>
  );
}
