import { ArrowLeft, Copy } from 'lucide-react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { availabilityWords, statsPlatformLabels, type CampaignView, type CreatorCampaign, type KeyPlatform } from '@onair/protocol';
import {
  answerCampaignInvitation,
  applyToCampaign,
  claimCampaignKey,
  closeCampaign,
  createPromoCode,
  openCampaign,
  withdrawFromCampaign,
} from '../../actions/campaigns.ts';
import type { Result } from '../../actions/result.ts';
import { showToast } from '../../actions/toasts.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useCampaignsStore } from '../../stores/index.ts';
import partner from '../partner-home/Partner.module.css';
import { AgreementDialog, ApplyDialog, ClaimDialog, type ApplicationDraft } from './CampaignDialogs.tsx';
import styles from './Campaigns.module.css';
import { Input } from '../../components/FormField.tsx';

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
const discountWords = (c: CampaignView) =>
  !c.promoDiscount ? null : c.promoDiscount.kind === 'fixed' ? `${c.promoDiscount.percent}%` : `${c.promoDiscount.minPercent}–${c.promoDiscount.maxPercent}%`;

function Details({ item }: { item: CreatorCampaign }) {
  const { campaign: c, eligibility } = item;
  const r = c.requirements;
  const requirements = [
    r.minFollowers !== null && `${r.minFollowers.toLocaleString()} followers`,
    r.minSubscribers !== null && `${r.minSubscribers.toLocaleString()} subscribers`,
    r.minTotalViews !== null && `${r.minTotalViews.toLocaleString()} total views`,
    r.minAverageViewers30d !== null && `${r.minAverageViewers30d} average viewers (30 days)`,
    r.minHoursStreamed30d !== null && `${r.minHoursStreamed30d} hours streamed (30 days)`,
  ].filter((x): x is string => Boolean(x));
  return (
    <div className={partner.field}>
      {c.description && <p className={styles.description}>{c.description}</p>}
      <dl className={styles.facts}>
        <dt>Game</dt>
        <dd>{c.game}</dd>
        {c.genre && (
          <>
            <dt>Genre</dt>
            <dd>{c.genre}</dd>
          </>
        )}
        {c.developer && (
          <>
            <dt>Developer</dt>
            <dd>{c.developer}</dd>
          </>
        )}
        {c.publisher && (
          <>
            <dt>Publisher</dt>
            <dd>{c.publisher}</dd>
          </>
        )}
        {c.businessModel && (
          <>
            <dt>Business model</dt>
            <dd>{c.businessModel}</dd>
          </>
        )}
        {c.kind === 'game-key' && (
          <>
            <dt>Platforms</dt>
            <dd>{c.platforms.join(', ')}</dd>
            <dt>Keys left</dt>
            <dd>
              {c.keys.available} of {c.keys.total}
            </dd>
          </>
        )}
        {c.revenueSharePercent !== null && (
          <>
            <dt>Revenue share</dt>
            <dd>
              {c.revenueSharePercent}%{c.revenueShareEndsAt ? ` until ${day(c.revenueShareEndsAt)}` : ''}
              <span className={partner.hint}> · credited when the publisher's sales report is imported, usually some days after a sale</span>
            </dd>
          </>
        )}
        {discountWords(c) && (
          <>
            <dt>Promo discount</dt>
            <dd>{discountWords(c)}</dd>
          </>
        )}
        <dt>Countries</dt>
        <dd>{c.geo.length ? c.geo.join(', ') : 'Worldwide'}</dd>
        {c.expiresAt && (
          <>
            <dt>Ends</dt>
            <dd>{day(c.expiresAt)}</dd>
          </>
        )}
        <dt>Requirements</dt>
        <dd>{requirements.length ? requirements.join(' · ') : 'None'}</dd>
      </dl>
      {!eligibility.eligible && !item.application && (
        <section aria-label="Eligibility">
          <p className={partner.label}>Why you cannot apply yet</p>
          <ul className={styles.reasons}>
            {eligibility.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </section>
      )}
      {eligibility.stats && (
        <p className={partner.hint} data-testid="eligibility-channel">
          Judged on your {statsPlatformLabels[eligibility.stats.platform]} channel.
          {!eligibility.stats.complete && ' Your 30-day figures cover the days OnAir has sampled your channel so far; they are exact after 30 days.'}
        </p>
      )}
    </div>
  );
}

function Resources({ campaign }: { campaign: CampaignView }) {
  if (campaign.resources.length === 0) return <p className={partner.muted}>This campaign has no resources.</p>;
  return (
    <ul className={partner.list}>
      {campaign.resources.map((r) => (
        <li key={r.url} className={partner.item}>
          <a href={r.url} target="_blank" rel="noopener noreferrer">
            {r.title}
          </a>
        </li>
      ))}
    </ul>
  );
}

function PromoCodes({ item }: { item: CreatorCampaign }) {
  const discount = item.campaign.promoDiscount;
  const [min, max] = !discount ? [0, 0] : discount.kind === 'fixed' ? [discount.percent, discount.percent] : [discount.minPercent, discount.maxPercent];
  const [code, setCode] = useState('');
  const [percent, setPercent] = useState(min);
  const [error, setError] = useState<string | null>(null);
  if (!discount) return null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const outcome = await createPromoCode(item.campaign.id, code.trim() === '' ? null : code.trim(), percent);
    if (outcome.ok) {
      setCode('');
      setError(null);
    } else setError(outcome.message);
  };
  return (
    <section className={partner.card} aria-labelledby="promo-heading">
      <h2 id="promo-heading" className={partner.cardTitle}>
        Promo codes
      </h2>
      <form className={styles.row} onSubmit={(e) => void submit(e)}>
        <label className={partner.field}>
          <span className={partner.label}>Code (A–Z and digits; empty: generated)</span>
          <Input value={code} maxLength={20} placeholder="YOURNAME15" onChange={(e) => setCode(e.target.value.toUpperCase())} />
        </label>
        <label className={partner.field}>
          <span className={partner.label}>Discount ({min === max ? `${min}%` : `${min}–${max}%`})</span>
          <Input type="number" min={min} max={max} value={percent} onChange={(e) => setPercent(Number(e.target.value))} />
        </label>
        <Button type="submit" variant="primary">
          Generate code
        </Button>
      </form>
      {error && (
        <p role="alert" className={partner.formError}>
          {error}
        </p>
      )}
      {item.application!.promoCodes.length > 0 && (
        <ul className={partner.list} aria-label="Your promo codes">
          {item.application!.promoCodes.map((p) => (
            <li key={p.code} className={partner.item}>
              <span className={styles.code}>{p.code}</span>
              <span className={partner.muted}>{p.discountPercent}% off</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function TrackedLink({ item }: { item: CreatorCampaign }) {
  const link = item.application?.link;
  if (!link) return null;
  return (
    <section className={partner.card} aria-labelledby="link-heading">
      <h2 id="link-heading" className={partner.cardTitle}>
        Your link
      </h2>
      <div className={styles.row}>
        <code className={styles.code} data-testid="tracked-link">
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
      <p className={partner.muted} data-testid="link-counts">
        {link.clicks} {link.clicks === 1 ? 'click' : 'clicks'} · {link.impressions} {link.impressions === 1 ? 'impression' : 'impressions'}
      </p>
    </section>
  );
}

/** Partner spec §2 campaign detail: Campaign details and Resources tabs, and the creator's next step. */
export function CampaignDetailPage() {
  const { campaignId = '' } = useParams();
  const { item, error: loadError } = useCampaignsStore((s) => s.detail);
  const [dialog, setDialog] = useState<'apply' | 'agreement' | 'claim' | null>(null);
  const [draft, setDraft] = useState<ApplicationDraft | null>(null);
  const [pending, setPending] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  useDocumentTitle(item ? `Campaign · ${item.campaign.name}` : 'Campaign');
  useEffect(() => {
    void openCampaign(campaignId);
  }, [campaignId]);
  useEffect(() => closeCampaign, []);

  const act = async (run: () => Promise<Result<CreatorCampaign>>, done?: string) => {
    setPending(true);
    const outcome = await run();
    setPending(false);
    if (outcome.ok) {
      setActionError(null);
      setDialog(null);
      if (done) showToast({ kind: 'success', title: done });
    } else setActionError(outcome.message);
  };

  if (loadError) return <EmptyState title="Campaign not found">{loadError}</EmptyState>;
  if (!item) return null;
  const { campaign, application, eligibility } = item;
  const now = new Date();
  const keysAt = campaign.keysAvailableAt ? new Date(campaign.keysAvailableAt) : null;
  const keysOpen = !keysAt || keysAt <= now;

  let next: ReactNode = null;
  if (!application) {
    next = (
      <Button variant="primary" disabled={!eligibility.eligible} onClick={() => setDialog('apply')}>
        {campaign.requiresReview ? 'Apply' : 'Join'}
      </Button>
    );
  } else if (application.status === 'invited') {
    next = (
      <>
        <Button variant="primary" disabled={pending} onClick={() => void act(() => answerCampaignInvitation(campaign.id, true), 'Invitation accepted')}>
          Accept invitation
        </Button>
        <Button disabled={pending} onClick={() => void act(() => answerCampaignInvitation(campaign.id, false))}>
          Decline
        </Button>
      </>
    );
  } else if (application.status === 'applied' || application.status === 'accepted') {
    next = (
      <>
        {application.status === 'accepted' && campaign.kind === 'game-key' && (
          <Button variant="primary" disabled={!keysOpen || pending} onClick={() => setDialog('claim')}>
            {keysOpen ? 'Claim key' : `Keys available ${availabilityWords(keysAt!, now)}`}
          </Button>
        )}
        <Button
          disabled={pending}
          onClick={() =>
            void act(() => withdrawFromCampaign(campaign.id), application.status === 'applied' ? 'Application withdrawn' : 'You left the campaign')
          }
        >
          {application.status === 'applied' ? 'Withdraw application' : 'Leave campaign'}
        </Button>
      </>
    );
  }

  return (
    <div className={partner.narrow}>
      <Link to="/partner/campaigns" className={partner.muted}>
        <ArrowLeft size={14} aria-hidden /> Campaigns
      </Link>
      <h1 className={partner.title}>{campaign.name}</h1>
      <div className={`${partner.lead} ${styles.row}`}>
        <span>
          {campaign.game}
          {campaign.publisher ? ` · ${campaign.publisher}` : ''}
        </span>
        {application && (
          <span className={styles.status} data-status={application.status} data-testid="application-status">
            {application.statusLabel}
          </span>
        )}
      </div>
      {application?.gameKey && (
        <section className={partner.card} aria-labelledby="key-heading">
          <h2 id="key-heading" className={partner.cardTitle}>
            Your {application.gameKey.platform} key
          </h2>
          <div className={styles.key} data-testid="game-key">
            {application.gameKey.key}
          </div>
        </section>
      )}
      {next && <div className={styles.next}>{next}</div>}
      {actionError && dialog === null && (
        <p role="alert" className={partner.formError}>
          {actionError}
        </p>
      )}
      {(application?.status === 'accepted' || application?.status === 'claimed') && (
        <>
          <PromoCodes item={item} />
          <TrackedLink item={item} />
        </>
      )}
      <section className={partner.card}>
        <Tabs
          label="Campaign"
          initialTab="details"
          tabs={[
            { id: 'details', label: 'Campaign details', panel: <Details item={item} /> },
            { id: 'resources', label: 'Resources', panel: <Resources campaign={campaign} /> },
          ]}
        />
      </section>
      <ApplyDialog
        campaign={campaign}
        open={dialog === 'apply'}
        onClose={() => setDialog(null)}
        onContinue={(d) => {
          setDraft(d);
          setActionError(null);
          setDialog('agreement');
        }}
      />
      <AgreementDialog
        campaign={campaign}
        open={dialog === 'agreement'}
        pending={pending}
        error={actionError}
        onClose={() => setDialog('apply')}
        onAccept={() =>
          draft &&
          void act(
            () => applyToCampaign(campaign.id, { ...draft, agreementAccepted: true }),
            campaign.requiresReview ? 'Application sent' : 'You joined the campaign',
          )
        }
      />
      <ClaimDialog
        campaign={campaign}
        open={dialog === 'claim'}
        pending={pending}
        error={actionError}
        onClose={() => setDialog(null)}
        onClaim={(platform: KeyPlatform) => void act(() => claimCampaignKey(campaign.id, platform), 'Key claimed')}
      />
    </div>
  );
}
