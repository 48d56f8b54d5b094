import { randomBytes, randomInt } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  applicationStatusLabels,
  availabilityWords,
  OnAirError,
  PROMO_CODE_LENGTH_GENERATED,
  REVENUE_SHARE_MIN_AGE,
  campaignInputSchema,
  type AdminApplication,
  type ApplicationStatus,
  type ApplicationView,
  type ApplyBody,
  type CampaignInput,
  type CampaignView,
  type CreatorCampaign,
  type Eligibility,
  type KeyPlatform,
  type PromoDiscount,
  type PublicCampaign,
  type RecordSalesResult,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger, SecretBox } from '@onair/runtime';
import type { CurrentUser } from '../http/auth-context.ts';
import type { PreferenceMailer } from '../notifications/preference-mailer.ts';
import { ageOn, channelStats, judgeChannels } from './eligibility.ts';
import { parseKeyPool } from './key-pool.ts';
import { parseSalesReport } from './sales-report.ts';
import type { Ledger } from '../money/ledger.ts';
import { campaignMail } from './campaign-mail.ts';

export interface CampaignDeps {
  db: Db;
  logger: Logger;
  /** Campaign mails are partner news (Settings › Email notifications): sent only while that switch is on. */
  mail: PreferenceMailer;
  publicUrl: string;
  /** Seals game keys at rest; without SECRETS_KEY no key pool can be imported. */
  secrets: SecretBox | null;
  /** The creators' one ledger (money area): a campaign's payments are entries of it. */
  ledger: Ledger;
  now?: () => Date;
}

type CampaignRow = NonNullable<Awaited<ReturnType<Db['campaign']['findUnique']>>>;
type ApplicationRow = NonNullable<Awaited<ReturnType<Db['campaignApplication']['findUnique']>>> & {
  key: { platform: string; keyEnc: string; claimedAt: Date | null } | null;
  promoCodes: { code: string; discountPercent: number; createdAt: Date }[];
  link: { slug: string; clicks: number; impressions: number } | null;
};

const applicationInclude = {
  key: { select: { platform: true, keyEnc: true, claimedAt: true } },
  promoCodes: { select: { code: true, discountPercent: true, createdAt: true }, orderBy: { createdAt: 'asc' as const } },
  link: { select: { slug: true, clicks: true, impressions: true } },
};

/** Statuses in which the creator still takes part (or may), and which expire with the campaign. */
const OPEN_STATUSES: ApplicationStatus[] = ['applied', 'invited', 'accepted'];
const CAMPAIGN_NOT_FOUND = 'Campaign not found.';
const PROMO_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * Game-key and revenue-share campaigns (partner spec §2, §3, §4, §5): the admin portal writes
 * campaigns and key pools; creators discover, apply (or join), answer invitations, claim a key and
 * make promo codes and tracked links. Every transition is one database transaction with the
 * application row locked, so a refusal leaves nothing half-written; a key goes to one claim only
 * (row locks with SKIP LOCKED and a unique application per key).
 */
export class CampaignService {
  private readonly ledger: Ledger;

  constructor(private readonly deps: CampaignDeps) {
    this.ledger = deps.ledger;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  // ─── Admin portal ───

  async adminList(): Promise<CampaignView[]> {
    const rows = await this.deps.db.campaign.findMany({ orderBy: { createdAt: 'desc' } });
    return Promise.all(rows.map((r) => this.view(r)));
  }

  async create(admin: CurrentUser, input: CampaignInput): Promise<CampaignView> {
    const data = this.rowData(input);
    const row = await this.deps.db.$transaction(async (tx) => {
      const created = await tx.campaign.create({ data: { ...data, createdById: admin.id } });
      await tx.adminAuditEntry.create({
        data: {
          actorId: admin.id,
          action: 'campaign-created',
          targetType: 'campaign',
          targetId: created.id,
          detail: { name: created.name, status: created.status },
        },
      });
      return created;
    });
    this.deps.logger.info({ audit: 'campaign-created', campaignId: row.id, by: admin.id }, 'campaign created');
    return this.view(row);
  }

  async update(admin: CurrentUser, campaignId: string, input: CampaignInput): Promise<CampaignView> {
    const data = this.rowData(input);
    const row = await this.deps.db.$transaction(async (tx) => {
      const before = await tx.campaign.findUnique({ where: { id: campaignId } });
      if (!before) throw new OnAirError('NOT_FOUND', CAMPAIGN_NOT_FOUND);
      const changed = Object.keys(data).filter((k) => !isDeepStrictEqual((before as Record<string, unknown>)[k], (data as Record<string, unknown>)[k]));
      const updated = await tx.campaign.update({ where: { id: campaignId }, data });
      await tx.adminAuditEntry.create({
        data: { actorId: admin.id, action: 'campaign-updated', targetType: 'campaign', targetId: campaignId, detail: { changed } },
      });
      return updated;
    });
    this.deps.logger.info({ audit: 'campaign-updated', campaignId, by: admin.id }, 'campaign updated');
    return this.view(row);
  }

  async importKeys(admin: CurrentUser, campaignId: string, csv: string): Promise<{ imported: number; keys: CampaignView['keys'] }> {
    const secrets = this.deps.secrets;
    if (!secrets) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'Game keys are sealed with SECRETS_KEY, which this server does not have. Set it and restart.');
    const campaign = await this.deps.db.campaign.findUnique({ where: { id: campaignId } });
    if (!campaign) throw new OnAirError('NOT_FOUND', CAMPAIGN_NOT_FOUND);
    if (campaign.kind !== 'game-key') throw new OnAirError('VALIDATION_FAILED', 'Only a game-key campaign has a key pool.');
    const keys = parseKeyPool(campaignId, csv, campaign.platforms as KeyPlatform[]);
    await this.deps.db.$transaction(async (tx) => {
      const existing = await tx.campaignKey.findMany({ where: { campaignId, keyDigest: { in: keys.map((k) => k.digest) } }, select: { keyDigest: true } });
      if (existing.length > 0) {
        const taken = new Set(existing.map((e) => e.keyDigest));
        const lines = keys.flatMap((k, i) => (taken.has(k.digest) ? [i + 2] : []));
        throw new OnAirError(
          'VALIDATION_FAILED',
          `Nothing was imported: ${lines.length} key(s) are already in this campaign's pool (lines ${lines.slice(0, 10).join(', ')}${lines.length > 10 ? ', …' : ''}).`,
        );
      }
      await tx.campaignKey.createMany({
        data: keys.map((k) => ({ campaignId, platform: k.platform, keyDigest: k.digest, keyEnc: secrets.seal(k.key, `campaign-key:${campaignId}`) })),
      });
      await tx.adminAuditEntry.create({
        data: { actorId: admin.id, action: 'campaign-keys-imported', targetType: 'campaign', targetId: campaignId, detail: { count: keys.length } },
      });
    });
    this.deps.logger.info({ audit: 'campaign-keys-imported', campaignId, count: keys.length, by: admin.id }, 'game keys imported');
    return { imported: keys.length, keys: await this.keyPool(campaignId) };
  }

  /**
   * Revenue share: the publisher's sales by promo code, each credited once to the creator whose
   * code it used, at the campaign's percent (rounded down to the minor unit), as `campaign_revenue`
   * entries of the creator's ledger named after the campaign (the Sponsorships statistics and the
   * transaction search read that name). All or nothing: a code that is not a participant's of this
   * campaign refuses the whole report. A sale reported again (its sale_id) credits nothing.
   */
  async recordSales(admin: CurrentUser, campaignId: string, csv: string): Promise<RecordSalesResult> {
    const campaign = await this.requireCampaign(campaignId);
    if (campaign.kind !== 'revenue-share' || campaign.revenueSharePermille === null)
      throw new OnAirError('VALIDATION_FAILED', 'Only a revenue-share campaign credits sales.');
    const sales = parseSalesReport(csv);
    const codes = await this.deps.db.promoCode.findMany({
      where: { code: { in: [...new Set(sales.map((s) => s.promoCode))] } },
      select: { code: true, application: { select: { campaignId: true, creatorId: true, status: true } } },
    });
    const byCode = new Map(codes.map((c) => [c.code, c.application]));
    const problems = sales.flatMap((sale) => {
      const owner = byCode.get(sale.promoCode);
      if (!owner || owner.campaignId !== campaignId) return [`line ${sale.line}: ${sale.promoCode} is not a promo code of this campaign`];
      return [];
    });
    if (problems.length > 0) throw new OnAirError('VALIDATION_FAILED', `Nothing was credited: ${problems.slice(0, 10).join('; ')}.`, { problems });
    const endsAt = campaign.revenueShareEndsAt;
    const percent = campaign.revenueSharePermille / 10;
    const result = await this.deps.db.$transaction(async (tx) => {
      let credited = 0;
      let alreadyCredited = 0;
      const shares = new Map<string, number>();
      for (const sale of sales) {
        const owner = byCode.get(sale.promoCode)!;
        const share = Math.floor((sale.amount * campaign.revenueSharePermille!) / 1000);
        // Past the revenue-share end, and sales too small to earn a cent, credit nothing.
        if (share < 1 || (endsAt && endsAt.getTime() <= this.now().getTime())) continue;
        const written = await this.ledger.append(tx, {
          channelId: owner.creatorId,
          kind: 'campaign_revenue',
          amount: share,
          currency: sale.currency,
          description: `Revenue share ${percent}% of a sale with ${sale.promoCode}`,
          campaignName: campaign.name,
          providerEventId: `campaign-sale:${campaignId}:${sale.saleId}`,
        });
        if (!written) {
          alreadyCredited++;
          continue;
        }
        credited++;
        shares.set(sale.currency, (shares.get(sale.currency) ?? 0) + share);
      }
      await tx.adminAuditEntry.create({
        data: {
          actorId: admin.id,
          action: 'campaign-sales-recorded',
          targetType: 'campaign',
          targetId: campaignId,
          detail: { reported: sales.length, credited, alreadyCredited },
        },
      });
      return { credited, alreadyCredited, shares: [...shares].map(([currency, amount]) => ({ currency, amount })) };
    });
    this.deps.logger.info({ audit: 'campaign-sales-recorded', campaignId, credited: result.credited, by: admin.id }, 'campaign sales recorded');
    return result;
  }

  async adminApplications(campaignId: string): Promise<AdminApplication[]> {
    await this.requireCampaign(campaignId);
    await this.expireDue(campaignId);
    const rows = await this.deps.db.campaignApplication.findMany({
      where: { campaignId },
      orderBy: { createdAt: 'asc' },
      include: { ...applicationInclude, creator: { select: { id: true, name: true, email: true } } },
    });
    return rows.map((r) => this.adminView(r as ApplicationRow & { creator: { id: string; name: string; email: string } }));
  }

  async invite(admin: CurrentUser, campaignId: string, email: string): Promise<AdminApplication> {
    const campaign = await this.requireCampaign(campaignId);
    this.assertOpen(campaign);
    const creator = await this.deps.db.user.findUnique({ where: { email }, select: { id: true, name: true, email: true, deactivatedAt: true } });
    if (!creator || creator.deactivatedAt) throw new OnAirError('NOT_FOUND', `No creator account uses ${email}.`);
    const row = await this.deps.db.$transaction(async (tx) => {
      const existing = await tx.campaignApplication.findUnique({ where: { campaignId_creatorId: { campaignId, creatorId: creator.id } } });
      if (existing && existing.status !== 'rescinded' && existing.status !== 'expired') {
        throw new OnAirError('CONFLICT', `This creator already has an application here (${applicationStatusLabels[existing.status as ApplicationStatus]}).`);
      }
      const data = { status: 'invited', decidedById: admin.id, primaryChannel: '', message: '', keyPlatform: null, agreementAt: null };
      const saved = existing
        ? await tx.campaignApplication.update({
            where: { id: existing.id },
            data,
            include: { ...applicationInclude, creator: { select: { id: true, name: true, email: true } } },
          })
        : await tx.campaignApplication.create({
            data: { ...data, campaignId, creatorId: creator.id },
            include: { ...applicationInclude, creator: { select: { id: true, name: true, email: true } } },
          });
      await tx.adminAuditEntry.create({
        data: {
          actorId: admin.id,
          action: 'campaign-invited',
          targetType: 'campaign-application',
          targetId: saved.id,
          detail: { campaignId, creatorId: creator.id },
        },
      });
      return saved;
    });
    await this.mail(creator.id, campaignMail.invited(campaign.name, this.campaignUrl(campaignId)));
    return this.adminView(row as ApplicationRow & { creator: { id: string; name: string; email: string } });
  }

  async decide(admin: CurrentUser, campaignId: string, applicationId: string, action: 'accept' | 'reject' | 'rescind'): Promise<AdminApplication> {
    const campaign = await this.requireCampaign(campaignId);
    await this.expireDue(campaignId);
    const row = await this.deps.db.$transaction(async (tx) => {
      const current = await this.lockApplicationById(tx, applicationId);
      if (!current || current.campaignId !== campaignId) throw new OnAirError('NOT_FOUND', 'This application does not exist.');
      const allowed: Record<typeof action, ApplicationStatus[]> = { accept: ['applied'], reject: ['applied'], rescind: ['invited', 'accepted', 'claimed'] };
      if (!allowed[action].includes(current.status as ApplicationStatus)) {
        throw new OnAirError(
          'CONFLICT',
          `An application that is ${applicationStatusLabels[current.status as ApplicationStatus]} cannot be ${action === 'accept' ? 'accepted' : action === 'reject' ? 'declined' : 'rescinded'}.`,
        );
      }
      const status: ApplicationStatus = action === 'accept' ? 'accepted' : action === 'reject' ? 'rejected' : 'rescinded';
      const saved = await tx.campaignApplication.update({
        where: { id: applicationId },
        data: { status, decidedById: admin.id },
        include: { ...applicationInclude, creator: { select: { id: true, name: true, email: true } } },
      });
      await tx.adminAuditEntry.create({
        data: {
          actorId: admin.id,
          action: `campaign-application-${action}`,
          targetType: 'campaign-application',
          targetId: applicationId,
          detail: { campaignId, from: current.status },
        },
      });
      return saved;
    });
    this.deps.logger.info({ audit: `campaign-application-${action}`, campaignId, applicationId, by: admin.id }, 'campaign application decided');
    if (action === 'accept') {
      await this.ensureLink(campaignId, row.creatorId);
      await this.mail(row.creatorId, campaignMail.accepted(campaign.name, this.campaignUrl(campaignId), this.keysOpen(campaign)));
    }
    return this.adminView(row as ApplicationRow & { creator: { id: string; name: string; email: string } });
  }

  // ─── Creators ───

  async listFor(
    user: CurrentUser,
    query: { list: 'discover' | 'mine'; kind?: string | undefined; platform?: string | undefined; genre?: string | undefined; search?: string | undefined },
  ): Promise<CreatorCampaign[]> {
    await this.expireDue();
    const filters = {
      ...(query.kind ? { kind: query.kind } : {}),
      ...(query.platform ? { platforms: { has: query.platform } } : {}),
      ...(query.genre ? { genre: { equals: query.genre, mode: 'insensitive' as const } } : {}),
      ...(query.search
        ? { OR: [{ name: { contains: query.search, mode: 'insensitive' as const } }, { game: { contains: query.search, mode: 'insensitive' as const } }] }
        : {}),
    };
    const where =
      query.list === 'mine'
        ? { ...filters, applications: { some: { creatorId: user.id } }, status: { not: 'draft' } }
        : {
            ...filters,
            status: 'active',
            OR: undefined,
            AND: [{ OR: [{ expiresAt: null }, { expiresAt: { gt: this.now() } }] }, ...(filters.OR ? [{ OR: filters.OR }] : [])],
          };
    const rows = await this.deps.db.campaign.findMany({ where, orderBy: { createdAt: 'desc' }, take: 200 });
    return Promise.all(rows.map((row) => this.creatorView(user, row)));
  }

  async getFor(user: CurrentUser, campaignId: string): Promise<CreatorCampaign> {
    await this.expireDue(campaignId);
    return this.creatorView(user, await this.visibleCampaign(user, campaignId));
  }

  async apply(user: CurrentUser, campaignId: string, body: ApplyBody): Promise<CreatorCampaign> {
    const campaign = await this.visibleCampaign(user, campaignId);
    this.assertOpen(campaign);
    await this.expireDue(campaignId);
    const eligibility = await this.eligibilityOf(user, campaign);
    if (!eligibility.eligible)
      throw new OnAirError('FORBIDDEN', eligibility.reasons[0] ?? 'No platform linked or requirements not met.', { reasons: eligibility.reasons });
    if (body.keyPlatform && !campaign.platforms.includes(body.keyPlatform))
      throw new OnAirError('VALIDATION_FAILED', `Keys of this campaign are for ${campaign.platforms.join(', ')}.`);
    const status: ApplicationStatus = campaign.requiresReview ? 'applied' : 'accepted';
    await this.deps.db.$transaction(async (tx) => {
      const existing = await this.lockApplication(tx, campaignId, user.id);
      if (existing && existing.status === 'invited') throw new OnAirError('CONFLICT', 'You are invited to this campaign: accept the invitation instead.');
      if (existing)
        throw new OnAirError('CONFLICT', `You already applied to this campaign (${applicationStatusLabels[existing.status as ApplicationStatus]}).`);
      await tx.campaignApplication.create({
        data: {
          campaignId,
          creatorId: user.id,
          status,
          primaryChannel: body.primaryChannel,
          keyPlatform: body.keyPlatform ?? null,
          message: body.message ?? '',
          agreementAt: this.now(),
        },
      });
    });
    this.deps.logger.info({ campaignId, userId: user.id, status }, status === 'accepted' ? 'creator joined a campaign' : 'creator applied to a campaign');
    if (status === 'accepted') await this.ensureLink(campaignId, user.id);
    return this.creatorView(user, campaign);
  }

  async withdraw(user: CurrentUser, campaignId: string): Promise<CreatorCampaign> {
    const campaign = await this.visibleCampaign(user, campaignId);
    await this.deps.db.$transaction(async (tx) => {
      const existing = await this.lockApplication(tx, campaignId, user.id);
      if (!existing) throw new OnAirError('NOT_FOUND', 'You have not applied to this campaign.');
      if (existing.status === 'claimed') throw new OnAirError('CONFLICT', 'You claimed a key of this campaign: it cannot be withdrawn.');
      if (existing.status !== 'applied' && existing.status !== 'accepted') {
        throw new OnAirError('CONFLICT', `An application that is ${applicationStatusLabels[existing.status as ApplicationStatus]} cannot be withdrawn.`);
      }
      await tx.campaignApplication.delete({ where: { id: existing.id } });
    });
    return this.creatorView(user, campaign);
  }

  async answer(user: CurrentUser, campaignId: string, accept: boolean): Promise<CreatorCampaign> {
    const campaign = await this.visibleCampaign(user, campaignId);
    await this.expireDue(campaignId);
    if (accept) this.assertOpen(campaign);
    await this.deps.db.$transaction(async (tx) => {
      const existing = await this.lockApplication(tx, campaignId, user.id);
      if (!existing || existing.status !== 'invited') throw new OnAirError('CONFLICT', 'There is no invitation to answer for this campaign.');
      await tx.campaignApplication.update({
        where: { id: existing.id },
        data: { status: accept ? 'accepted' : 'rejected', agreementAt: accept ? this.now() : null },
      });
    });
    if (accept) await this.ensureLink(campaignId, user.id);
    return this.creatorView(user, campaign);
  }

  async claim(user: CurrentUser, campaignId: string, platform: KeyPlatform): Promise<CreatorCampaign> {
    const campaign = await this.visibleCampaign(user, campaignId);
    await this.expireDue(campaignId);
    if (campaign.kind !== 'game-key') throw new OnAirError('VALIDATION_FAILED', 'This campaign has no game keys to claim.');
    if (!this.keysOpen(campaign)) throw new OnAirError('CONFLICT', `Keys can be claimed ${availabilityWords(campaign.keysAvailableAt!, this.now())}.`);
    if (!campaign.platforms.includes(platform)) throw new OnAirError('VALIDATION_FAILED', `Keys of this campaign are for ${campaign.platforms.join(', ')}.`);
    await this.deps.db.$transaction(async (tx) => {
      const application = await this.lockApplication(tx, campaignId, user.id);
      if (application?.status === 'claimed') throw new OnAirError('CONFLICT', 'You already claimed your key for this campaign.');
      if (application?.status === 'expired') throw new OnAirError('CONFLICT', 'This campaign has expired: its keys can no longer be claimed.');
      if (application?.status !== 'accepted')
        throw new OnAirError('FORBIDDEN', 'Only an accepted participant can claim a key. Apply first, or wait for the review.');
      const now = this.now();
      const taken = await tx.$queryRaw<{ id: string }[]>`
        UPDATE campaign_keys SET application_id = ${application.id}::uuid, claimed_at = ${now}
        WHERE id = (
          SELECT id FROM campaign_keys
          WHERE campaign_id = ${campaignId}::uuid AND platform = ${platform} AND application_id IS NULL
          ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
        )
        RETURNING id`;
      if (taken.length === 0) throw new OnAirError('CONFLICT', `No ${platform} key is left in this campaign. Every key was claimed.`);
      await tx.campaignApplication.update({ where: { id: application.id }, data: { status: 'claimed', keyPlatform: platform } });
    });
    this.deps.logger.info({ campaignId, userId: user.id, platform }, 'game key claimed');
    return this.creatorView(user, campaign);
  }

  async createPromoCode(user: CurrentUser, campaignId: string, body: { code: string | null; discountPercent: number }): Promise<CreatorCampaign> {
    const campaign = await this.visibleCampaign(user, campaignId);
    this.assertOpen(campaign);
    const discount = promoDiscountOf(campaign);
    if (!discount) throw new OnAirError('VALIDATION_FAILED', 'This campaign has no promo codes.');
    const [min, max] = discount.kind === 'fixed' ? [discount.percent, discount.percent] : [discount.minPercent, discount.maxPercent];
    if (body.discountPercent < min || body.discountPercent > max) {
      throw new OnAirError(
        'VALIDATION_FAILED',
        min === max ? `The discount of this campaign is ${min}%.` : `The discount must lie between ${min}% and ${max}%.`,
      );
    }
    const application = await this.deps.db.campaignApplication.findUnique({ where: { campaignId_creatorId: { campaignId, creatorId: user.id } } });
    if (!application || (application.status !== 'accepted' && application.status !== 'claimed'))
      throw new OnAirError('FORBIDDEN', 'Promo codes are for accepted participants of the campaign.');
    for (let attempt = 0; attempt < 5; attempt++) {
      const code = body.code ?? generatePromoCode();
      try {
        await this.deps.db.promoCode.create({ data: { applicationId: application.id, code, discountPercent: body.discountPercent } });
        return this.creatorView(user, campaign);
      } catch (err) {
        if ((err as { code?: string }).code !== 'P2002') throw err;
        if (body.code) throw new OnAirError('CONFLICT', `The promo code ${body.code} is taken. Choose another.`);
      }
    }
    throw new OnAirError('CONFLICT', 'No free promo code was found. Try again.');
  }

  /** The marketing campaigns page: running campaigns, newest first, without requirements or keys. */
  async publicList(): Promise<PublicCampaign[]> {
    const rows = await this.deps.db.campaign.findMany({
      where: { status: 'active', OR: [{ expiresAt: null }, { expiresAt: { gt: this.now() } }] },
      orderBy: { createdAt: 'desc' },
      take: 100,
    });
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      kind: r.kind as PublicCampaign['kind'],
      summary: r.summary,
      game: r.game,
      genre: r.genre,
      publisher: r.publisher,
      platforms: r.platforms as KeyPlatform[],
      revenueSharePercent: r.revenueSharePermille === null ? null : r.revenueSharePermille / 10,
      expiresAt: r.expiresAt?.toISOString() ?? null,
    }));
  }

  // ─── Tracked links (public) ───

  /** Counts a click (the total, and a hit for Statistics) and says where to send the viewer; null for an unknown link. */
  async click(slug: string): Promise<string | null> {
    const rows = await this.deps.db.$queryRaw<{ store_url: string | null }[]>`
      WITH link AS (
        UPDATE campaign_links l SET clicks = clicks + 1 FROM campaign_applications a, campaigns c
        WHERE l.slug = ${slug} AND a.id = l.application_id AND c.id = a.campaign_id
        RETURNING l.id, a.creator_id, c.store_url
      ), hit AS (
        INSERT INTO campaign_link_hits (id, link_id, channel_id, kind, source, created_at)
        SELECT gen_random_uuid(), id, creator_id, 'click', 'link', ${this.now()} FROM link
      )
      SELECT store_url FROM link`;
    if (rows.length === 0) return null;
    return rows[0]!.store_url ?? `${this.deps.publicUrl}/`;
  }

  /** Counts an impression: the creator site or an overlay showed the sponsor's code or link. False for an unknown link. */
  async impression(slug: string, source: 'site' | 'overlay'): Promise<boolean> {
    const rows = await this.deps.db.$queryRaw<{ id: string }[]>`
      WITH link AS (
        UPDATE campaign_links l SET impressions = impressions + 1 FROM campaign_applications a
        WHERE l.slug = ${slug} AND a.id = l.application_id
        RETURNING l.id, a.creator_id
      ), hit AS (
        INSERT INTO campaign_link_hits (id, link_id, channel_id, kind, source, created_at)
        SELECT gen_random_uuid(), id, creator_id, 'impression', ${source}, ${this.now()} FROM link
      )
      SELECT id FROM link`;
    return rows.length > 0;
  }

  // ─── Sweeps ───

  /** Applications of campaigns past their expiry become expired (spec §4); nothing else changes. */
  async expireDue(campaignId?: string): Promise<number> {
    const now = this.now();
    const result = await this.deps.db.campaignApplication.updateMany({
      where: { status: { in: OPEN_STATUSES }, campaign: { expiresAt: { lte: now }, ...(campaignId ? { id: campaignId } : {}) } },
      data: { status: 'expired' },
    });
    return result.count;
  }

  /** Mails the accepted participants once, when a campaign's keys become claimable. */
  async notifyKeysAvailable(): Promise<number> {
    const now = this.now();
    const due = await this.deps.db.campaign.findMany({
      where: { kind: 'game-key', keysNotifiedAt: null, keysAvailableAt: { lte: now }, status: 'active' },
      select: { id: true, name: true },
    });
    let sent = 0;
    for (const campaign of due) {
      // Claimed first, so two sweeps never mail twice.
      const claimed = await this.deps.db.campaign.updateMany({ where: { id: campaign.id, keysNotifiedAt: null }, data: { keysNotifiedAt: now } });
      if (claimed.count === 0) continue;
      const participants = await this.deps.db.campaignApplication.findMany({
        where: { campaignId: campaign.id, status: 'accepted' },
        select: { creatorId: true },
      });
      for (const p of participants) {
        if (await this.mail(p.creatorId, campaignMail.keysAvailable(campaign.name, this.campaignUrl(campaign.id)))) sent++;
      }
    }
    return sent;
  }

  // ─── Views ───

  private async creatorView(user: CurrentUser, row: CampaignRow): Promise<CreatorCampaign> {
    const application = (await this.deps.db.campaignApplication.findUnique({
      where: { campaignId_creatorId: { campaignId: row.id, creatorId: user.id } },
      include: applicationInclude,
    })) as ApplicationRow | null;
    return {
      campaign: await this.view(row),
      application: application ? this.applicationView(application) : null,
      eligibility: await this.eligibilityOf(user, row),
    };
  }

  private applicationView(row: ApplicationRow): ApplicationView {
    const status = row.status as ApplicationStatus;
    return {
      id: row.id,
      campaignId: row.campaignId,
      status,
      statusLabel: applicationStatusLabels[status],
      primaryChannel: row.primaryChannel,
      keyPlatform: row.keyPlatform as KeyPlatform | null,
      message: row.message,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      gameKey:
        row.key && this.deps.secrets
          ? {
              platform: row.key.platform as KeyPlatform,
              key: this.deps.secrets.open(row.key.keyEnc, `campaign-key:${row.campaignId}`),
              claimedAt: row.key.claimedAt!.toISOString(),
            }
          : null,
      promoCodes: row.promoCodes.map((p) => ({ code: p.code, discountPercent: p.discountPercent, createdAt: p.createdAt.toISOString() })),
      link: row.link
        ? { url: `${this.deps.publicUrl}/api/v1/public/campaign-links/${row.link.slug}`, clicks: row.link.clicks, impressions: row.link.impressions }
        : null,
    };
  }

  private adminView(row: ApplicationRow & { creator: { id: string; name: string; email: string } }): AdminApplication {
    const { gameKey: _hidden, ...view } = this.applicationView({ ...row, key: null });
    return { ...view, creator: row.creator, keyClaimed: row.key !== null };
  }

  private async view(row: CampaignRow): Promise<CampaignView> {
    return {
      id: row.id,
      name: row.name,
      kind: row.kind as CampaignView['kind'],
      status: row.status as CampaignView['status'],
      summary: row.summary,
      description: row.description,
      game: row.game,
      genre: row.genre,
      developer: row.developer,
      publisher: row.publisher,
      businessModel: row.businessModel,
      platforms: row.platforms as KeyPlatform[],
      geo: row.geo,
      requirements: {
        minFollowers: row.minFollowers,
        minSubscribers: row.minSubscribers,
        minTotalViews: row.minTotalViews,
        minAverageViewers30d: row.minAverageViewers30d,
        minHoursStreamed30d: row.minHoursStreamed30d,
      },
      requiresReview: row.requiresReview,
      revenueSharePercent: row.revenueSharePermille === null ? null : row.revenueSharePermille / 10,
      revenueShareEndsAt: row.revenueShareEndsAt?.toISOString() ?? null,
      promoDiscount: promoDiscountOf(row),
      storeUrl: row.storeUrl,
      keysAvailableAt: row.keysAvailableAt?.toISOString() ?? null,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      resources: row.resources as CampaignView['resources'],
      keys: await this.keyPool(row.id),
      createdAt: row.createdAt.toISOString(),
    };
  }

  private async keyPool(campaignId: string): Promise<CampaignView['keys']> {
    const groups = await this.deps.db.campaignKey.groupBy({
      by: ['platform'],
      where: { campaignId },
      _count: { _all: true, applicationId: true },
      orderBy: { platform: 'asc' },
    });
    const byPlatform = groups.map((g) => ({ platform: g.platform as KeyPlatform, total: g._count._all, available: g._count._all - g._count.applicationId }));
    return { total: byPlatform.reduce((s, g) => s + g.total, 0), available: byPlatform.reduce((s, g) => s + g.available, 0), byPlatform };
  }

  async eligibilityOf(user: CurrentUser, campaign: CampaignRow): Promise<Eligibility> {
    const now = this.now();
    const [linked, profile] = await Promise.all([
      this.deps.db.account.findMany({ where: { userId: user.id, providerId: { in: ['twitch', 'google'] } }, select: { providerId: true } }),
      this.deps.db.partnerProfile.findUnique({ where: { userId: user.id }, select: { birthdate: true, country: true } }),
    ]);
    // A Twitch account's channel, and the YouTube channel of a Google account.
    const platforms = (['twitch', 'youtube'] as const).filter((p) => linked.some((a) => a.providerId === (p === 'twitch' ? 'twitch' : 'google')));
    const channels = await Promise.all(
      platforms.map(async (platform) => {
        const [samples, first] = await Promise.all([
          this.deps.db.channelStatSample.findMany({
            where: { userId: user.id, platform, sampledAt: { gte: new Date(now.getTime() - 30 * 86_400_000) } },
            orderBy: { sampledAt: 'asc' },
          }),
          this.deps.db.channelStatSample.findFirst({ where: { userId: user.id, platform }, orderBy: { sampledAt: 'asc' }, select: { sampledAt: true } }),
        ]);
        return { platform, stats: channelStats(platform, samples, now, first?.sampledAt ?? null) };
      }),
    );
    const requirements = (await this.view(campaign)).requirements;
    const judged = judgeChannels(requirements, channels);
    const reasons = [...judged.reasons];
    if (campaign.geo.length > 0 && (!profile?.country || !campaign.geo.includes(profile.country))) {
      reasons.push(
        profile?.country
          ? `This campaign runs in ${campaign.geo.join(', ')} only.`
          : 'Add your country in Settings › Personal information: this campaign runs in some countries only.',
      );
    }
    if (campaign.kind === 'revenue-share') {
      if (!profile?.birthdate)
        reasons.push(`Add your birthdate in Settings › Personal information: revenue share needs age ${REVENUE_SHARE_MIN_AGE} or older.`);
      else if (ageOn(profile.birthdate, now) < REVENUE_SHARE_MIN_AGE) reasons.push(`Revenue share needs age ${REVENUE_SHARE_MIN_AGE} or older.`);
    }
    return { eligible: reasons.length === 0, reasons, stats: judged.stats };
  }

  // ─── Helpers ───

  private rowData(input: CampaignInput) {
    const c = campaignInputSchema.parse(input);
    return {
      name: c.name,
      kind: c.kind,
      status: c.status,
      summary: c.summary,
      description: c.description,
      game: c.game,
      genre: c.genre,
      developer: c.developer,
      publisher: c.publisher,
      businessModel: c.businessModel,
      platforms: [...new Set(c.platforms)],
      geo: [...new Set(c.geo)],
      ...c.requirements,
      requiresReview: c.requiresReview,
      revenueSharePermille: c.revenueSharePercent === null ? null : Math.round(c.revenueSharePercent * 10),
      revenueShareEndsAt: c.revenueShareEndsAt ? new Date(c.revenueShareEndsAt) : null,
      promoDiscountKind: c.promoDiscount?.kind ?? null,
      promoMinPercent: c.promoDiscount ? (c.promoDiscount.kind === 'fixed' ? c.promoDiscount.percent : c.promoDiscount.minPercent) : null,
      promoMaxPercent: c.promoDiscount ? (c.promoDiscount.kind === 'fixed' ? c.promoDiscount.percent : c.promoDiscount.maxPercent) : null,
      storeUrl: c.storeUrl,
      keysAvailableAt: c.keysAvailableAt ? new Date(c.keysAvailableAt) : null,
      expiresAt: c.expiresAt ? new Date(c.expiresAt) : null,
      resources: c.resources,
    };
  }

  private async requireCampaign(campaignId: string): Promise<CampaignRow> {
    const row = await this.deps.db.campaign.findUnique({ where: { id: campaignId } });
    if (!row) throw new OnAirError('NOT_FOUND', CAMPAIGN_NOT_FOUND);
    return row;
  }

  /** Drafts are the administrators' own; anything else shows to creators (an ended one to its participants). */
  private async visibleCampaign(user: CurrentUser, campaignId: string): Promise<CampaignRow> {
    const row = await this.deps.db.campaign.findUnique({ where: { id: campaignId } });
    if (!row || row.status === 'draft') throw new OnAirError('NOT_FOUND', CAMPAIGN_NOT_FOUND);
    if (row.status !== 'active') {
      const mine = await this.deps.db.campaignApplication.count({ where: { campaignId, creatorId: user.id } });
      if (mine === 0) throw new OnAirError('NOT_FOUND', CAMPAIGN_NOT_FOUND);
    }
    return row;
  }

  private assertOpen(campaign: CampaignRow): void {
    if (campaign.expiresAt && campaign.expiresAt.getTime() <= this.now().getTime()) throw new OnAirError('CONFLICT', 'This campaign has expired.');
    if (campaign.status !== 'active') throw new OnAirError('CONFLICT', 'This campaign is not running at the moment.');
  }

  private keysOpen(campaign: CampaignRow): boolean {
    return !campaign.keysAvailableAt || campaign.keysAvailableAt.getTime() <= this.now().getTime();
  }

  private async lockApplication(tx: TxClient, campaignId: string, creatorId: string): Promise<{ id: string; status: string } | null> {
    const rows = await tx.$queryRaw<
      { id: string; status: string }[]
    >`SELECT id, status FROM campaign_applications WHERE campaign_id = ${campaignId}::uuid AND creator_id = ${creatorId} FOR UPDATE`;
    return rows[0] ?? null;
  }

  private async lockApplicationById(tx: TxClient, applicationId: string): Promise<{ id: string; status: string; campaignId: string } | null> {
    const rows = await tx.$queryRaw<
      { id: string; status: string; campaign_id: string }[]
    >`SELECT id, status, campaign_id FROM campaign_applications WHERE id = ${applicationId}::uuid FOR UPDATE`;
    const row = rows[0];
    return row ? { id: row.id, status: row.status, campaignId: row.campaign_id } : null;
  }

  /** Every participant gets one tracked link to the campaign's store page. */
  private async ensureLink(campaignId: string, creatorId: string): Promise<void> {
    const application = await this.deps.db.campaignApplication.findUnique({ where: { campaignId_creatorId: { campaignId, creatorId } }, select: { id: true } });
    if (!application) return;
    await this.deps.db.campaignLink.upsert({
      where: { applicationId: application.id },
      create: { applicationId: application.id, slug: randomBytes(9).toString('base64url') },
      update: {},
    });
  }

  private campaignUrl(campaignId: string): string {
    return `${this.deps.publicUrl}/partner/campaigns/${campaignId}`;
  }

  /** Partner news: only while the creator's switch is on, with its unsubscribe link. A mail that cannot go out is logged (by PreferenceMailer) and never undoes the transition. */
  private async mail(userId: string, message: { subject: string; text: string; html: string }): Promise<boolean> {
    return (await this.deps.mail.send(userId, 'partnerNews', message)) === 'sent';
  }
}

type TxClient = Parameters<Parameters<Db['$transaction']>[0]>[0];

function promoDiscountOf(row: { promoDiscountKind: string | null; promoMinPercent: number | null; promoMaxPercent: number | null }): PromoDiscount | null {
  if (row.promoDiscountKind === 'fixed' && row.promoMinPercent !== null) return { kind: 'fixed', percent: row.promoMinPercent };
  if (row.promoDiscountKind === 'range' && row.promoMinPercent !== null && row.promoMaxPercent !== null)
    return { kind: 'range', minPercent: row.promoMinPercent, maxPercent: row.promoMaxPercent };
  return null;
}

function generatePromoCode(): string {
  let code = '';
  for (let i = 0; i < PROMO_CODE_LENGTH_GENERATED; i++) code += PROMO_ALPHABET[randomInt(PROMO_ALPHABET.length)];
  return code;
}
