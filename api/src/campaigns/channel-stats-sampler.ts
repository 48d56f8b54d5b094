import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';

export interface ChannelStatsSamplerDeps {
  db: Db;
  logger: Logger;
  /** Helix's base address (TWITCH_API_URL). */
  apiUrl: string;
  /** The Twitch application's client id; without one no Twitch channel is sampled. */
  clientId: string | null;
  /** The YouTube Data API's base address (YOUTUBE_API_URL); null when Google sign-in is not offered (no YouTube channel is sampled). */
  youtubeApiUrl?: string | null;
  /** A valid access token of the creator's linked account (better-auth refreshes it), or null. */
  tokenFor: (userId: string, accountRowId: string, providerId: 'twitch' | 'google') => Promise<string | null>;
  /** The sampling interval: each live sample stands for this many minutes streamed. */
  intervalMinutes: number;
  now?: () => Date;
}

class PlatformApiError extends Error {
  constructor(
    readonly status: number,
    platform = 'Helix',
  ) {
    super(`${platform} answered ${status}`);
  }
}

/** Google's answer to a call over quota (403 with reason quotaExceeded or rateLimitExceeded, or 429). */
const overQuota = async (res: Response) =>
  res.status === 429 || (res.status === 403 && /"reason":\s*"(quotaExceeded|rateLimitExceeded|userRateLimitExceeded)"/.test(await res.clone().text()));

/**
 * Samples the linked Twitch and YouTube channels for campaign eligibility (issue 25, issue 40 item
 * 5). The platforms give the totals and the live viewer count of now, but no 30-day history a third
 * party can read, so OnAir keeps its own: one row per channel and platform per interval. Averages
 * and hours streamed over 30 days come from those rows and are exact only once a channel has been
 * sampled for 30 days. Twitch stopped reporting total views in Helix (users.view_count, deprecated
 * in 2022), so it is never sampled there; YouTube gives it (statistics.viewCount). A YouTube
 * channel's subscribers are its audience: they count as its followers and its subscribers.
 */
export class ChannelStatsSampler {
  constructor(private readonly deps: ChannelStatsSamplerDeps) {}

  /** One round over every linked Twitch and YouTube account; a channel that fails is skipped, a platform's rate limit ends its round. */
  async sampleAll(): Promise<{ sampled: number; failed: number }> {
    const { clientId, youtubeApiUrl } = this.deps;
    const twitch = clientId ? await this.round('twitch', (a) => this.sampleOne(a.userId, a.id, a.accountId)) : { sampled: 0, failed: 0 };
    const youtube = youtubeApiUrl ? await this.round('google', (a) => this.sampleYouTube(a.userId, a.id)) : { sampled: 0, failed: 0 };
    return { sampled: twitch.sampled + youtube.sampled, failed: twitch.failed + youtube.failed };
  }

  private async round(
    providerId: 'twitch' | 'google',
    sample: (account: { id: string; userId: string; accountId: string }) => Promise<boolean>,
  ): Promise<{ sampled: number; failed: number }> {
    const { db, logger } = this.deps;
    const accounts = await db.account.findMany({
      where: { providerId, user: { deactivatedAt: null } },
      select: { id: true, userId: true, accountId: true },
      orderBy: { createdAt: 'asc' },
    });
    let sampled = 0;
    let failed = 0;
    for (const account of accounts) {
      try {
        if (await sample(account)) sampled++;
        else failed++;
      } catch (err) {
        if (err instanceof PlatformApiError && err.status === 429) {
          logger.warn({ providerId, sampled, remaining: accounts.length - sampled - failed }, 'channel statistics: rate limit reached, the next round goes on');
          break;
        }
        failed++;
        logger.warn({ providerId, userId: account.userId, err: (err as Error).message }, 'channel statistics: sample failed');
      }
    }
    return { sampled, failed };
  }

  /**
   * Samples one YouTube channel (the Google account's own, `mine=true`): subscribers and total views
   * (channels.list statistics), and while it is live the concurrent viewers of its active broadcasts
   * (liveBroadcasts.list broadcastStatus=active, then videos.list liveStreamingDetails). False when
   * the token is missing or refused, or the account has no channel.
   */
  async sampleYouTube(userId: string, accountRowId: string): Promise<boolean> {
    const token = await this.deps.tokenFor(userId, accountRowId, 'google').catch(() => null);
    if (!token) return false;
    const get = async (path: string): Promise<Record<string, unknown> | null> => {
      const res = await fetch(`${this.deps.youtubeApiUrl}${path}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
      if (await overQuota(res)) throw new PlatformApiError(429, 'YouTube');
      // The token lacks the YouTube scope (signed in before it was asked for) or was revoked.
      if (res.status === 401 || res.status === 403) return null;
      if (!res.ok) throw new PlatformApiError(res.status, 'YouTube');
      return (await res.json()) as Record<string, unknown>;
    };
    const channels = await get('/channels?part=statistics&mine=true');
    const channel = (channels?.items as { statistics?: { subscriberCount?: string; viewCount?: string; hiddenSubscriberCount?: boolean } }[] | undefined)?.[0];
    if (!channel) return false;
    const count = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : null);
    const subscribers = channel.statistics?.hiddenSubscriberCount ? null : count(channel.statistics?.subscriberCount);
    const broadcasts = await get('/liveBroadcasts?part=id&broadcastStatus=active&broadcastType=all&maxResults=5');
    const ids = ((broadcasts?.items as { id?: string }[] | undefined) ?? []).map((b) => b.id).filter((id): id is string => !!id);
    let viewers: number | null = null;
    if (ids.length > 0) {
      const videos = await get(`/videos?part=liveStreamingDetails&id=${ids.map(encodeURIComponent).join(',')}`);
      const counts = ((videos?.items as { liveStreamingDetails?: { concurrentViewers?: string } }[] | undefined) ?? [])
        .map((v) => count(v.liveStreamingDetails?.concurrentViewers))
        .filter((n): n is number => n !== null);
      viewers = counts.length > 0 ? counts.reduce((a, b) => a + b, 0) : null;
    }
    await this.deps.db.channelStatSample.create({
      data: {
        userId,
        platform: 'youtube',
        sampledAt: this.deps.now?.() ?? new Date(),
        followers: subscribers,
        subscribers,
        totalViews: count(channel.statistics?.viewCount),
        live: ids.length > 0,
        viewers,
        minutes: this.deps.intervalMinutes,
      },
    });
    return true;
  }

  /** Samples one channel; false when its token is missing or refused. */
  async sampleOne(userId: string, accountRowId: string, broadcasterId: string): Promise<boolean> {
    const token = await this.deps.tokenFor(userId, accountRowId, 'twitch').catch(() => null);
    if (!token) return false;
    const get = async (path: string, optional = false): Promise<Record<string, unknown> | null> => {
      const res = await fetch(`${this.deps.apiUrl}${path}`, {
        headers: { 'client-id': this.deps.clientId!, authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      // Subscriptions need the broadcaster's channel:read:subscriptions and an affiliate channel.
      if (optional && (res.status === 401 || res.status === 403 || res.status === 400)) return null;
      if (!res.ok) throw new PlatformApiError(res.status);
      return (await res.json()) as Record<string, unknown>;
    };
    const id = encodeURIComponent(broadcasterId);
    const [followers, subscriptions, streams] = await Promise.all([
      get(`/channels/followers?broadcaster_id=${id}&first=1`),
      get(`/subscriptions?broadcaster_id=${id}&first=1`, true),
      get(`/streams?user_id=${id}`),
    ]);
    const stream = (streams?.data as { viewer_count?: number; type?: string }[] | undefined)?.[0];
    const live = stream?.type === 'live';
    await this.deps.db.channelStatSample.create({
      data: {
        userId,
        platform: 'twitch',
        sampledAt: this.deps.now?.() ?? new Date(),
        followers: typeof followers?.total === 'number' ? followers.total : null,
        subscribers: typeof subscriptions?.total === 'number' ? subscriptions.total : null,
        totalViews: null,
        live,
        viewers: live && typeof stream?.viewer_count === 'number' ? stream.viewer_count : null,
        minutes: this.deps.intervalMinutes,
      },
    });
    return true;
  }
}
