import * as RadixSelect from '@radix-ui/react-select';
import { Check, ChevronDown } from 'lucide-react';
import { usePortalContainer } from './portal-container.ts';
import styles from './Select.module.css';

export interface SelectOption {
  /** Any string, the empty one included (a "none" or "default" choice). */
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps {
  /** The trigger's id, for a `<label htmlFor>` that names it. */
  id?: string;
  /** The chosen value; null (or a value no option has) shows the placeholder. */
  value: string | null;
  options: readonly SelectOption[];
  onValueChange: (value: string) => void;
  /** Shown while nothing is chosen, and when there is nothing to choose from. */
  placeholder?: string;
  disabled?: boolean;
  'aria-label'?: string;
  'aria-invalid'?: boolean;
}

// Radix reserves the empty string for "no value": an option whose value is '' travels under this one.
const EMPTY = '\u0000empty';
const toRadix = (value: string) => (value === '' ? EMPTY : value);
const fromRadix = (value: string) => (value === EMPTY ? '' : value);

/** The app's drop-down list: a styled, keyboard-driven replacement for the native `<select>`. */
export function Select({ id, value, options, onValueChange, placeholder, disabled, ...aria }: SelectProps) {
  const chosen = value === null ? undefined : options.find((o) => o.value === value);
  const container = usePortalContainer();
  return (
    <RadixSelect.Root
      value={chosen ? toRadix(chosen.value) : ''}
      onValueChange={(v) => onValueChange(fromRadix(v))}
      disabled={disabled || options.length === 0}
    >
      <RadixSelect.Trigger id={id} className={styles.trigger} aria-label={aria['aria-label']} aria-invalid={aria['aria-invalid']}>
        <span className={styles.value}>
          {/* The chosen label is given, not looked up from the (closed, unrendered) list: it shows on first paint too. */}
          <RadixSelect.Value placeholder={placeholder}>{chosen?.label}</RadixSelect.Value>
        </span>
        <RadixSelect.Icon className={styles.icon}>
          <ChevronDown size={16} aria-hidden />
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal container={container}>
        <RadixSelect.Content className={styles.content} position="popper" sideOffset={4}>
          <RadixSelect.Viewport className={styles.viewport}>
            {options.map((option) => (
              <RadixSelect.Item key={option.value} value={toRadix(option.value)} disabled={option.disabled} className={styles.item}>
                <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
                <RadixSelect.ItemIndicator className={styles.check}>
                  <Check size={14} aria-hidden />
                </RadixSelect.ItemIndicator>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}
