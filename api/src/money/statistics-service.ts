import { REVENUE_WINDOW_DAYS, type Statistics } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { TipsService } from './tips-service.ts';

const DAY_MS = 24 * 3600 * 1000;
const REVENUE_KINDS = ['tip', 'tip_refund', 'tip_dispute', 'tip_dispute_won'];
const STREAMS_SHOWN = 60;

type Grouping = Statistics['groupBy'];
const truncUnit: Record<Exclude<Grouping, 'stream'>, 'day' | 'week' | 'month'> = { daily: 'day', weekly: 'week', monthly: 'month' };

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const utcDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/** The start of the bucket a day falls in (weeks start on Monday, as PostgreSQL's date_trunc has them). */
function bucketStart(day: Date, unit: 'day' | 'week' | 'month'): Date {
  if (unit === 'day') return day;
  if (unit === 'month') return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
  const back = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - back * DAY_MS);
}

/**
 * Statistics (partner spec §2): Channel, Revenue, Events and Sponsorships sections over a window
 * (the last 30 days unless asked, §9), and a series of revenue (net tips from the ledger),
 * impressions (tip page views) and clicks (tip checkouts started) grouped daily, weekly, monthly
 * or by stream. Days are UTC.
 */
export class StatisticsService {
  constructor(private readonly deps: { db: Db; tips: TipsService; now?: () => Date }) {}

  async statistics(
    channelId: string,
    query: { from?: string | undefined; to?: string | undefined; groupBy: Grouping },
    withRevenue: boolean,
  ): Promise<Statistics> {
    const today = utcDay(this.deps.now?.() ?? new Date());
    const to = query.to ? new Date(`${query.to}T00:00:00Z`) : today;
    const from = query.from ? new Date(`${query.from}T00:00:00Z`) : new Date(to.getTime() - (REVENUE_WINDOW_DAYS - 1) * DAY_MS);
    const end = new Date(to.getTime() + DAY_MS);
    const { currency } = await this.deps.tips.settings(channelId);
    const db = this.deps.db;

    const [broadcasts, eventCounts, revenueRows, charityEvents] = await Promise.all([
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
    ]);
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
                db.ledgerEntry.aggregate({ where: { channelId, currency, kind: { in: REVENUE_KINDS }, createdAt: window }, _sum: { amount: true } }),
                db.tipPageHit.count({ where: { channelId, kind: 'impression', createdAt: window } }),
                db.tipPageHit.count({ where: { channelId, kind: 'click', createdAt: window } }),
              ]);
              return {
                label: `${b.project.name} · ${b.startedAt!.toISOString().slice(0, 16).replace('T', ' ')}`,
                revenue: revenue._sum.amount ?? 0,
                impressions,
                clicks,
              };
            }),
          )
        : await this.buckets(channelId, currency, from, end, truncUnit[query.groupBy]);

    return {
      from: isoDate(from),
      to: isoDate(to),
      groupBy: query.groupBy,
      channel: { streams: broadcasts.length, hoursStreamed: Math.round(hours * 10) / 10, events: eventCounts.reduce((s, e) => s + e._count._all, 0) },
      revenue: withRevenue ? { currency, total, tips: tipRow?._sum.amount ?? 0, tipCount: tipRow?._count._all ?? 0, charity } : null,
      events: eventCounts.map((e) => ({ type: e.type, count: e._count._all })),
      sponsorships: await this.sponsorships(channelId, currency, from, end, withRevenue),
      series: withRevenue ? series : series.map((p) => ({ ...p, revenue: 0 })),
    };
  }

  /** Game-key and revenue-share campaigns (issue 25): active ones, their ledger revenue in the window, tracked-link counts. */
  private async sponsorships(channelId: string, currency: string, from: Date, end: Date, withRevenue: boolean): Promise<Statistics['sponsorships']> {
    const db = this.deps.db;
    const [campaigns, revenue, links] = await Promise.all([
      db.campaignApplication.count({ where: { creatorId: channelId, status: { in: ['accepted', 'claimed'] } } }),
      db.ledgerEntry.aggregate({ where: { channelId, currency, campaignName: { not: null }, createdAt: { gte: from, lt: end } }, _sum: { amount: true } }),
      db.campaignLink.aggregate({ where: { application: { creatorId: channelId } }, _sum: { clicks: true, impressions: true } }),
    ]);
    return {
      campaigns,
      revenue: withRevenue ? (revenue._sum.amount ?? 0) : 0,
      linkClicks: links._sum.clicks ?? 0,
      linkImpressions: links._sum.impressions ?? 0,
    };
  }

  private async buckets(channelId: string, currency: string, from: Date, end: Date, unit: 'day' | 'week' | 'month'): Promise<Statistics['series']> {
    const db = this.deps.db;
    const [revenue, hits] = await Promise.all([
      db.$queryRaw<{ bucket: Date; amount: bigint }[]>`
        SELECT date_trunc(${unit}, created_at) AS bucket, SUM(amount)::bigint AS amount FROM ledger_entries
        WHERE channel_id = ${channelId} AND currency = ${currency} AND kind = ANY(${REVENUE_KINDS}) AND created_at >= ${from} AND created_at < ${end}
        GROUP BY bucket`,
      db.$queryRaw<{ bucket: Date; kind: string; count: bigint }[]>`
        SELECT date_trunc(${unit}, created_at) AS bucket, kind, COUNT(*)::bigint AS count FROM tip_page_hits
        WHERE channel_id = ${channelId} AND created_at >= ${from} AND created_at < ${end}
        GROUP BY bucket, kind`,
    ]);
    const points = new Map<string, { label: string; revenue: number; impressions: number; clicks: number }>();
    for (let day = from; day < end; day = new Date(day.getTime() + DAY_MS)) {
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
