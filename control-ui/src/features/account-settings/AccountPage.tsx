import { UserRound } from 'lucide-react';
import { Link } from 'react-router';
import { closeAccountSettings } from '../../actions/account-settings.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import styles from './AccountSettingsDialog.module.css';

/** Spec §2 Account page. Name, e-mail and mailing preferences belong to a signed-in user, which comes with sign-in. */
export function AccountPage() {
  return (
    <section aria-labelledby="account-page-heading">
      <h2 id="account-page-heading" className={styles.heading}>
        Account
      </h2>
      <EmptyState icon={<UserRound size={32} />} title="You are not signed in">
        <p>
          Your name, e-mail and e-mail preferences appear here once you{' '}
          <Link to="/login" onClick={closeAccountSettings}>
            sign in
          </Link>
          .
        </p>
      </EmptyState>
    </section>
  );
}
