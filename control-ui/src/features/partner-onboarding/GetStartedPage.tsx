import { Navigate, useNavigate } from 'react-router';
import { completeOnboarding } from '../../actions/partner.ts';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { usePartnerStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';
import { PersonalInfoForm } from '../partner-settings/PersonalInfoForm.tsx';

/** Partner spec §2 'Get Started': the account details of §3 before the partner network opens. */
export function GetStartedPage() {
  useDocumentTitle('Get Started');
  const navigate = useNavigate();
  const account = usePartnerStore((s) => s.account);
  if (account?.onboarded) return <Navigate to="/partner" replace />;
  return (
    <div className={styles.onboarding}>
      <h1 className={styles.title}>Get Started</h1>
      <p className={styles.lead}>Tell us about you and your channel. You can change these later in Settings.</p>
      <section className={styles.card} aria-label="Your details">
        <PersonalInfoForm
          initial={null}
          submitLabel="Continue"
          onSubmit={async (info) => {
            const result = await completeOnboarding(info);
            if (result.ok) void navigate('/partner', { replace: true });
            return result;
          }}
        />
      </section>
    </div>
  );
}
