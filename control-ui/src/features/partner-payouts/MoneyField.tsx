import type { ReactNode } from 'react';
import styles from '../partner-home/Partner.module.css';

/** A labelled field with its hint and the api's words under it. */
export function MoneyField({ id, label, error, hint, children, full }: { id: string; label: string; error?: string | undefined; hint?: string; children: ReactNode; full?: boolean }) {
  return (
    <div className={`${styles.field} ${full ? styles.full : ''}`}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {children}
      {hint && <span className={styles.hint}>{hint}</span>}
      {error && (
        <span className={styles.fieldError} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
