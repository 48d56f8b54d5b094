import { CreditCard } from 'lucide-react';
import { Link } from 'react-router';
import { closeAccountSettings } from '../../actions/account-settings.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import styles from './AccountSettingsDialog.module.css';

/** Spec §2 Plan & Billing page; what it shows depends on the signed-in user's plan. */
export function PlanPage() {
  return (
    <section aria-labelledby="plan-page-heading">
      <h2 id="plan-page-heading" className={styles.heading}>
        Plan &amp; Billing
      </h2>
      <EmptyState icon={<CreditCard size={32} />} title="No plan to show">
        <p>
          Your plan, billing dates and billing history appear here once you{' '}
          <Link to="/login" onClick={closeAccountSettings}>
            sign in
          </Link>
          .
        </p>
      </EmptyState>
    </section>
  );
}
