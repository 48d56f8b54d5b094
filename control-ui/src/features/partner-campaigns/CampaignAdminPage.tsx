import { Plus } from 'lucide-react';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { keyPlatforms, type AdminApplication, type CampaignInput, type CampaignView, type KeyPlatform } from '@onair/protocol';
import { adminCreateCampaign, adminDecide, adminImportKeys, adminInviteCreator, adminLoadApplications, adminLoadCampaigns, adminRecordSales } from '../../actions/campaigns.ts';
import { showToast } from '../../actions/toasts.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import page from '../../pages/Page.module.css';
import partner from '../partner-home/Partner.module.css';
import styles from './Campaigns.module.css';

interface Draft {
  name: string;
  kind: 'game-key' | 'revenue-share';
  game: string;
  publisher: string;
  platforms: KeyPlatform[];
  requiresReview: boolean;
  revenueSharePercent: string;
  promoMin: string;
  promoMax: string;
  minFollowers: string;
  storeUrl: string;
  keysAvailableAt: string;
  expiresAt: string;
}

const emptyDraft: Draft = { name: '', kind: 'game-key', game: '', publisher: '', platforms: ['Steam'], requiresReview: true, revenueSharePercent: '', promoMin: '', promoMax: '', minFollowers: '', storeUrl: '', keysAvailableAt: '', expiresAt: '' };
const num = (s: string) => (s.trim() === '' ? null : Number(s));
const iso = (local: string) => (local ? new Date(local).toISOString() : null);

function toInput(d: Draft): CampaignInput {
  const min = num(d.promoMin);
  const max = num(d.promoMax);
  return {
    name: d.name,
    kind: d.kind,
    status: 'active',
    game: d.game,
    publisher: d.publisher,
    platforms: d.kind === 'game-key' ? d.platforms : [],
    requiresReview: d.requiresReview,
    revenueSharePercent: d.kind === 'revenue-share' ? num(d.revenueSharePercent) : null,
    promoDiscount: min === null ? null : max === null || max === min ? { kind: 'fixed', percent: min } : { kind: 'range', minPercent: min, maxPercent: max },
    requirements: { minFollowers: num(d.minFollowers), minSubscribers: null, minTotalViews: null, minAverageViewers30d: null, minHoursStreamed30d: null },
    storeUrl: d.storeUrl.trim() || null,
    keysAvailableAt: iso(d.keysAvailableAt),
    expiresAt: iso(d.expiresAt),
  };
}

function NewCampaign({ onCreated }: { onCreated: (c: CampaignView) => void }) {
  const [d, setD] = useState<Draft>(emptyDraft);
  const [error, setError] = useState<string | null>(null);
  const field = (key: keyof Draft, label: string, props: Record<string, unknown> = {}) => (
    <label className={partner.field}>
      <span className={partner.label}>{label}</span>
      <input className={partner.input} value={d[key] as string} onChange={(e) => setD({ ...d, [key]: e.target.value })} {...props} />
    </label>
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const outcome = await adminCreateCampaign(toInput(d));
    if (!outcome.ok) return setError(outcome.error);
    setError(null);
    setD(emptyDraft);
    onCreated(outcome.value);
  };
  return (
    <form className={partner.form} onSubmit={(e) => void submit(e)} aria-label="New campaign">
      {field('name', 'Name', { required: true, maxLength: 64 })}
      {field('game', 'Game', { required: true, maxLength: 64 })}
      {field('publisher', 'Publisher', { maxLength: 64 })}
      <div className={partner.field}>
        <span className={partner.label}>Kind</span>
        <div className={partner.checks} role="radiogroup" aria-label="Kind">
          {(['game-key', 'revenue-share'] as const).map((kind) => (
            <label key={kind} className={partner.check}>
              <input type="radio" name="campaign-kind" checked={d.kind === kind} onChange={() => setD({ ...d, kind })} />
              {kind === 'game-key' ? 'Game keys' : 'Revenue share'}
            </label>
          ))}
        </div>
      </div>
      {d.kind === 'game-key' ? (
        <fieldset className={`${partner.field} ${partner.full} ${styles.fieldset}`}>
          <legend className={partner.label}>Key platforms</legend>
          <div className={partner.checks}>
            {keyPlatforms.map((p) => (
              <label key={p} className={partner.check}>
                <input type="checkbox" checked={d.platforms.includes(p)} onChange={(e) => setD({ ...d, platforms: e.target.checked ? [...d.platforms, p] : d.platforms.filter((x) => x !== p) })} />
                {p}
              </label>
            ))}
          </div>
        </fieldset>
      ) : (
        field('revenueSharePercent', 'Revenue share (%)', { type: 'number', min: 0.1, max: 100, step: 0.1 })
      )}
      {field('promoMin', 'Promo discount from (%)', { type: 'number', min: 1, max: 100 })}
      {field('promoMax', 'Promo discount up to (%)', { type: 'number', min: 1, max: 100 })}
      {field('minFollowers', 'Minimum followers', { type: 'number', min: 0 })}
      {field('storeUrl', 'Store page (https://)', { type: 'url' })}
      {field('keysAvailableAt', 'Keys available from', { type: 'datetime-local' })}
      {field('expiresAt', 'Ends', { type: 'datetime-local' })}
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
        <Button type="submit" variant="primary">
          <Plus size={16} aria-hidden /> Create campaign
        </Button>
      </div>
    </form>
  );
}

function CampaignAdmin({ campaign, onChanged }: { campaign: CampaignView; onChanged: () => void }) {
  const [applications, setApplications] = useState<AdminApplication[] | null>(null);
  const [csv, setCsv] = useState('');
  const [sales, setSales] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    void adminLoadApplications(campaign.id).then((o) => (o.ok ? setApplications(o.value) : setError(o.error)));
  }, [campaign.id]);
  useEffect(reload, [reload]);
  const run = async (outcome: Promise<{ ok: true } | { ok: false; error: string }>, done: string) => {
    const result = await outcome;
    if (!result.ok) return setError(result.error);
    setError(null);
    showToast({ kind: 'success', title: done });
    reload();
    onChanged();
  };
  return (
    <div>
      <h2 className={partner.cardTitle}>{campaign.name}</h2>
      <p className={partner.muted}>
        {campaign.kind === 'game-key' ? `${campaign.keys.available} of ${campaign.keys.total} keys left` : `Revenue share ${campaign.revenueSharePercent}%`} · {campaign.status}
      </p>
      {error && (
        <p role="alert" className={partner.formError}>
          {error}
        </p>
      )}
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
          <textarea className={`${partner.input} ${partner.textarea}`} aria-label="Key pool CSV" value={csv} onChange={(e) => setCsv(e.target.value)} placeholder={'key,platform\nAAAA-BBBB-CCCC,Steam'} />
          <div className={partner.actions}>
            <Button variant="primary" disabled={csv.trim() === ''} onClick={() => void run(adminImportKeys(campaign.id, csv), 'Keys imported').then(() => setCsv(''))}>
              Import keys
            </Button>
          </div>
        </section>
      )}
      {campaign.kind === 'revenue-share' && (
        <section className={partner.card} aria-label="Sales">
          <h3 className={partner.label}>Credit sales (CSV with the header sale_id,promo_code,amount_minor,currency)</h3>
          <textarea className={`${partner.input} ${partner.textarea}`} aria-label="Sales CSV" value={sales} onChange={(e) => setSales(e.target.value)} placeholder={'sale_id,promo_code,amount_minor,currency\nS-1001,ADA15,1999,usd'} />
          <p className={partner.hint}>Each sale credits {campaign.revenueSharePercent}% to the creator whose promo code it used, once per sale id.</p>
          <div className={partner.actions}>
            <Button
              variant="primary"
              disabled={sales.trim() === ''}
              onClick={() =>
                void adminRecordSales(campaign.id, sales).then((o) => {
                  if (!o.ok) return setError(o.error);
                  setError(null);
                  setSales('');
                  showToast({ kind: 'success', title: `${o.value.credited} sales credited`, description: o.value.alreadyCredited ? `${o.value.alreadyCredited} were credited before.` : undefined });
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
          <input className={partner.input} type="email" required aria-label="Creator e-mail" placeholder="creator@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
          <Button type="submit">Invite creator</Button>
        </form>
        {applications?.length === 0 && <p className={partner.muted}>No applications yet.</p>}
        {applications && applications.length > 0 && (
          <table className={partner.table}>
            <thead>
              <tr>
                <th scope="col">Creator</th>
                <th scope="col">Channel</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {applications.map((a) => (
                <tr key={a.id}>
                  <td>
                    {a.creator.name ? (
                      <>
                        {a.creator.name}
                        <div className={partner.hint}>{a.creator.email}</div>
                      </>
                    ) : (
                      a.creator.email
                    )}
                  </td>
                  <td>{a.primaryChannel}</td>
                  <td>
                    <span className={styles.status} data-status={a.status}>
                      {a.statusLabel}
                    </span>
                  </td>
                  <td>
                    <div className={styles.row}>
                      {a.status === 'applied' && (
                        <>
                          <Button variant="primary" onClick={() => void run(adminDecide(campaign.id, a.id, 'accept'), 'Application accepted')}>
                            Accept
                          </Button>
                          <Button onClick={() => void run(adminDecide(campaign.id, a.id, 'reject'), 'Application declined')}>Reject</Button>
                        </>
                      )}
                      {(a.status === 'invited' || a.status === 'accepted' || a.status === 'claimed') && <Button onClick={() => void run(adminDecide(campaign.id, a.id, 'rescind'), 'Participation rescinded')}>Rescind</Button>}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

/** The campaign admin portal (administrators only, every change audited on the server). */
export function CampaignAdminPage() {
  useDocumentTitle('Campaign admin');
  const [campaigns, setCampaigns] = useState<CampaignView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const reload = useCallback(() => {
    void adminLoadCampaigns().then((o) => (o.ok ? setCampaigns(o.value) : setError(o.error)));
  }, []);
  useEffect(reload, [reload]);
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
            <NewCampaign
              onCreated={(c) => {
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
