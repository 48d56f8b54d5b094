import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Tooltip } from './Tooltip.tsx';
import styles from './IconButton.module.css';

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  /** Read by screen readers and shown as the tooltip: an icon alone never explains itself. */
  label: string;
  icon: ReactNode;
  /**
   * Why the button cannot be used: it is disabled and this is its tooltip instead of the label.
   * A disabled button gets no pointer events, so the tooltip hangs on a focusable wrapper.
   */
  disabledReason?: string;
}

export function IconButton({ label, icon, className, type = 'button', disabledReason, ...props }: IconButtonProps) {
  const classes = [styles.iconButton, className].filter(Boolean).join(' ');
  if (disabledReason !== undefined) {
    return (
      <Tooltip content={disabledReason}>
        <span tabIndex={0} className={styles.wrapper} aria-label={`${label}: ${disabledReason}`}>
          <button type={type} aria-label={label} className={classes} {...props} disabled>
            {icon}
          </button>
        </span>
      </Tooltip>
    );
  }
  return (
    <Tooltip content={label}>
      <button type={type} aria-label={label} className={classes} {...props}>
        {icon}
      </button>
    </Tooltip>
  );
}
