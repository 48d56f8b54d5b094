import { Copy, Handshake } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import type { CreatorCampaign } from '@onair/protocol';
import { closeCampaigns, showCampaigns } from '../../actions/campaigns.ts';
import { showToast } from '../../actions/toasts.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useCampaignsStore } from '../../stores/index.ts';
import partner from '../partner-home/Partner.module.css';
import styles from './Campaigns.module.css';

const TAKING_PART = new Set(['accepted', 'claimed']);
const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** One sponsor: the campaign, the creator's tracked link with its counts, and their promo codes. */
function Sponsor({ item }: { item: CreatorCampaign }) {
  const { campaign, application } = item;
  const link = application?.link ?? null;
  const codes = application?.promoCodes ?? [];
  return (
    <section className={partner.card} aria-label={campaign.name} data-testid="sponsorship">
      <h2 className={partner.cardTitle}>
        <Link to={`/partner/campaigns/${campaign.id}`}>{campaign.name}</Link>
      </h2>
      <p className={styles.meta}>
        <span>{campaign.game}</span>
        <span>{campaign.kind === 'game-key' ? 'Game keys' : `Revenue share ${campaign.revenueSharePercent}%`}</span>
        {application && <span>{application.statusLabel}</span>}
      </p>
      {campaign.kind === 'revenue-share' && (
        <p className={partner.hint} data-testid="revenue-share-note">
          Your share of sales through this link or your promo codes is credited when the publisher reports its sales and our team imports that report, usually
          some days later. Until then your earnings from this campaign show $0.
        </p>
      )}
      <h3 className={partner.label}>Tracked link</h3>
      {link ? (
        <>
          <div className={styles.row}>
            <code className={styles.code} data-testid="sponsorship-link">
              {link.url}
            </code>
            <Button
              onClick={() => {
                void navigator.clipboard?.writeText(link.url);
                showToast({ kind: 'success', title: 'Link copied' });
              }}
            >
              <Copy size={16} aria-hidden /> Copy
            </Button>
          </div>
          <p className={partner.muted} data-testid="sponsorship-counts">
            {count(link.impressions, 'impression', 'impressions')} · {count(link.clicks, 'click', 'clicks')} (all time)
          </p>
        </>
      ) : (
        <p className={partner.muted}>This campaign has no tracked link yet.</p>
      )}
      <h3 className={partner.label}>Promo codes</h3>
      {codes.length === 0 ? (
        <p className={partner.muted}>
          No promo code yet. <Link to={`/partner/campaigns/${campaign.id}`}>Make one on the campaign's page.</Link>
        </p>
      ) : (
        <ul className={styles.codes}>
          {codes.map((c) => (
            <li key={c.code}>
              <code className={styles.code}>{c.code}</code> <span className={partner.muted}>{c.discountPercent}% off</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Sponsorship (partner spec §2): the sponsored links and codes of the campaigns the creator takes
 * part in. Viewers see them on the creator site (Promo codes block) and on stream (an overlay's
 * Sponsor widget); each showing counts an impression and each visit through the link a click,
 * charted in Statistics › Sponsorships.
 */
export function SponsorshipPage() {
  useDocumentTitle('Sponsorship');
  const { items, error } = useCampaignsStore((s) => s.list);
  useEffect(() => {
    void showCampaigns({ list: 'mine' });
    return closeCampaigns;
  }, []);
  const sponsors = (items ?? []).filter((i) => i.application && TAKING_PART.has(i.application.status));
  return (
    <div className={partner.narrow}>
      <h1 className={partner.title}>Sponsorship</h1>
      <p className={partner.lead}>
        Your sponsored links and promo codes. Show them on stream with an overlay's Sponsor widget and on your creator site's Promo codes block: each showing
        counts an impression, each visit through your link a click (see Statistics › Sponsorships).
      </p>
      {error && (
        <p role="alert" className={partner.formError}>
          {error}
        </p>
      )}
      {items &&
        (sponsors.length === 0 ? (
          <EmptyState icon={<Handshake size={32} />} title="No sponsorships yet">
            Campaigns you take part in appear here with your tracked link and promo codes. <Link to="/partner/campaigns">Find a campaign.</Link>
          </EmptyState>
        ) : (
          sponsors.map((item) => <Sponsor key={item.campaign.id} item={item} />)
        ))}
    </div>
  );
}
