import type { ReactNode } from 'react';
import { Button } from '../../components/Button.tsx';
import { FormField, Input, TextField as KitTextField } from '../../components/FormField.tsx';
import { Select, type SelectOption } from '../../components/Select.tsx';
import styles from '../partner-home/Partner.module.css';

/** The small form pieces of the Chatbot page, on the kit's fields: a labelled text, number, text area or choice. */
export function TextField(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  max?: number;
  hint?: string;
  multiline?: boolean;
  disabled?: boolean;
  error?: string | undefined;
  className?: string;
}) {
  return (
    <KitTextField
      label={props.label}
      value={props.value}
      onChange={props.onChange}
      maxLength={props.max}
      hint={props.hint}
      multiline={props.multiline}
      disabled={props.disabled}
      error={props.error}
      className={props.className}
    />
  );
}

export function NumberField(props: {
  label: string;
  value: number;
  onChange: (v: number) => void;
  min?: number;
  max?: number;
  step?: number;
  disabled?: boolean;
  hint?: string;
}) {
  return (
    <FormField label={props.label} hint={props.hint}>
      {(control) => (
        <Input
          id={control.id}
          aria-describedby={control['aria-describedby']}
          type="number"
          value={Number.isFinite(props.value) ? props.value : ''}
          min={props.min}
          max={props.max}
          step={props.step ?? 1}
          disabled={props.disabled}
          onChange={(e) => props.onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
        />
      )}
    </FormField>
  );
}

export function ChoiceField(props: { label: string; value: string; options: readonly SelectOption[]; onChange: (v: string) => void; disabled?: boolean }) {
  return (
    <FormField label={props.label}>
      {(control) => <Select id={control.id} value={props.value} options={props.options} onValueChange={props.onChange} disabled={props.disabled ?? false} />}
    </FormField>
  );
}

export function Check(props: { label: string; checked: boolean; onChange: (v: boolean) => void; disabled?: boolean }) {
  return (
    <label className={styles.check}>
      <input type="checkbox" checked={props.checked} disabled={props.disabled} onChange={(e) => props.onChange(e.target.checked)} />
      {props.label}
    </label>
  );
}

/** A save button with the form's error beside it. */
export function SaveRow({
  onSave,
  busy,
  error,
  disabled,
  label = 'Save',
  children,
}: {
  onSave: () => void;
  busy: boolean;
  error: string | null;
  disabled?: boolean;
  label?: string;
  children?: ReactNode;
}) {
  return (
    <div className={styles.actions}>
      {error ? (
        <p role="alert" className={styles.formError}>
          {error}
        </p>
      ) : null}
      {children}
      <Button variant="primary" onClick={onSave} disabled={busy || disabled}>
        {busy ? 'Saving…' : label}
      </Button>
    </div>
  );
}
