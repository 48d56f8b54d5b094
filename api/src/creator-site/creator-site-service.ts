import { CREATOR_SITE_PATH, siteBlockSchema, type CreatorSite, type CreatorSiteContent, type SiteBlock } from '@onair/protocol';
import type { Db } from '@onair/db';

/** What a visitor's page is drawn from. */
export interface PublicSite {
  username: string;
  name: string;
  headline: string;
  blocks: SiteBlock[];
  live: boolean;
}

function readBlocks(raw: unknown): SiteBlock[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((b) => {
    const parsed = siteBlockSchema.safeParse(b);
    return parsed.success ? [parsed.data] : [];
  });
}

/** A channel's creator site (partner spec §2 'Creator Site'); who may edit it was checked by mount() (Creator Site group). */
export class CreatorSiteService {
  constructor(private readonly deps: { db: Db; publicUrl: string }) {}

  private async urlOf(channelId: string): Promise<string | null> {
    const profile = await this.deps.db.partnerProfile.findUnique({ where: { userId: channelId }, select: { username: true } });
    return profile?.username ? new URL(CREATOR_SITE_PATH.replace(':username', encodeURIComponent(profile.username)), this.deps.publicUrl).toString() : null;
  }

  async get(channelId: string): Promise<CreatorSite> {
    const row = await this.deps.db.creatorSite.findUnique({ where: { channelId } });
    return {
      published: row?.published ?? false,
      headline: row?.headline ?? '',
      blocks: readBlocks(row?.blocks),
      url: await this.urlOf(channelId),
      updatedAt: row?.updatedAt.toISOString() ?? null,
    };
  }

  async update(channelId: string, content: CreatorSiteContent): Promise<CreatorSite> {
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
    return { username: profile.username, name: profile.user.name, headline: site.headline, blocks: readBlocks(site.blocks), live: live !== null };
  }
}
