import { Gamepad2, RefreshCw } from 'lucide-react';
import { Link } from 'react-router';
import { refreshReadiness } from '../actions/system.ts';
import { Button } from '../components/Button.tsx';
import { VipGrants } from '../features/admin-plans/VipGrants.tsx';
import { FleetDashboard } from '../features/fleet/FleetDashboard.tsx';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import { readinessParts } from '../model/readiness.ts';
import { useSystemStore, type ReadinessStatus } from '../stores/index.ts';
import styles from '../styles/Page.module.css';
import adminStyles from './AdminPage.module.css';

/** The operators' dashboard (administrators only): the health of the system, then the fleet of workers live. */
export function AdminPage() {
  useDocumentTitle('Operators');
  const status = useSystemStore((state) => state.readiness);
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <div>
          <h1 className={styles.title}>Operators&apos; dashboard</h1>
          <p className={styles.subtitle}>The health and the load of this OnAir deployment.</p>
        </div>
        <div className={adminStyles.headerActions}>
          <Link to="/admin/campaigns" className={adminStyles.headerLink}>
            <Gamepad2 size={16} aria-hidden />
            Campaign admin
          </Link>
          <Button onClick={() => void refreshReadiness()}>
            <RefreshCw size={16} aria-hidden />
            Check now
          </Button>
        </div>
      </header>
      <section className={styles.card} aria-label="System health">
        <SystemHealth status={status} />
      </section>
      <div className={adminStyles.fleet}>
        <FleetDashboard />
      </div>
      <section className={styles.card} aria-labelledby="vip-heading">
        <VipGrants />
      </section>
    </div>
  );
}

function SystemHealth({ status }: { status: ReadinessStatus }) {
  if (status.kind === 'checking') return <p className={adminStyles.message}>Asking the api…</p>;
  if (status.kind === 'unreachable') return <p className={adminStyles.message}>The api did not answer: {status.reason}</p>;
  return (
    <>
      <ul className={adminStyles.parts}>
        {readinessParts(status.readiness).map((part) => (
          <li key={part.label} className={adminStyles.part} data-ok={part.ok}>
            <span className={adminStyles.light} aria-hidden />
            <span className={adminStyles.partLabel}>{part.label}</span>
            <span>{part.ok ? 'Up' : (part.detail ?? 'Down')}</span>
          </li>
        ))}
      </ul>
      <p className={adminStyles.checkedAt}>Checked at {new Date(status.checkedAt).toLocaleTimeString()}</p>
    </>
  );
}
