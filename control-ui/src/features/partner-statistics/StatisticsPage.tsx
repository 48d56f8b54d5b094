import { BarChart3 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { channelAllows, formatMoney, REVENUE_WINDOW_DAYS, statisticsGroupings } from '@onair/protocol';
import { closeStatistics, showStatistics } from '../../actions/money.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Input } from '../../components/FormField.tsx';
import { Select } from '../../components/Select.tsx';
import { Table } from '../../components/Table.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { usePartnerStore, useStatisticsStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';
import m from '../partner-payouts/Money.module.css';

const groupingWords: Record<(typeof statisticsGroupings)[number], string> = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly', stream: 'By stream' };
const GROUPINGS = statisticsGroupings.map((g) => ({ value: g, label: groupingWords[g] }));
const eventWords: Record<string, string> = {
  follow: 'Follows',
  sub: 'Subscriptions',
  resub: 'Resubscriptions',
  twitchRaid: 'Raids',
  twitchCheer: 'Cheers',
  tip: 'Tips',
  charity: 'Charity donations',
  host: 'Hosts',
  tweet: 'Tweets',
};

/**
 * Statistics (partner spec §2): Channel, Revenue, Events and Sponsorships for the last 30 days
 * (§9) or a chosen window, with revenue (Revenue) and sponsor impressions and clicks (Sponsorships)
 * charted daily, weekly, monthly or by stream. Revenue is the owner's; an Analytics collaborator
 * sees the rest.
 */
export function StatisticsPage() {
  useDocumentTitle('Statistics');
  const channel = usePartnerStore((s) => s.channels.find((c) => c.id === s.selectedChannelId) ?? null);
  const [groupBy, setGroupBy] = useState<(typeof statisticsGroupings)[number]>('daily');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const stats = useStatisticsStore((s) => s.stats);
  const error = useStatisticsStore((s) => s.error);
  const allowed = channel ? channelAllows(channel.owner ? { kind: 'owner' } : { kind: 'collaborator', groups: channel.permissions }, 'view statistics') : false;
  useEffect(() => {
    if (!channel || !allowed) return;
    void showStatistics(channel.id, { groupBy, ...(from ? { from } : {}), ...(to ? { to } : {}) });
  }, [channel, allowed, groupBy, from, to]);
  useEffect(() => closeStatistics, []);
  if (channel && !allowed)
    return <EmptyState title="Statistics are not part of your access">Ask the owner of {channel.name} for the Analytics group.</EmptyState>;
  if (error && !stats) return <EmptyState title="Statistics could not be loaded">{error}</EmptyState>;
  if (!stats) return null;
  const currency = stats.revenue?.currency ?? 'usd';
  const series = stats.series.map((p) => ({ ...p, revenueMajor: p.revenue / 100 }));
  return (
    <div className={m.wide}>
      <h1 className={styles.title}>Statistics</h1>
      <div className={m.toolbar} role="group" aria-label="Window and grouping">
        <label className={m.toolbarField}>
          From <Input type="date" value={from || stats.from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className={m.toolbarField}>
          To <Input type="date" value={to || stats.to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <span className={m.toolbarField}>
          <span aria-hidden>Group</span>
          <span className={m.grouping}>
            <Select aria-label="Group by" value={groupBy} options={GROUPINGS} onValueChange={(value) => setGroupBy(value as typeof groupBy)} />
          </span>
        </span>
        {!from && !to && <span className={styles.hint}>The last {REVENUE_WINDOW_DAYS} days</span>}
        <TimeZoneNote timeZone={stats.timeZone} />
        {error && (
          <span role="alert" className={styles.formError}>
            {error}
          </span>
        )}
      </div>
      <section className={styles.card} aria-label="Channel">
        <h2 className={styles.cardTitle}>Channel</h2>
        <div className={m.figures}>
          <Figure label="Streams" value={String(stats.channel.streams)} />
          <Figure label="Hours streamed" value={String(stats.channel.hoursStreamed)} />
          <Figure label="Events" value={String(stats.channel.events)} />
        </div>
      </section>
      <section className={styles.card} aria-label="Revenue">
        <h2 className={styles.cardTitle}>Revenue</h2>
        {stats.revenue ? (
          <div className={m.figures}>
            <Figure label="Net revenue" value={formatMoney(stats.revenue.total, currency)} testId="revenue-total" />
            <Figure label="Tips" value={`${formatMoney(stats.revenue.tips, currency)} (${stats.revenue.tipCount})`} />
            <Figure label="Charity raised" value={formatMoney(stats.revenue.charity, currency)} />
            <Figure label="Tip page views" value={String(stats.revenue.tipPageViews)} />
            <Figure label="Tips started" value={String(stats.revenue.tipCheckouts)} />
          </div>
        ) : (
          <p className={styles.muted}>Revenue is shown to the channel owner only.</p>
        )}
        {series.length === 0 ? (
          <EmptyState icon={<BarChart3 size={32} />} title="No streams in this window">
            Grouped by stream, each stream of the window is one bar.
          </EmptyState>
        ) : (
          <div className={m.chart} role="img" aria-label={`Revenue, impressions and clicks, ${groupingWords[groupBy].toLowerCase()}`}>
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={series} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" />
                <XAxis dataKey="label" tick={{ fontSize: 11 }} stroke="var(--color-text-muted)" />
                <YAxis tick={{ fontSize: 11 }} stroke="var(--color-text-muted)" />
                <Tooltip formatter={(value) => formatMoney(Math.round(Number(value) * 100), currency)} />
                <Legend />
                <Bar isAnimationActive={false} dataKey="revenueMajor" name={`Revenue (${currency.toUpperCase()})`} fill="#7c5cff" />
              </BarChart>
            </ResponsiveContainer>
          </div>
        )}
      </section>
      <section className={styles.card} aria-label="Events">
        <h2 className={styles.cardTitle}>Events</h2>
        {stats.events.length === 0 ? (
          <p className={styles.muted}>No events in this window.</p>
        ) : (
          <Table
            aria-label="Events in this window"
            rows={stats.events}
            rowKey={(e) => e.type}
            columns={[
              { key: 'event', header: 'Event', rowHeader: true, cell: (e) => eventWords[e.type] ?? 'Unsupported event type' },
              { key: 'count', header: 'Count', align: 'end', cell: (e) => e.count },
            ]}
          />
        )}
      </section>
      <section className={styles.card} aria-label="Sponsorships">
        <h2 className={styles.cardTitle}>Sponsorships</h2>
        <div className={m.figures}>
          <Figure label="Active campaigns" value={String(stats.sponsorships.campaigns)} />
          {stats.revenue && <Figure label="Campaign revenue" value={formatMoney(stats.sponsorships.revenue, currency)} />}
          <Figure label="Impressions" value={String(stats.sponsorships.linkImpressions)} testId="sponsor-impressions" />
          <Figure label="Clicks" value={String(stats.sponsorships.linkClicks)} testId="sponsor-clicks" />
        </div>
        {stats.revenue && stats.sponsorships.campaigns > 0 && <RevenueShareNote currency={currency} />}
        {series.length > 0 && (
          <div className={m.chart} role="img" aria-label={`Sponsor impressions and clicks, ${groupingWords[groupBy].toLowerCase()}`}>
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={series} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" />
                <XAxis dataKey="label" tick={{ fontSize: 11 }} stroke="var(--color-text-muted)" />
                <YAxis allowDecimals={false} tick={{ fontSize: 11 }} stroke="var(--color-text-muted)" />
                <Tooltip />
                <Legend />
                <Line isAnimationActive={false} type="monotone" dataKey="impressions" name="Impressions (sponsor shown)" stroke="#22a06b" dot={false} />
                <Line isAnimationActive={false} type="monotone" dataKey="clicks" name="Clicks (tracked links)" stroke="#e2a400" dot={false} />
              </LineChart>
            </ResponsiveContainer>
          </div>
        )}
        {stats.sponsorships.links.length === 0 ? (
          <p className={styles.muted}>You take part in no campaign right now. Campaigns you join appear here with their impressions, clicks and earnings.</p>
        ) : (
          <Table
            aria-label="Sponsorships in this window"
            rows={stats.sponsorships.links}
            rowKey={(l) => l.campaignId}
            columns={[
              { key: 'campaign', header: 'Campaign', rowHeader: true, cell: (l) => l.campaignName },
              { key: 'impressions', header: 'Impressions', align: 'end', cell: (l) => l.impressions },
              { key: 'clicks', header: 'Clicks', align: 'end', cell: (l) => l.clicks },
              ...(stats.revenue
                ? [
                    {
                      key: 'revenue',
                      header: 'Revenue',
                      align: 'end' as const,
                      cell: (l: (typeof stats.sponsorships.links)[number]) => formatMoney(l.revenue, currency),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </section>
    </div>
  );
}

/** Which zone cut the days (the browser's, sent with the request). */
export function TimeZoneNote({ timeZone }: { timeZone: string }) {
  return (
    <span className={styles.hint} data-testid="statistics-time-zone">
      Days run midnight to midnight, {zoneWords(timeZone)}
    </span>
  );
}

/** Why a revenue-share campaign still shows nothing earned: its credit waits for the publisher's sales report. */
export function RevenueShareNote({ currency }: { currency: string }) {
  return (
    <p className={styles.muted} data-testid="revenue-share-note">
      Revenue-share earnings appear here once the game's publisher reports its sales and our team imports that report, usually some days after the sales. Until
      then a campaign shows {formatMoney(0, currency)} even if people bought through your link.
    </p>
  );
}

/** "Europe/Paris" → "Paris time (Europe/Paris)"; UTC as is. */
function zoneWords(timeZone: string): string {
  if (timeZone === 'UTC') return 'UTC.';
  const city = timeZone.split('/').at(-1)?.replaceAll('_', ' ') ?? timeZone;
  return `${city} time (${timeZone}).`;
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className={m.figure}>
      <span className={styles.muted}>{label}</span>
      <span className={m.figureValue} data-testid={testId}>
        {value}
      </span>
    </div>
  );
}
