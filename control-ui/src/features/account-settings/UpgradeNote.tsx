import { Lock } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/Button.tsx';
import { useOpenAccountSettings } from './use-open-account-settings.ts';
import styles from './UpgradeNote.module.css';

/**
 * Why something is off for the plan, said where it is (issue 52: limits before they bite, not as
 * failures), with an Upgrade that opens Plan & Billing (from the studio, in a new tab).
 */
export function UpgradeNote({ id, children, canUpgrade = true }: { id?: string; children: ReactNode; canUpgrade?: boolean }) {
  const openAccountSettings = useOpenAccountSettings();
  return (
    <p className={styles.note} role="note" id={id}>
      <Lock size={12} aria-hidden className={styles.icon} />
      {children}
      {canUpgrade && (
        <Button variant="ghost" className={styles.upgrade} onClick={() => openAccountSettings('plan')}>
          Upgrade
        </Button>
      )}
    </p>
  );
}
