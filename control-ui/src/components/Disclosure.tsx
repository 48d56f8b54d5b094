import { ChevronRight } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import styles from './Disclosure.module.css';

export interface DisclosureProps {
  /** What the hidden part holds, said on its button. */
  label: string;
  defaultOpen?: boolean;
  children: ReactNode;
}

/**
 * A part of a panel shown on demand (WAI-ARIA disclosure): a button that says what it holds and
 * whether it is open. The hidden part stays mounted, so what it loads and what was typed in it
 * survive closing it.
 */
export function Disclosure({ label, defaultOpen = false, children }: DisclosureProps) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  return (
    <div className={styles.disclosure}>
      <button type="button" className={styles.trigger} aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <ChevronRight size={14} className={styles.chevron} aria-hidden />
        {label}
      </button>
      <div id={id} className={styles.content} hidden={!open}>
        {children}
      </div>
    </div>
  );
}
