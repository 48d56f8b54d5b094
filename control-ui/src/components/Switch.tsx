import * as RadixSwitch from '@radix-ui/react-switch';
import { useId } from 'react';
import styles from './Switch.module.css';

export interface SwitchProps {
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  /** The element that says why it is off (a plan limit), read with the switch. */
  'aria-describedby'?: string;
  /** The label is read to assistive technology only: where the row around the switch already says what it does. */
  hideLabel?: boolean;
}

export function Switch({ label, checked, onCheckedChange, disabled, 'aria-describedby': describedBy, hideLabel = false }: SwitchProps) {
  const id = useId();
  return (
    <span className={styles.field}>
      <RadixSwitch.Root id={id} className={styles.root} checked={checked} onCheckedChange={onCheckedChange} disabled={disabled} aria-describedby={describedBy}>
        <RadixSwitch.Thumb className={styles.thumb} />
      </RadixSwitch.Root>
      <label htmlFor={id} className={hideLabel ? styles.srOnly : undefined}>
        {label}
      </label>
    </span>
  );
}
