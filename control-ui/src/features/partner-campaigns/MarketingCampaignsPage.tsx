import { Gamepad2 } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { closePublicCampaigns, showPublicCampaigns } from '../../actions/campaigns.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useCampaignsStore } from '../../stores/index.ts';
import page from '../../styles/Page.module.css';
import partner from '../partner-home/Partner.module.css';
import styles from './Campaigns.module.css';

/** Spec §2 Marketing › campaigns page: what runs now, for anyone, and the way in for creators. */
export function MarketingCampaignsPage() {
  useDocumentTitle('Campaigns for creators');
  const { items: campaigns, error } = useCampaignsStore((s) => s.running);
  useEffect(() => {
    void showPublicCampaigns();
    return closePublicCampaigns;
  }, []);
  return (
    <div className={page.page}>
      <header className={page.header}>
        <div>
          <h1 className={page.title}>Campaigns for creators</h1>
          <p className={page.subtitle}>
            Game developers and publishers offer game keys and a share of their revenue to creators who play their games on stream.
          </p>
        </div>
        <Link to="/partner/campaigns">Join the partner network</Link>
      </header>
      {error && (
        <p role="alert" className={partner.formError}>
          {error}
        </p>
      )}
      {campaigns?.length === 0 && (
        <EmptyState icon={<Gamepad2 size={32} />} title="No campaigns running">
          New campaigns appear here when developers and publishers start them.
        </EmptyState>
      )}
      {campaigns && campaigns.length > 0 && (
        <ul className={styles.grid} aria-label="Campaigns running now">
          {campaigns.map((c) => (
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
