import { CreditCard, UserRound } from 'lucide-react';
import { NavLink } from 'react-router';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { ACCOUNT_SETTINGS_PATHS, type AccountSettingsPage as PageId } from './paths.ts';
import { AccountPage } from './AccountPage.tsx';
import { PlanPage } from './PlanPage.tsx';
import styles from './AccountSettingsPage.module.css';

const PAGES: ReadonlyArray<{ id: PageId; label: string; icon: typeof UserRound }> = [
  { id: 'account', label: 'Account', icon: UserRound },
  { id: 'plan', label: 'Plan & Billing', icon: CreditCard },
];

/**
 * Spec §2 Account Settings as pages that can be linked (`/account`, `/account/plan`): a side nav and
 * the page, scrolling inside the app's frame, so nothing is cut off at 1280×720.
 */
export function AccountSettingsPage({ page }: { page: PageId }) {
  useDocumentTitle(page === 'plan' ? 'Plan & Billing' : 'Account Settings');
  return (
    <section className={styles.layout} aria-label="Account Settings">
      <nav className={styles.nav} aria-label="Account settings pages">
        <h1 className={styles.title}>Account Settings</h1>
        {PAGES.map(({ id, label, icon: Icon }) => (
          <NavLink key={id} to={ACCOUNT_SETTINGS_PATHS[id]} end className={styles.navItem}>
            <Icon size={16} aria-hidden />
            {label}
          </NavLink>
        ))}
      </nav>
      <div className={styles.page}>{page === 'plan' ? <PlanPage /> : <AccountPage />}</div>
    </section>
  );
}
