import { forwardRef, useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import styles from './FormField.module.css';

/** What a field hands its control: the id its label points at, and the attributes that tie the hint and error to it. */
export interface FieldControl {
  id: string;
  invalid: boolean;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

export interface FormFieldProps {
  label: ReactNode;
  /** The control's id; one is made when left out (read it from the render function). */
  id?: string | undefined;
  hint?: ReactNode;
  error?: string | undefined;
  /** Characters used and allowed, shown beside the label (spec §5: optional maximum length with counter). */
  count?: readonly [number, number] | undefined;
  /** Spans every column of a grid form. */
  full?: boolean | undefined;
  className?: string | undefined;
  /** The control: given as is (with the `id` above), or made from the field's id and aria attributes. */
  children: ReactNode | ((control: FieldControl) => ReactNode);
}

/** A label over a control, with an optional hint and error under it: the kit's one field. */
export function FormField({ label, id, hint, error, count, full, className, children }: FormFieldProps) {
  const made = useId();
  const controlId = id ?? made;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const control: FieldControl = { id: controlId, invalid: !!error, 'aria-invalid': !!error, 'aria-describedby': describedBy };
  return (
    <div className={[styles.field, full ? styles.full : '', className].filter(Boolean).join(' ')}>
      <span className={styles.labelRow}>
        <label className={styles.label} htmlFor={controlId}>
          {label}
        </label>
        {count && (
          <span className={styles.count} aria-hidden>
            {count[0]}/{count[1]}
          </span>
        )}
      </span>
      {typeof children === 'function' ? children(control) : children}
      {hint && (
        <span id={hintId} className={styles.hint}>
          {hint}
        </span>
      )}
      {error && (
        <span id={errorId} className={styles.error} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** The kit's text input: a native input in the kit's look (use it inside a FormField, or with an aria-label). */
export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, ...props }, ref) {
  return <input ref={ref} className={[styles.input, className].filter(Boolean).join(' ')} {...props} />;
});

/** The kit's multi-line text input. */
export const TextArea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function TextArea({ className, ...props }, ref) {
  return <textarea ref={ref} className={[styles.input, styles.textarea, className].filter(Boolean).join(' ')} {...props} />;
});

export interface TextFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement> & TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value' | 'children'> {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
  error?: string | undefined;
  /** A textarea instead of a one-line input. */
  multiline?: boolean;
  /** Shows "used/maxLength" beside the label. */
  counter?: boolean;
  full?: boolean | undefined;
  /** Classes of the field's frame (the control takes `inputClassName`). */
  className?: string | undefined;
  inputClassName?: string | undefined;
}

/** A labelled text input (or textarea) with hint, error and an optional counter. */
export function TextField({
  label,
  value,
  onChange,
  hint,
  error,
  multiline,
  counter,
  full,
  className,
  inputClassName,
  id,
  maxLength,
  ...rest
}: TextFieldProps) {
  return (
    <FormField
      label={label}
      id={id}
      hint={hint}
      error={error}
      full={full}
      className={className}
      count={counter && maxLength !== undefined ? [value.length, maxLength] : undefined}
    >
      {(control) => {
        const props = {
          id: control.id,
          'aria-invalid': control['aria-invalid'],
          'aria-describedby': control['aria-describedby'],
          value,
          maxLength,
          className: inputClassName,
        };
        return multiline ? (
          <TextArea {...(rest as TextareaHTMLAttributes<HTMLTextAreaElement>)} {...props} onChange={(e) => onChange(e.target.value)} />
        ) : (
          <Input {...(rest as InputHTMLAttributes<HTMLInputElement>)} {...props} onChange={(e) => onChange(e.target.value)} />
        );
      }}
    </FormField>
  );
}
