import type { Redis } from 'ioredis';
import { DIGEST_MAX_OFFERS, DIGEST_WINDOW_DAYS, formatMoney, queues } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { SweepJob } from '../jobs/sweep-job.ts';
import { escapeHtml, layout } from '../mail/templates.ts';
import type { PreferenceMail, PreferenceMailer } from './preference-mailer.ts';

const DAY_MS = 86_400_000;
/** What a creator earned: net tips (refunds and disputes count against them) and campaign revenue shares. */
const EARNING_KINDS = ['tip', 'tip_refund', 'tip_dispute', 'tip_dispute_won', 'campaign_revenue'];
const PAGE = 200;

export interface WeeklyDigest {
  from: Date;
  to: Date;
  streams: number;
  hoursStreamed: number;
  newFollowers: number;
  /** Minor units per currency, largest first. */
  revenue: { currency: string; amount: number }[];
  /** Active campaigns the creator has not applied to, and invitations waiting for an answer. */
  offers: { name: string; game: string; invited: boolean; url: string }[];
}

export interface DigestRunResult {
  sent: number;
  /** Accounts with nothing to report this week. */
  empty: number;
  /** Already mailed for this run's week (a retried run). */
  alreadySent: number;
  failed: number;
}

/**
 * The weekly digest (Settings › Email notifications, spec §3): the seven days before the run —
 * streams, new followers, revenue — and the campaign offers open to the creator. Only accounts
 * whose digest switch is on get it (PreferenceMailer decides, and adds the unsubscribe link); an
 * account with nothing to report gets nothing. Each account is mailed at most once per week,
 * whatever the retries: a Redis marker per account and week is claimed before sending.
 */
export class DigestService {
  constructor(private readonly deps: { db: Db; redis: Redis; mail: PreferenceMailer; publicUrl: string; logger: Logger; now?: () => Date }) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async build(userId: string, to: Date): Promise<WeeklyDigest> {
    const { db } = this.deps;
    const from = new Date(to.getTime() - DIGEST_WINDOW_DAYS * DAY_MS);
    const window = { gte: from, lt: to };
    const [broadcasts, newFollowers, revenue, campaigns] = await Promise.all([
      db.broadcast.findMany({ where: { project: { ownerId: userId }, startedAt: window }, select: { startedAt: true, endedAt: true } }),
      db.liveEvent.count({ where: { project: { ownerId: userId }, type: 'follow', replay: false, suppressed: false, platformCreatedAt: window } }),
      db.ledgerEntry.groupBy({
        by: ['currency'],
        where: { channelId: userId, kind: { in: EARNING_KINDS }, createdAt: window },
        _sum: { amount: true },
        orderBy: { currency: 'asc' },
      }),
      db.campaign.findMany({
        where: {
          status: 'active',
          OR: [{ expiresAt: null }, { expiresAt: { gt: to } }],
          applications: { none: { creatorId: userId, status: { not: 'invited' } } },
        },
        select: { id: true, name: true, game: true, applications: { where: { creatorId: userId, status: 'invited' }, select: { id: true } } },
        orderBy: { createdAt: 'desc' },
        take: 50,
      }),
    ]);
    const hours = broadcasts.reduce(
      (sum, b) => sum + Math.max(0, (Math.min((b.endedAt ?? to).getTime(), to.getTime()) - b.startedAt!.getTime()) / 3_600_000),
      0,
    );
    const offers = campaigns
      .map((c) => ({ name: c.name, game: c.game, invited: c.applications.length > 0, url: `${this.deps.publicUrl}/partner/campaigns/${c.id}` }))
      // Invitations first: they wait for an answer.
      .sort((a, b) => Number(b.invited) - Number(a.invited))
      .slice(0, DIGEST_MAX_OFFERS);
    return {
      from,
      to,
      streams: broadcasts.length,
      hoursStreamed: Math.round(hours * 10) / 10,
      newFollowers,
      revenue: revenue
        .map((r) => ({ currency: r.currency, amount: r._sum.amount ?? 0 }))
        .filter((r) => r.amount !== 0)
        .sort((a, b) => b.amount - a.amount),
      offers,
    };
  }

  /** One run: every onboarded account whose digest switch is on, in pages. */
  async sendAll(): Promise<DigestRunResult> {
    const to = this.now();
    const week = to.toISOString().slice(0, 10);
    const result: DigestRunResult = { sent: 0, empty: 0, alreadySent: 0, failed: 0 };
    let cursor: string | undefined;
    for (;;) {
      const page = await this.deps.db.partnerProfile.findMany({
        where: { notifyDigest: true, onboardedAt: { not: null }, user: { deactivatedAt: null } },
        select: { id: true, userId: true },
        orderBy: { id: 'asc' },
        take: PAGE,
        ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
      });
      for (const { userId } of page) {
        const digest = await this.build(userId, to);
        if (isEmpty(digest)) {
          result.empty++;
          continue;
        }
        const marker = `onair:digest:${week}:${userId}`;
        if ((await this.deps.redis.set(marker, '1', 'EX', 14 * 24 * 3600, 'NX')) !== 'OK') {
          result.alreadySent++;
          continue;
        }
        const outcome = await this.deps.mail.send(userId, 'digest', digestMail(digest));
        if (outcome === 'sent') result.sent++;
        else {
          // Not sent: the next run of this week may try again.
          await this.deps.redis.del(marker);
          if (outcome === 'failed') result.failed++;
        }
      }
      if (page.length < PAGE) break;
      cursor = page[page.length - 1]!.id;
    }
    this.deps.logger.info({ ...result }, 'weekly digest run');
    return result;
  }
}

const isEmpty = (d: WeeklyDigest) => d.streams === 0 && d.newFollowers === 0 && d.revenue.length === 0 && d.offers.length === 0;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const day = (d: Date) => d.toISOString().slice(0, 10);

export function digestMail(d: WeeklyDigest): PreferenceMail {
  const title = `Your week on OnAir: ${day(d.from)} to ${day(new Date(d.to.getTime() - 1))}`;
  const streams = d.streams === 0 ? 'No streams this week.' : `${plural(d.streams, 'stream', 'streams')}, ${d.hoursStreamed} hours live.`;
  const followers = `${plural(d.newFollowers, 'new follower', 'new followers')}.`;
  const revenue = d.revenue.length === 0 ? 'No revenue this week.' : `Revenue: ${d.revenue.map((r) => formatMoney(r.amount, r.currency)).join(', ')}.`;
  const offerLine = (o: WeeklyDigest['offers'][number]) => `${o.name} (${o.game})${o.invited ? ' — you are invited' : ''}`;
  const text = [
    title,
    `Streams: ${streams}`,
    `Followers: ${followers}`,
    revenue,
    d.offers.length === 0 ? 'No new campaign offers.' : `Campaign offers:\n${d.offers.map((o) => `- ${offerLine(o)}: ${o.url}`).join('\n')}`,
  ].join('\n\n');
  const html = layout(
    title,
    `<p><strong>Streams:</strong> ${escapeHtml(streams)}</p><p><strong>Followers:</strong> ${escapeHtml(followers)}</p><p>${escapeHtml(revenue)}</p>${
      d.offers.length === 0
        ? '<p>No new campaign offers.</p>'
        : `<p><strong>Campaign offers</strong></p><ul>${d.offers.map((o) => `<li><a href="${escapeHtml(o.url)}" style="color:#e8eaf0">${escapeHtml(offerLine(o))}</a></li>`).join('')}</ul>`
    }`,
  );
  return { subject: title, text, html };
}

/** The digest on BullMQ's job scheduler: one run per cron occurrence across all api replicas. */
export class DigestJob extends SweepJob<DigestRunResult> {
  constructor(deps: { redis: Redis; logger: Logger; digests: DigestService; cron: string; prefix?: string }) {
    super({ ...deps, queue: queues.weeklyDigest, what: 'weekly digest', run: () => deps.digests.sendAll(), repeat: { pattern: deps.cron, tz: 'UTC' } });
  }
}
