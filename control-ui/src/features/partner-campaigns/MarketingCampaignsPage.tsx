import { Gamepad2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { PublicCampaign } from '@onair/protocol';
import { loadPublicCampaigns } from '../../actions/campaigns.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import page from '../../pages/Page.module.css';
import partner from '../partner-home/Partner.module.css';
import styles from './Campaigns.module.css';

/** Spec §2 Marketing › campaigns page: what runs now, for anyone, and the way in for creators. */
export function MarketingCampaignsPage() {
  useDocumentTitle('Campaigns for creators');
  const [state, setState] = useState<{ campaigns: PublicCampaign[] | null; error: string | null }>({ campaigns: null, error: null });
  useEffect(() => {
    void loadPublicCampaigns().then((o) => setState(o.ok ? { campaigns: o.value, error: null } : { campaigns: null, error: o.error }));
  }, []);
  return (
    <div className={page.page}>
      <header className={page.header}>
        <div>
          <h1 className={page.title}>Campaigns for creators</h1>
          <p className={page.subtitle}>Game developers and publishers offer game keys and a share of their revenue to creators who play their games on stream.</p>
        </div>
        <Link to="/partner/campaigns">Join the partner network</Link>
      </header>
      {state.error && (
        <p role="alert" className={partner.formError}>
          {state.error}
        </p>
      )}
      {state.campaigns?.length === 0 && (
        <EmptyState icon={<Gamepad2 size={32} />} title="No campaigns running">
          New campaigns appear here when developers and publishers start them.
        </EmptyState>
      )}
      {state.campaigns && state.campaigns.length > 0 && (
        <ul className={styles.grid} aria-label="Campaigns running now">
          {state.campaigns.map((c) => (
            <li key={c.id} className={styles.campaign}>
              <span className={styles.campaignName}>{c.name}</span>
              <span className={styles.meta}>
                <span>{c.game}</span>
                {c.publisher && <span>{c.publisher}</span>}
                <span>{c.kind === 'game-key' ? `Game keys · ${c.platforms.join(', ')}` : `Revenue share ${c.revenueSharePercent}%`}</span>
              </span>
              {c.summary && <span className={partner.muted}>{c.summary}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
