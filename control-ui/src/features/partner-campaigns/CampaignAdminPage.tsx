import { Plus, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import {
  businessModels,
  CAMPAIGN_DESCRIPTION_MAX,
  CAMPAIGN_LONG_TEXT_MAX,
  CAMPAIGN_TEXT_MAX,
  campaignStatuses,
  keyPlatforms,
  type CampaignStatus,
  type CampaignView,
} from '@onair/protocol';
import {
  adminCreateCampaign,
  adminDecide,
  adminImportKeys,
  adminInviteCreator,
  adminRecordSales,
  adminUpdateCampaign,
  closeAdminCampaigns,
  showAdminApplications,
  showAdminCampaigns,
} from '../../actions/campaigns.ts';
import type { Result } from '../../actions/result.ts';
import { showToast } from '../../actions/toasts.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Select } from '../../components/Select.tsx';
import { Table } from '../../components/Table.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useCampaignsStore } from '../../stores/index.ts';
import { draftOf, emptyDraft, toInput, type Draft } from '../../model/campaign-draft.ts';
import page from '../../styles/Page.module.css';
import partner from '../partner-home/Partner.module.css';
import styles from './Campaigns.module.css';
import { Input, TextArea } from '../../components/FormField.tsx';

const STATUS_LABELS: Record<CampaignStatus, string> = { draft: 'Draft (not shown to creators)', active: 'Active', paused: 'Paused', ended: 'Ended' };
const statusOptions = campaignStatuses.map((value) => ({ value, label: STATUS_LABELS[value] }));
const businessModelOptions = [{ value: '', label: 'Not said' }, ...businessModels.map((value) => ({ value, label: value }))];

/** One form for a new campaign and for editing a saved one (every field of the admin portal). */
function CampaignForm({ campaign, onSaved }: { campaign?: CampaignView; onSaved: (c: CampaignView) => void }) {
  const [d, setD] = useState<Draft>(() => (campaign ? draftOf(campaign) : emptyDraft));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const statusId = useId();
  const modelId = useId();
  const field = (key: keyof Draft, label: string, props: Record<string, unknown> = {}) => (
    <label className={partner.field}>
      <span className={partner.label}>{label}</span>
      <Input value={d[key] as string} onChange={(e) => setD({ ...d, [key]: e.target.value })} {...props} />
    </label>
  );
  const threshold = (key: keyof Draft, label: string, hint?: string) => (
    <label className={partner.field}>
      <span className={partner.label}>{label}</span>
      <Input type="number" min={0} value={d[key] as string} onChange={(e) => setD({ ...d, [key]: e.target.value })} />
      {hint && <span className={partner.hint}>{hint}</span>}
    </label>
  );
  const setResource = (i: number, change: Partial<{ title: string; url: string }>) =>
    setD({ ...d, resources: d.resources.map((r, j) => (j === i ? { ...r, ...change } : r)) });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const outcome = campaign ? await adminUpdateCampaign(campaign.id, toInput(d)) : await adminCreateCampaign(toInput(d));
    setSaving(false);
    if (!outcome.ok) return setError(outcome.message);
    setError(null);
    if (!campaign) setD(emptyDraft);
    onSaved(outcome.value);
  };
  return (
    <form className={partner.form} onSubmit={(e) => void submit(e)} aria-label={campaign ? 'Edit campaign' : 'New campaign'}>
      {field('name', 'Name', { required: true, maxLength: CAMPAIGN_TEXT_MAX })}
      {field('game', 'Game', { required: true, maxLength: CAMPAIGN_TEXT_MAX })}
      <div className={partner.field}>
        <span className={partner.label}>Kind</span>
        <div className={partner.checks} role="radiogroup" aria-label="Kind">
          {(['game-key', 'revenue-share'] as const).map((kind) => (
            <label key={kind} className={partner.check}>
              <input
                type="radio"
                name={`campaign-kind-${campaign?.id ?? 'new'}`}
                checked={d.kind === kind}
                disabled={campaign !== undefined && d.kind !== kind}
                onChange={() => setD({ ...d, kind })}
              />
              {kind === 'game-key' ? 'Game keys' : 'Revenue share'}
            </label>
          ))}
        </div>
      </div>
      <div className={partner.field}>
        <label className={partner.label} htmlFor={statusId}>
          Status
        </label>
        <Select id={statusId} value={d.status} options={statusOptions} onValueChange={(v) => setD({ ...d, status: v as CampaignStatus })} />
      </div>
      {field('summary', 'Summary', { maxLength: CAMPAIGN_LONG_TEXT_MAX })}
      {field('genre', 'Genre', { maxLength: CAMPAIGN_TEXT_MAX })}
      {field('developer', 'Developer', { maxLength: CAMPAIGN_TEXT_MAX })}
      {field('publisher', 'Publisher', { maxLength: CAMPAIGN_TEXT_MAX })}
      <div className={partner.field}>
        <label className={partner.label} htmlFor={modelId}>
          Business model
        </label>
        <Select id={modelId} value={d.businessModel} options={businessModelOptions} onValueChange={(v) => setD({ ...d, businessModel: v })} />
      </div>
      <label className={`${partner.field} ${partner.full}`}>
        <span className={partner.label}>Description</span>
        <TextArea maxLength={CAMPAIGN_DESCRIPTION_MAX} value={d.description} onChange={(e) => setD({ ...d, description: e.target.value })} />
      </label>
      {d.kind === 'game-key' ? (
        <fieldset className={`${partner.field} ${partner.full} ${styles.fieldset}`}>
          <legend className={partner.label}>Key platforms</legend>
          <div className={partner.checks}>
            {keyPlatforms.map((p) => (
              <label key={p} className={partner.check}>
                <input
                  type="checkbox"
                  checked={d.platforms.includes(p)}
                  onChange={(e) => setD({ ...d, platforms: e.target.checked ? [...d.platforms, p] : d.platforms.filter((x) => x !== p) })}
                />
                {p}
              </label>
            ))}
          </div>
        </fieldset>
      ) : (
        <>
          {field('revenueSharePercent', 'Revenue share (%)', { type: 'number', min: 0.1, max: 100, step: 0.1 })}
          {field('revenueShareEndsAt', 'Revenue share ends', { type: 'datetime-local' })}
        </>
      )}
      {field('promoMin', 'Promo discount from (%)', { type: 'number', min: 1, max: 100 })}
      {field('promoMax', 'Promo discount up to (%)', { type: 'number', min: 1, max: 100 })}
      <fieldset className={`${partner.field} ${partner.full} ${styles.fieldset}`}>
        <legend className={partner.label}>Requirements (empty: none)</legend>
        <div className={styles.thresholds}>
          {threshold('minFollowers', 'Minimum followers')}
          {threshold('minSubscribers', 'Minimum subscribers')}
          {threshold('minAverageViewers30d', 'Average viewers, last 30 days')}
          {threshold('minHoursStreamed30d', 'Hours streamed, last 30 days')}
          {threshold('minTotalViews', 'Minimum total views', 'Twitch no longer reports total views: no creator can meet this today.')}
        </div>
      </fieldset>
      {field('geo', 'Countries (codes, empty: worldwide)', { placeholder: 'US, CA, GB' })}
      {field('storeUrl', 'Store page (https://)', { type: 'url' })}
      {field('keysAvailableAt', 'Keys available from', { type: 'datetime-local' })}
      {field('expiresAt', 'Ends', { type: 'datetime-local' })}
      <fieldset className={`${partner.field} ${partner.full} ${styles.fieldset}`}>
        <legend className={partner.label}>Resources (links shown on the campaign's Resources tab)</legend>
        {d.resources.map((r, i) => (
          <div key={i} className={styles.row}>
            <Input
              aria-label={`Resource ${i + 1} title`}
              placeholder="Press kit"
              maxLength={CAMPAIGN_TEXT_MAX}
              value={r.title}
              onChange={(e) => setResource(i, { title: e.target.value })}
            />
            <Input
              aria-label={`Resource ${i + 1} address`}
              placeholder="https://"
              type="url"
              value={r.url}
              onChange={(e) => setResource(i, { url: e.target.value })}
            />
            <Button aria-label={`Remove resource ${i + 1}`} onClick={() => setD({ ...d, resources: d.resources.filter((_, j) => j !== i) })}>
              <Trash2 size={14} aria-hidden />
            </Button>
          </div>
        ))}
        <div>
          <Button onClick={() => setD({ ...d, resources: [...d.resources, { title: '', url: '' }] })} disabled={d.resources.length >= 20}>
            <Plus size={14} aria-hidden /> Add a resource
          </Button>
        </div>
      </fieldset>
      <label className={partner.check}>
        <input type="checkbox" checked={d.requiresReview} onChange={(e) => setD({ ...d, requiresReview: e.target.checked })} />
        Review applications
      </label>
      {error && (
        <p role="alert" className={`${partner.formError} ${partner.full}`}>
          {error}
        </p>
      )}
      <div className={`${partner.actions} ${partner.full}`}>
        <Button type="submit" variant="primary" disabled={saving}>
          {campaign ? (
            'Save changes'
          ) : (
            <>
              <Plus size={16} aria-hidden /> Create campaign
            </>
          )}
        </Button>
      </div>
    </form>
  );
}

function CampaignAdmin({ campaign, onChanged }: { campaign: CampaignView; onChanged: () => void }) {
  const loaded = useCampaignsStore((s) => s.applications);
  const applications = loaded.campaignId === campaign.id ? loaded.items : null;
  const [csv, setCsv] = useState('');
  const [sales, setSales] = useState('');
  const [email, setEmail] = useState('');
  const [actionError, setError] = useState<string | null>(null);
  const error = actionError ?? (loaded.campaignId === campaign.id ? loaded.error : null);
  const reload = useCallback(() => {
    void showAdminApplications(campaign.id);
  }, [campaign.id]);
  useEffect(reload, [reload]);
  const run = async (outcome: Promise<Result<unknown>>, done: string) => {
    const result = await outcome;
    if (!result.ok) return setError(result.message);
    setError(null);
    showToast({ kind: 'success', title: done });
    reload();
    onChanged();
  };
  return (
    <div>
      <h2 className={partner.cardTitle}>{campaign.name}</h2>
      <p className={partner.muted}>
        {campaign.kind === 'game-key' ? `${campaign.keys.available} of ${campaign.keys.total} keys left` : `Revenue share ${campaign.revenueSharePercent}%`} ·{' '}
        {campaign.status}
      </p>
      {error && (
        <p role="alert" className={partner.formError}>
          {error}
        </p>
      )}
      <details className={partner.card}>
        <summary className={partner.label}>Campaign details</summary>
        <CampaignForm
          key={campaign.id}
          campaign={campaign}
          onSaved={() => {
            showToast({ kind: 'success', title: 'Campaign saved' });
            onChanged();
          }}
        />
      </details>
      {campaign.kind === 'game-key' && (
        <section className={partner.card} aria-label="Key pool">
          <h3 className={partner.label}>Import keys (CSV with the header key,platform)</h3>
          <input
            type="file"
            accept=".csv,text/csv"
            aria-label="Key pool CSV file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void file.text().then(setCsv);
            }}
          />
          <TextArea aria-label="Key pool CSV" value={csv} onChange={(e) => setCsv(e.target.value)} placeholder={'key,platform\nAAAA-BBBB-CCCC,Steam'} />
          <div className={partner.actions}>
            <Button
              variant="primary"
              disabled={csv.trim() === ''}
              onClick={() => void run(adminImportKeys(campaign.id, csv), 'Keys imported').then(() => setCsv(''))}
            >
              Import keys
            </Button>
          </div>
        </section>
      )}
      {campaign.kind === 'revenue-share' && (
        <section className={partner.card} aria-label="Sales">
          <h3 className={partner.label}>Credit sales (CSV with the header sale_id,promo_code,amount_minor,currency)</h3>
          <TextArea
            aria-label="Sales CSV"
            value={sales}
            onChange={(e) => setSales(e.target.value)}
            placeholder={'sale_id,promo_code,amount_minor,currency\nS-1001,ADA15,1999,usd'}
          />
          <p className={partner.hint}>Each sale credits {campaign.revenueSharePercent}% to the creator whose promo code it used, once per sale id.</p>
          <div className={partner.actions}>
            <Button
              variant="primary"
              disabled={sales.trim() === ''}
              onClick={() =>
                void adminRecordSales(campaign.id, sales).then((o) => {
                  if (!o.ok) return setError(o.message);
                  setError(null);
                  setSales('');
                  showToast({
                    kind: 'success',
                    title: `${o.value.credited} sales credited`,
                    description: o.value.alreadyCredited ? `${o.value.alreadyCredited} were credited before.` : undefined,
                  });
                })
              }
            >
              Credit sales
            </Button>
          </div>
        </section>
      )}
      <section className={partner.card} aria-label="Applications">
        <form
          className={styles.row}
          onSubmit={(e) => {
            e.preventDefault();
            void run(adminInviteCreator(campaign.id, email), 'Creator invited').then(() => setEmail(''));
          }}
        >
          <Input type="email" required aria-label="Creator e-mail" placeholder="creator@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
          <Button type="submit">Invite creator</Button>
        </form>
        {applications?.length === 0 && <p className={partner.muted}>No applications yet.</p>}
        {applications && applications.length > 0 && (
          <Table
            aria-label="Applications"
            rows={applications}
            rowKey={(a) => a.id}
            columns={[
              {
                key: 'creator',
                header: 'Creator',
                cell: (a) =>
                  a.creator.name ? (
                    <>
                      {a.creator.name}
                      <div className={partner.hint}>{a.creator.email}</div>
                    </>
                  ) : (
                    a.creator.email
                  ),
              },
              { key: 'channel', header: 'Channel', cell: (a) => a.primaryChannel },
              {
                key: 'status',
                header: 'Status',
                cell: (a) => (
                  <span className={styles.status} data-status={a.status}>
                    {a.statusLabel}
                  </span>
                ),
              },
              {
                key: 'actions',
                header: 'Actions',
                cell: (a) => (
                  <div className={styles.row}>
                    {a.status === 'applied' && (
                      <>
                        <Button variant="primary" onClick={() => void run(adminDecide(campaign.id, a.id, 'accept'), 'Application accepted')}>
                          Accept
                        </Button>
                        <Button onClick={() => void run(adminDecide(campaign.id, a.id, 'reject'), 'Application declined')}>Reject</Button>
                      </>
                    )}
                    {(a.status === 'invited' || a.status === 'accepted' || a.status === 'claimed') && (
                      <Button onClick={() => void run(adminDecide(campaign.id, a.id, 'rescind'), 'Participation rescinded')}>Rescind</Button>
                    )}
                  </div>
                ),
              },
            ]}
          />
        )}
      </section>
    </div>
  );
}

/** The campaign admin portal (administrators only, every change audited on the server). */
export function CampaignAdminPage() {
  useDocumentTitle('Campaign admin');
  const { items: campaigns, error } = useCampaignsStore((s) => s.admin);
  const [selected, setSelected] = useState<string | null>(null);
  const reload = useCallback(() => void showAdminCampaigns(), []);
  useEffect(() => {
    reload();
    return closeAdminCampaigns;
  }, [reload]);
  if (error) return <EmptyState title="The campaign admin portal cannot be opened">{error}</EmptyState>;
  if (!campaigns) return null;
  const current = campaigns.find((c) => c.id === selected) ?? null;
  return (
    <div className={page.page}>
      <header className={page.header}>
        <div>
          <h1 className={page.title}>Campaign admin</h1>
          <p className={page.subtitle}>Game-key and revenue-share campaigns for creators. Every change is recorded with who made it.</p>
        </div>
      </header>
      <div className={styles.admin}>
        <ul className={styles.adminList} aria-label="Campaigns">
          <li>
            <button type="button" className={styles.adminItem} aria-current={selected === null} onClick={() => setSelected(null)}>
              <Plus size={14} aria-hidden /> New campaign
            </button>
          </li>
          {campaigns.map((c) => (
            <li key={c.id}>
              <button type="button" className={styles.adminItem} aria-current={selected === c.id} onClick={() => setSelected(c.id)}>
                {c.name}
                <div className={partner.hint}>
                  {c.game} · {c.status}
                </div>
              </button>
            </li>
          ))}
        </ul>
        <section className={`${page.card} ${styles.adminCard}`}>
          {current ? (
            <CampaignAdmin campaign={current} onChanged={reload} />
          ) : (
            <CampaignForm
              onSaved={(c) => {
                showToast({ kind: 'success', title: 'Campaign created' });
                reload();
                setSelected(c.id);
              }}
            />
          )}
        </section>
      </div>
    </div>
  );
}
