import { CreditCard, UserRound } from 'lucide-react';
import { closeAccountSettings, openAccountSettings } from '../../actions/account-settings.ts';
import { Modal } from '../../components/Modal.tsx';
import { useUiStore, type AccountSettingsPage } from '../../stores/index.ts';
import { AccountPage } from './AccountPage.tsx';
import { PlanPage } from './PlanPage.tsx';
import styles from './AccountSettingsDialog.module.css';

const PAGES: ReadonlyArray<{ id: AccountSettingsPage; label: string; icon: typeof UserRound }> = [
  { id: 'account', label: 'Account', icon: UserRound },
  { id: 'plan', label: 'Plan & Billing', icon: CreditCard },
];

/** Spec §2: one modal over the app with an Account page and a Plan & Billing page. */
export function AccountSettingsDialog() {
  const page = useUiStore((state) => state.accountSettingsPage);
  return (
    <Modal open={page !== null} onClose={closeAccountSettings} title="Account Settings" description="Your account and your plan." size="large">
      <div className={styles.layout}>
        <nav className={styles.nav} aria-label="Account settings pages">
          {PAGES.map(({ id, label, icon: Icon }) => (
            <button key={id} type="button" className={styles.navItem} aria-current={page === id ? 'page' : undefined} onClick={() => openAccountSettings(id)}>
              <Icon size={16} aria-hidden />
              {label}
            </button>
          ))}
        </nav>
        <div className={styles.page}>{page === 'plan' ? <PlanPage /> : <AccountPage />}</div>
      </div>
    </Modal>
  );
}
