import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Tooltip } from './Tooltip.tsx';
import styles from './IconButton.module.css';

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  /** Read by screen readers and shown as the tooltip: an icon alone never explains itself. */
  label: string;
  icon: ReactNode;
}

export function IconButton({ label, icon, className, type = 'button', ...props }: IconButtonProps) {
  return (
    <Tooltip content={label}>
      <button type={type} aria-label={label} className={[styles.iconButton, className].filter(Boolean).join(' ')} {...props}>
        {icon}
      </button>
    </Tooltip>
  );
}
