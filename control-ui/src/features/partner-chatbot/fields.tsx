import { useId, type ReactNode } from 'react';
import { Button } from '../../components/Button.tsx';
import { Select, type SelectOption } from '../../components/Select.tsx';
import styles from '../partner-home/Partner.module.css';

/** The small form pieces of the Chatbot page: a labelled text, number, text area or choice. */
export function TextField(props: { label: string; value: string; onChange: (v: string) => void; max?: number; hint?: string; multiline?: boolean; disabled?: boolean; error?: string | undefined; className?: string }) {
  const id = useId();
  const common = {
    id,
    className: `${styles.input} ${props.multiline ? styles.textarea : ''}`,
    value: props.value,
    maxLength: props.max,
    disabled: props.disabled,
    'aria-invalid': props.error ? true : undefined,
  };
  return (
    <div className={`${styles.field} ${props.className ?? ''}`}>
      <label htmlFor={id} className={styles.label}>
        {props.label}
      </label>
      {props.multiline ? <textarea {...common} onChange={(e) => props.onChange(e.target.value)} /> : <input {...common} onChange={(e) => props.onChange(e.target.value)} />}
      {props.error ? <span className={styles.fieldError}>{props.error}</span> : props.hint ? <span className={styles.hint}>{props.hint}</span> : null}
    </div>
  );
}

export function NumberField(props: { label: string; value: number; onChange: (v: number) => void; min?: number; max?: number; step?: number; disabled?: boolean; hint?: string }) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {props.label}
      </label>
      <input
        id={id}
        type="number"
        className={styles.input}
        value={Number.isFinite(props.value) ? props.value : ''}
        min={props.min}
        max={props.max}
        step={props.step ?? 1}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
      />
      {props.hint ? <span className={styles.hint}>{props.hint}</span> : null}
    </div>
  );
}

export function ChoiceField(props: { label: string; value: string; options: readonly SelectOption[]; onChange: (v: string) => void; disabled?: boolean }) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {props.label}
      </label>
      <Select id={id} value={props.value} options={props.options} onValueChange={props.onChange} disabled={props.disabled ?? false} />
    </div>
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
export function SaveRow({ onSave, busy, error, disabled, label = 'Save', children }: { onSave: () => void; busy: boolean; error: string | null; disabled?: boolean; label?: string; children?: ReactNode }) {
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
