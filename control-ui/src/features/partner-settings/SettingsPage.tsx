import { NavLink, Navigate, useParams, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { CollaboratorsSection } from '../partner-collaborators/CollaboratorsSection.tsx';
import { DataExportsSection } from '../partner-data-exports/DataExportsSection.tsx';
import { ManageApplicationsSection } from '../partner-applications/ManageApplicationsSection.tsx';
import styles from '../partner-home/Partner.module.css';
import settings from './SettingsPage.module.css';
import { PayoutInformationSection } from '../partner-payouts/PayoutInformationSection.tsx';
import { TipSettingsSection } from '../partner-payouts/TipSettingsSection.tsx';
import { EmailNotificationsSection, Integrations, LoginAndSecurity, PersonalInformation } from './SettingsSections.tsx';

/** Partner spec §2 Settings sections, in the spec's order. */
const sections = [
  { id: 'personal-information', title: 'Personal information', lead: 'Who you are and what you stream.' },
  { id: 'integrations', title: 'Integrations', lead: 'The platforms you sign in with. At least one way to sign in must remain.' },
  { id: 'collaborators', title: 'Collaborators', lead: 'People who help with your channel, and channels you help with.' },
  { id: 'login-security', title: 'Login & security', lead: 'Your e-mail address, two-step verification and deleting your account.' },
  { id: 'email-notifications', title: 'Email notifications', lead: 'What we may e-mail you about.' },
  { id: 'payout-information', title: 'Payout information', lead: 'Where your earnings are paid.' },
  { id: 'tips', title: 'Tips', lead: 'How your viewers can tip you.' },
  { id: 'manage-applications', title: 'Manage Applications', lead: 'Applications and devices that may use your account.' },
  { id: 'data-exports', title: 'Data Exports', lead: 'Download everything OnAir holds about you.' },
] as const;
type SectionId = (typeof sections)[number]['id'];

function SectionBody({ id, tab }: { id: SectionId; tab: 'sent' | 'received' }) {
  switch (id) {
    case 'personal-information':
      return <PersonalInformation />;
    case 'integrations':
      return <Integrations />;
    case 'collaborators':
      return <CollaboratorsSection initialTab={tab} />;
    case 'login-security':
      return <LoginAndSecurity />;
    case 'email-notifications':
      return <EmailNotificationsSection />;
    case 'payout-information':
      return <PayoutInformationSection />;
    case 'tips':
      return <TipSettingsSection />;
    case 'manage-applications':
      return <ManageApplicationsSection />;
    case 'data-exports':
      return <DataExportsSection />;
  }
}

export function SettingsPage() {
  const { section } = useParams();
  const [params] = useSearchParams();
  const current = sections.find((s) => s.id === section);
  useDocumentTitle(current ? `Settings · ${current.title}` : 'Settings');
  if (!current) return <Navigate to="/partner/settings/personal-information" replace />;
  return (
    <div className={settings.settings}>
      <nav className={settings.sections} aria-label="Settings sections">
        <h1 className={styles.title}>Settings</h1>
        {sections.map((s) => (
          <NavLink key={s.id} to={`/partner/settings/${s.id}`} className={({ isActive }) => `${styles.navLink} ${isActive ? styles.navLinkActive : ''}`}>
            {s.title}
          </NavLink>
        ))}
      </nav>
      <section className={styles.card} aria-labelledby="settings-section-title">
        <div>
          <h2 id="settings-section-title" className={styles.cardTitle}>
            {current.title}
          </h2>
          <p className={styles.muted}>{current.lead}</p>
        </div>
        <SectionBody key={current.id} id={current.id} tab={params.get('tab') === 'received' ? 'received' : 'sent'} />
      </section>
    </div>
  );
}
