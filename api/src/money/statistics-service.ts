import { REVENUE_WINDOW_DAYS, type Statistics } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { TipsService } from './tips-service.ts';

const DAY_MS = 24 * 3600 * 1000;
const REVENUE_KINDS = ['tip', 'tip_refund', 'tip_dispute', 'tip_dispute_won'];
/** The graph's revenue: net tips and campaign revenue shares. */
const SERIES_KINDS = [...REVENUE_KINDS, 'campaign_revenue'];
const STREAMS_SHOWN = 60;

type Grouping = Statistics['groupBy'];
const truncUnit: Record<Exclude<Grouping, 'stream'>, 'day' | 'week' | 'month'> = { daily: 'day', weekly: 'week', monthly: 'month' };

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const utcDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/**
 * Calendar arithmetic happens on "wall" dates: a Date whose UTC fields are the local date and time in
 * the creator's zone. These turn instants into wall dates and a wall midnight back into its instant.
 */
function wallTime(at: Date, timeZone: string): Date {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const n = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return new Date(Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')));
}

/** The instant a wall date-time happens in the zone (the later one across a DST change). */
function instantOf(wall: Date, timeZone: string): Date {
  const offset = (at: Date) => wallTime(at, timeZone).getTime() - Math.floor(at.getTime() / 1000) * 1000;
  const guess = new Date(wall.getTime() - offset(wall));
  return new Date(wall.getTime() - offset(guess));
}

/** The start of the bucket a day falls in (weeks start on Monday, as PostgreSQL's date_trunc has them). */
function bucketStart(day: Date, unit: 'day' | 'week' | 'month'): Date {
  if (unit === 'day') return day;
  if (unit === 'month') return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
  const back = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - back * DAY_MS);
}

/**
 * Statistics (partner spec §2): Channel, Revenue, Events and Sponsorships sections over a window
 * (the last 30 days unless asked, §9), and a series of revenue (net tips and campaign revenue from
 * the ledger), sponsor impressions (the creator site or an overlay showed a campaign's code or
 * link) and clicks (through the tracked links) grouped daily, weekly (from Monday), monthly or by
 * stream. Days are the creator's: they start at midnight in the time zone the browser sends (UTC
 * without one), so an evening stream is not cut in two at UTC midnight.
 */
export class StatisticsService {
  constructor(private readonly deps: { db: Db; tips: TipsService; now?: () => Date }) {}

  async statistics(
    channelId: string,
    query: { from?: string | undefined; to?: string | undefined; groupBy: Grouping; timeZone?: string | undefined },
    withRevenue: boolean,
  ): Promise<Statistics> {
    const timeZone = query.timeZone ?? 'UTC';
    // Wall days (the creator's calendar), and the instants the window starts and ends at.
    const today = utcDay(wallTime(this.deps.now?.() ?? new Date(), timeZone));
    const to = query.to ? new Date(`${query.to}T00:00:00Z`) : today;
    const fromDay = query.from ? new Date(`${query.from}T00:00:00Z`) : new Date(to.getTime() - (REVENUE_WINDOW_DAYS - 1) * DAY_MS);
    const from = instantOf(fromDay, timeZone);
    const end = instantOf(new Date(to.getTime() + DAY_MS), timeZone);
    const { currency } = await this.deps.tips.settings(channelId);
    const db = this.deps.db;

    const [broadcasts, eventCounts, revenueRows, charityEvents, tipHits] = await Promise.all([
      db.broadcast.findMany({
        where: { project: { ownerId: channelId }, startedAt: { gte: from, lt: end } },
        orderBy: { startedAt: 'asc' },
        take: STREAMS_SHOWN,
        select: { id: true, startedAt: true, endedAt: true, project: { select: { name: true } } },
      }),
      db.liveEvent.groupBy({
        by: ['type'],
        where: { project: { ownerId: channelId }, replay: false, suppressed: false, platformCreatedAt: { gte: from, lt: end } },
        _count: { _all: true },
        orderBy: { type: 'asc' },
      }),
      db.ledgerEntry.groupBy({
        by: ['kind'],
        where: { channelId, currency, kind: { in: REVENUE_KINDS }, createdAt: { gte: from, lt: end } },
        _sum: { amount: true },
        _count: { _all: true },
        orderBy: { kind: 'asc' },
      }),
      db.liveEvent.findMany({
        where: { project: { ownerId: channelId }, type: 'charity', replay: false, suppressed: false, platformCreatedAt: { gte: from, lt: end } },
        select: { value: true, data: true },
      }),
      db.tipPageHit.groupBy({ by: ['kind'], where: { channelId, createdAt: { gte: from, lt: end } }, _count: { _all: true }, orderBy: { kind: 'asc' } }),
    ]);
    const tipHitsOf = (kind: string) => tipHits.find((h) => h.kind === kind)?._count._all ?? 0;
    const now = this.deps.now?.() ?? new Date();
    const hours = broadcasts.reduce((sum, b) => sum + Math.max(0, ((b.endedAt ?? now).getTime() - b.startedAt!.getTime()) / 3_600_000), 0);
    const total = revenueRows.reduce((sum, r) => sum + (r._sum.amount ?? 0), 0);
    const tipRow = revenueRows.find((r) => r.kind === 'tip');
    const charity = charityEvents.reduce((sum, e) => {
      const c = (e.data as { currency?: string } | null)?.currency?.toLowerCase();
      return c === currency ? sum + Math.round((e.value ?? 0) * 100) : sum;
    }, 0);

    const series =
      query.groupBy === 'stream'
        ? await Promise.all(
            broadcasts.map(async (b) => {
              const window = { gte: b.startedAt!, lt: b.endedAt ?? now };
              const [revenue, impressions, clicks] = await Promise.all([
                db.ledgerEntry.aggregate({ where: { channelId, currency, kind: { in: SERIES_KINDS }, createdAt: window }, _sum: { amount: true } }),
                db.campaignLinkHit.count({ where: { channelId, kind: 'impression', createdAt: window } }),
                db.campaignLinkHit.count({ where: { channelId, kind: 'click', createdAt: window } }),
              ]);
              return {
                label: `${b.project.name} · ${wallTime(b.startedAt!, timeZone).toISOString().slice(0, 16).replace('T', ' ')}`,
                revenue: revenue._sum.amount ?? 0,
                impressions,
                clicks,
              };
            }),
          )
        : await this.buckets(channelId, currency, { fromDay, from, end, timeZone }, truncUnit[query.groupBy]);

    return {
      from: isoDate(fromDay),
      to: isoDate(to),
      timeZone,
      groupBy: query.groupBy,
      channel: { streams: broadcasts.length, hoursStreamed: Math.round(hours * 10) / 10, events: eventCounts.reduce((s, e) => s + e._count._all, 0) },
      revenue: withRevenue
        ? {
            currency,
            total,
            tips: tipRow?._sum.amount ?? 0,
            tipCount: tipRow?._count._all ?? 0,
            charity,
            tipPageViews: tipHitsOf('impression'),
            tipCheckouts: tipHitsOf('click'),
          }
        : null,
      events: eventCounts.map((e) => ({ type: e.type, count: e._count._all })),
      sponsorships: await this.sponsorships(channelId, currency, from, end, withRevenue),
      series: withRevenue ? series : series.map((p) => ({ ...p, revenue: 0 })),
    };
  }

  /** Game-key and revenue-share campaigns (issue 25): active ones, and per campaign its ledger revenue and tracked-link hits in the window. */
  private async sponsorships(channelId: string, currency: string, from: Date, end: Date, withRevenue: boolean): Promise<Statistics['sponsorships']> {
    const db = this.deps.db;
    const [active, revenue, hits] = await Promise.all([
      db.campaignApplication.findMany({
        where: { creatorId: channelId, status: { in: ['accepted', 'claimed'] } },
        select: { campaign: { select: { id: true, name: true } } },
        orderBy: { createdAt: 'asc' },
      }),
      db.ledgerEntry.groupBy({
        by: ['campaignName'],
        where: { channelId, currency, campaignName: { not: null }, createdAt: { gte: from, lt: end } },
        _sum: { amount: true },
        orderBy: { campaignName: 'asc' },
      }),
      db.$queryRaw<{ campaign_id: string; campaign_name: string; kind: string; count: bigint }[]>`
        SELECT c.id AS campaign_id, c.name AS campaign_name, h.kind, COUNT(*)::bigint AS count
        FROM campaign_link_hits h JOIN campaign_links l ON l.id = h.link_id
        JOIN campaign_applications a ON a.id = l.application_id JOIN campaigns c ON c.id = a.campaign_id
        WHERE h.channel_id = ${channelId} AND h.created_at >= ${from} AND h.created_at < ${end}
        GROUP BY c.id, c.name, h.kind`,
    ]);
    const links = new Map<string, Statistics['sponsorships']['links'][number]>();
    const row = (campaignId: string, campaignName: string) => {
      if (!links.has(campaignId)) links.set(campaignId, { campaignId, campaignName, impressions: 0, clicks: 0, revenue: 0 });
      return links.get(campaignId)!;
    };
    for (const a of active) row(a.campaign.id, a.campaign.name);
    for (const h of hits) {
      const r = row(h.campaign_id, h.campaign_name);
      if (h.kind === 'impression') r.impressions += Number(h.count);
      if (h.kind === 'click') r.clicks += Number(h.count);
    }
    if (withRevenue) for (const r of links.values()) r.revenue = revenue.find((e) => e.campaignName === r.campaignName)?._sum.amount ?? 0;
    const all = [...links.values()];
    return {
      campaigns: active.length,
      revenue: withRevenue ? revenue.reduce((sum, e) => sum + (e._sum.amount ?? 0), 0) : 0,
      linkClicks: all.reduce((sum, r) => sum + r.clicks, 0),
      linkImpressions: all.reduce((sum, r) => sum + r.impressions, 0),
      links: all,
    };
  }

  /**
   * `window.fromDay` is the first wall day; `from` and `end` the instants of the window. The columns
   * hold UTC without a zone: `AT TIME ZONE 'UTC'` makes them instants, `AT TIME ZONE tz` the wall
   * time there, which date_trunc cuts (and which comes back with its wall fields as UTC fields).
   */
  private async buckets(
    channelId: string,
    currency: string,
    window: { fromDay: Date; from: Date; end: Date; timeZone: string },
    unit: 'day' | 'week' | 'month',
  ): Promise<Statistics['series']> {
    const db = this.deps.db;
    const { from, end, timeZone } = window;
    const [revenue, hits] = await Promise.all([
      db.$queryRaw<{ bucket: Date; amount: bigint }[]>`
        SELECT date_trunc(${unit}, (created_at AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone}) AS bucket, SUM(amount)::bigint AS amount FROM ledger_entries
        WHERE channel_id = ${channelId} AND currency = ${currency} AND kind = ANY(${SERIES_KINDS}) AND created_at >= ${from} AND created_at < ${end}
        GROUP BY bucket`,
      db.$queryRaw<{ bucket: Date; kind: string; count: bigint }[]>`
        SELECT date_trunc(${unit}, (created_at AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone}) AS bucket, kind, COUNT(*)::bigint AS count FROM campaign_link_hits
        WHERE channel_id = ${channelId} AND created_at >= ${from} AND created_at < ${end}
        GROUP BY bucket, kind`,
    ]);
    const points = new Map<string, { label: string; revenue: number; impressions: number; clicks: number }>();
    const lastDay = utcDay(wallTime(new Date(end.getTime() - 1), timeZone));
    for (let day = window.fromDay; day <= lastDay; day = new Date(day.getTime() + DAY_MS)) {
      const label = isoDate(bucketStart(day, unit));
      if (!points.has(label)) points.set(label, { label, revenue: 0, impressions: 0, clicks: 0 });
    }
    for (const r of revenue) {
      const p = points.get(isoDate(bucketStart(utcDay(r.bucket), unit)));
      if (p) p.revenue += Number(r.amount);
    }
    for (const h of hits) {
      const p = points.get(isoDate(bucketStart(utcDay(h.bucket), unit)));
      if (p && h.kind === 'impression') p.impressions += Number(h.count);
      if (p && h.kind === 'click') p.clicks += Number(h.count);
    }
    return [...points.values()];
  }
}
