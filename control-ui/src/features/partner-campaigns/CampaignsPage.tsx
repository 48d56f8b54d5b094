import { Gamepad2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { campaignKindSchema, keyPlatformSchema, keyPlatforms, type CreatorCampaign } from '@onair/protocol';
import { closeCampaigns, showCampaigns, type CampaignFilters } from '../../actions/campaigns.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Select } from '../../components/Select.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useCampaignsStore } from '../../stores/index.ts';
import partner from '../partner-home/Partner.module.css';
import styles from './Campaigns.module.css';
import { Input } from '../../components/FormField.tsx';

const ALL = 'all';
const kindOptions = [
  { value: ALL, label: 'All kinds' },
  { value: 'game-key', label: 'Game keys' },
  { value: 'revenue-share', label: 'Revenue share' },
];
const platformOptions = [{ value: ALL, label: 'All platforms' }, ...keyPlatforms.map((p) => ({ value: p, label: p }))];

/** One campaign in a list: its game, what it offers, and where the creator stands. */
function CampaignCard({ item }: { item: CreatorCampaign }) {
  const { campaign, application } = item;
  return (
    <li>
      <Link to={`/partner/campaigns/${campaign.id}`} className={styles.campaign} data-testid="campaign-card">
        <span className={styles.campaignName}>{campaign.name}</span>
        <span className={styles.meta}>
          <span>{campaign.game}</span>
          {campaign.genre && <span>{campaign.genre}</span>}
          <span>{campaign.kind === 'game-key' ? `Game keys · ${campaign.platforms.join(', ')}` : `Revenue share ${campaign.revenueSharePercent}%`}</span>
        </span>
        {campaign.summary && <span className={partner.muted}>{campaign.summary}</span>}
        {application ? (
          <span className={styles.status} data-status={application.status}>
            {application.statusLabel}
          </span>
        ) : (
          !item.eligibility.eligible && <span className={partner.hint}>Requirements not met</span>
        )}
      </Link>
    </li>
  );
}

const ONBOARDED_KEY = 'onair.campaigns.onboarded';

/** Campaign onboarding: how taking part works, until the creator dismisses it. */
function Onboarding() {
  const [shown, setShown] = useState(() => localStorage.getItem(ONBOARDED_KEY) !== 'yes');
  if (!shown) return null;
  return (
    <section className={partner.card} aria-labelledby="campaign-onboarding">
      <h2 id="campaign-onboarding" className={partner.cardTitle}>
        How campaigns work
      </h2>
      <ol className={styles.reasons}>
        <li>
          Find a campaign you qualify for. OnAir reads the followers, subscribers and viewers of your linked Twitch channel, and of the YouTube channel of your
          linked Google account, every few minutes.
        </li>
        <li>Apply and accept its agreement. Some campaigns let you join at once; others review your application first.</li>
        <li>Once you are in, claim your game key when keys are available, and share your promo code and your link on stream.</li>
      </ol>
      <div className={partner.actions}>
        <Button
          onClick={() => {
            localStorage.setItem(ONBOARDED_KEY, 'yes');
            setShown(false);
          }}
        >
          Got it
        </Button>
      </div>
    </section>
  );
}

/** Partner spec §2 Campaigns: Discover (running campaigns) and My campaigns, with filters. */
export function CampaignsPage() {
  useDocumentTitle('Campaigns');
  const [filters, setFilters] = useState<CampaignFilters>({ list: 'discover' });
  const state = useCampaignsStore((s) => s.list);
  useEffect(() => {
    void showCampaigns(filters);
  }, [filters]);
  useEffect(() => closeCampaigns, []);
  const set = (patch: Partial<CampaignFilters>) => setFilters((f) => ({ ...f, ...patch }));

  return (
    <div>
      <h1 className={partner.title}>Campaigns</h1>
      <p className={partner.lead}>
        Game keys and revenue share from game developers and publishers. Apply, get accepted, and play on stream.{' '}
        <span data-testid="campaign-platforms-note">
          Requirements are checked on Twitch and YouTube only (the better of the two counts). Facebook, TikTok and other platforms are not read, so an audience
          there does not count towards a campaign yet.
        </span>
      </p>
      <Onboarding />
      <div className={styles.filters}>
        <div role="radiogroup" aria-label="Which campaigns" className={styles.row}>
          {(['discover', 'mine'] as const).map((list) => (
            <label key={list} className={partner.check}>
              <input type="radio" name="campaign-list" checked={filters.list === list} onChange={() => set({ list })} />
              {list === 'discover' ? 'Discover' : 'My campaigns'}
            </label>
          ))}
        </div>
        <div className={styles.filter}>
          <Select
            aria-label="Kind"
            value={filters.kind ?? ALL}
            options={kindOptions}
            onValueChange={(v) => set({ kind: campaignKindSchema.safeParse(v).data })}
          />
        </div>
        <div className={styles.filter}>
          <Select
            aria-label="Platform"
            value={filters.platform ?? ALL}
            options={platformOptions}
            onValueChange={(v) => set({ platform: keyPlatformSchema.safeParse(v).data })}
          />
        </div>
        <Input
          className={`${partner.input} ${styles.search}`}
          type="search"
          aria-label="Search campaigns"
          placeholder="Search by name or game"
          maxLength={64}
          onChange={(e) => set({ search: e.target.value.trim() || undefined })}
        />
      </div>
      {state.error && (
        <p role="alert" className={partner.formError}>
          {state.error}
        </p>
      )}
      {state.items?.length === 0 && (
        <EmptyState icon={<Gamepad2 size={32} />} title={filters.list === 'mine' ? 'No campaigns yet' : 'No campaigns running'}>
          {filters.list === 'mine'
            ? 'Campaigns you apply to or are invited to appear here.'
            : 'New campaigns appear here when developers and publishers start them.'}
        </EmptyState>
      )}
      {state.items && state.items.length > 0 && (
        <ul className={styles.grid} aria-label={filters.list === 'mine' ? 'My campaigns' : 'Discover'}>
          {state.items.map((item) => (
            <CampaignCard key={item.campaign.id} item={item} />
          ))}
        </ul>
      )}
    </div>
  );
}
