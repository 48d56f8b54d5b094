import { Link } from 'react-router';
import { Table } from '../../components/Table.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { countryOptions, languageOptions } from '../../model/partner.ts';
import { usePartnerStore } from '../../stores/index.ts';
import styles from './Partner.module.css';

/** Partner spec §2 Account: the creator account at a glance; Settings changes it. */
export function PartnerAccountPage() {
  useDocumentTitle('Account');
  const account = usePartnerStore((s) => s.account);
  const profile = account?.profile;
  if (!account || !profile) return null;
  const rows: [string, string][] = [
    ['Username', profile.username],
    ['Name', `${profile.firstName} ${profile.lastName}`],
    ['E-mail', account.email],
    ['Identity', profile.identity + (profile.pronouns ? ` (${profile.pronouns})` : '')],
    ['Birthdate', profile.birthdate],
    ['Country', countryOptions().find((c) => c.value === profile.country)?.label ?? profile.country],
    ['Content language', languageOptions().find((l) => l.value === profile.contentLanguage)?.label ?? profile.contentLanguage],
    ['Streaming devices', profile.streamingDevices.join(', ')],
    ['Main platform', profile.mainPlatform],
    [
      'Sign-in',
      account.loginMethods
        .filter((m) => m.connected)
        .map((m) => m.label)
        .join(', '),
    ],
  ];
  return (
    <div className={styles.narrow}>
      <h1 className={styles.title}>Account</h1>
      <section className={styles.card} aria-label="Account">
        <Table
          aria-label="Your account"
          showHeader={false}
          rows={rows}
          rowKey={([label]) => label}
          columns={[
            { key: 'label', header: 'What', rowHeader: true, cell: ([label]) => label },
            { key: 'value', header: 'Value', cell: ([, value]) => value },
          ]}
        />
        <Link to="/partner/settings/personal-information">Change in Settings</Link>
      </section>
    </div>
  );
}
