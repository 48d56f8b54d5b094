import type { Readable } from 'node:stream';
import {
  CAMPAIGN_LINK_PATH,
  sponsorImpressionPath,
  CREATOR_SITE_PATH,
  creatorSiteImagePath,
  OnAirError,
  siteBlockSchema,
  tipPagePath,
  type CreatorSite,
  type CreatorSiteContent,
  type SiteBlock,
  type SitePromoCode,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { TipsService } from '../money/tips-service.ts';
import type { UploadService } from '../uploads/index.ts';

/** What a visitor's page is drawn from. */
export interface PublicSite {
  username: string;
  name: string;
  headline: string;
  blocks: SiteBlock[];
  live: boolean;
  /** Addresses (path on this origin) of the site's pictures by upload id. */
  images: Map<string, string>;
  /** The tip page (path on this origin) while the creator takes tips; null hides the tip button. */
  tipPath: string | null;
  /** The promo codes of the creator's running campaigns. */
  promoCodes: PublicPromoCode[];
}

/** A promo code on the public page, with the path of its tracked link's impression pixel (counts a view for Sponsorships). */
export interface PublicPromoCode extends SitePromoCode {
  impressionPath: string | null;
}

/** Participants whose promo codes count: accepted, or accepted and their key claimed (spec §4). */
const PARTICIPATING = ['accepted', 'claimed'];
const PROMO_CODES_SHOWN = 50;

const imageIdsOf = (blocks: readonly SiteBlock[]) => blocks.flatMap((b) => (b.kind === 'image' && b.uploadId ? [b.uploadId] : []));

function readBlocks(raw: unknown): SiteBlock[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((b) => {
    const parsed = siteBlockSchema.safeParse(b);
    return parsed.success ? [parsed.data] : [];
  });
}

/** A channel's creator site (partner spec §2 'Creator Site'); who may edit it was checked by mount() (Creator Site group). */
export class CreatorSiteService {
  constructor(private readonly deps: { db: Db; publicUrl: string; uploads: UploadService; tips: Pick<TipsService, 'page'>; now?: () => Date }) {}

  /** Whether the tip button shows: the creator takes tips and the operator has not switched tipping off. */
  private async tipState(channelId: string): Promise<CreatorSite['tips']> {
    const url = new URL(tipPagePath(channelId), this.deps.publicUrl).toString();
    try {
      const page = await this.deps.tips.page(channelId, false);
      return { available: page.available, unavailableReason: page.unavailableReason, url };
    } catch (err) {
      if (err instanceof OnAirError && err.code === 'NOT_FOUND') return { available: false, unavailableReason: 'This account takes no tips.', url };
      throw err;
    }
  }

  /**
   * The promo codes of the creator's running campaigns: the creator takes part (accepted or
   * claimed), the campaign is active and not expired. The store link is the creator's tracked link
   * when there is one, so a visitor's click counts in the campaign's statistics.
   */
  private async promoCodes(channelId: string): Promise<PublicPromoCode[]> {
    const now = this.deps.now?.() ?? new Date();
    const rows = await this.deps.db.promoCode.findMany({
      where: {
        application: {
          creatorId: channelId,
          status: { in: PARTICIPATING },
          campaign: { status: 'active', OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
        },
      },
      select: {
        code: true,
        discountPercent: true,
        application: { select: { link: { select: { slug: true } }, campaign: { select: { name: true, game: true, storeUrl: true } } } },
      },
      orderBy: [{ createdAt: 'asc' }, { code: 'asc' }],
      take: PROMO_CODES_SHOWN,
    });
    return rows.map((r) => {
      const { link, campaign } = r.application;
      const storeUrl = link ? new URL(CAMPAIGN_LINK_PATH.replace(':slug', encodeURIComponent(link.slug)), this.deps.publicUrl).toString() : campaign.storeUrl;
      const impressionPath = link ? sponsorImpressionPath(link.slug, 'site') : null;
      return { code: r.code, discountPercent: r.discountPercent, game: campaign.game, campaignName: campaign.name, storeUrl, impressionPath };
    });
  }

  private async usernameOf(channelId: string): Promise<string | null> {
    const profile = await this.deps.db.partnerProfile.findUnique({ where: { userId: channelId }, select: { username: true } });
    return profile?.username ?? null;
  }

  async get(channelId: string): Promise<CreatorSite> {
    const row = await this.deps.db.creatorSite.findUnique({ where: { channelId } });
    const blocks = readBlocks(row?.blocks);
    const username = await this.usernameOf(channelId);
    const uploads = await this.deps.uploads.channelUploads(channelId, 'site', imageIdsOf(blocks));
    return {
      published: row?.published ?? false,
      headline: row?.headline ?? '',
      blocks,
      url: username ? new URL(CREATOR_SITE_PATH.replace(':username', encodeURIComponent(username)), this.deps.publicUrl).toString() : null,
      updatedAt: row?.updatedAt.toISOString() ?? null,
      maxImageBytes: this.deps.uploads.maxImageBytes,
      tips: await this.tipState(channelId),
      promoCodes: (await this.promoCodes(channelId)).map(({ impressionPath: _pixel, ...code }) => code),
      images: Object.fromEntries(
        uploads.map((u) => [
          u.id,
          {
            name: u.name,
            width: u.width,
            height: u.height,
            url: username ? new URL(creatorSiteImagePath(username, u.id), this.deps.publicUrl).toString() : null,
          },
        ]),
      ),
    };
  }

  async update(channelId: string, content: CreatorSiteContent): Promise<CreatorSite> {
    // A picture block may only show a picture uploaded for this channel's site.
    const ids = imageIdsOf(content.blocks);
    const known = new Set((await this.deps.uploads.channelUploads(channelId, 'site', ids)).map((u) => u.id));
    const index = content.blocks.findIndex((b) => b.kind === 'image' && b.uploadId !== null && !known.has(b.uploadId));
    if (index >= 0) {
      throw new OnAirError('VALIDATION_FAILED', "This picture is not one of your site's uploads. Upload it again.", {
        where: 'body',
        issues: [{ path: ['blocks', String(index), 'uploadId'], code: 'custom', message: 'Upload the picture again' }],
      });
    }
    const data = { published: content.published, headline: content.headline, blocks: content.blocks };
    await this.deps.db.creatorSite.upsert({ where: { channelId }, create: { channelId, ...data }, update: data });
    return this.get(channelId);
  }

  /** The published site of a username (case-insensitive), or null: unknown, unpublished, or its account deleted. */
  async publicSite(username: string): Promise<PublicSite | null> {
    const profile = await this.deps.db.partnerProfile.findUnique({
      where: { usernameKey: username.toLowerCase() },
      select: { username: true, user: { select: { id: true, name: true, deactivatedAt: true, creatorSite: true } } },
    });
    const site = profile?.user.creatorSite;
    if (!profile?.username || !site?.published || profile.user.deactivatedAt) return null;
    const live = await this.deps.db.broadcast.findFirst({ where: { project: { ownerId: profile.user.id }, state: 'live' }, select: { id: true } });
    const blocks = readBlocks(site.blocks);
    const uploads = await this.deps.uploads.channelUploads(profile.user.id, 'site', imageIdsOf(blocks));
    const images = new Map(uploads.map((u) => [u.id, creatorSiteImagePath(profile.username!, u.id)]));
    const tipPath = blocks.some((b) => b.kind === 'tipButton') && (await this.tipState(profile.user.id)).available ? tipPagePath(profile.user.id) : null;
    const promoCodes = blocks.some((b) => b.kind === 'promoCodes') ? await this.promoCodes(profile.user.id) : [];
    return { username: profile.username, name: profile.user.name, headline: site.headline, blocks, live: live !== null, images, tipPath, promoCodes };
  }

  /** A picture of a published site for its visitors; null when the site, or the picture on it, is not there. */
  async publicImage(username: string, uploadId: string): Promise<{ stream: Readable; sizeBytes: number } | null> {
    const profile = await this.deps.db.partnerProfile.findUnique({
      where: { usernameKey: username.toLowerCase() },
      select: { user: { select: { id: true, deactivatedAt: true, creatorSite: { select: { published: true, blocks: true } } } } },
    });
    if (!profile) return null;
    const site = profile.user.creatorSite;
    if (!site?.published || profile.user.deactivatedAt) return null;
    // Only pictures the published site shows: an upload not (or no longer) on the page stays private.
    if (!imageIdsOf(readBlocks(site.blocks)).includes(uploadId)) return null;
    const opened = await this.deps.uploads.openForChannel(profile.user.id, 'site', uploadId);
    return opened ? { stream: opened.stream, sizeBytes: opened.sizeBytes } : null;
  }
}
