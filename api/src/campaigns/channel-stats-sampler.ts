import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';

export interface ChannelStatsSamplerDeps {
  db: Db;
  logger: Logger;
  /** Helix's base address (TWITCH_API_URL). */
  apiUrl: string;
  /** The Twitch application's client id; without one nothing is sampled. */
  clientId: string | null;
  /** A valid access token of the creator's linked Twitch account (better-auth refreshes it), or null. */
  tokenFor: (userId: string, accountRowId: string) => Promise<string | null>;
  /** The sampling interval: each live sample stands for this many minutes streamed. */
  intervalMinutes: number;
  now?: () => Date;
}

class HelixError extends Error {
  constructor(readonly status: number) {
    super(`Helix answered ${status}`);
  }
}

/**
 * Samples the linked Twitch channels for campaign eligibility (issue 25). Twitch's api gives the
 * follower and subscriber totals and the live viewer count of now, but no 30-day history, so OnAir
 * keeps its own: one row per channel per interval. Averages and hours streamed over 30 days come
 * from those rows and are exact only once a channel has been sampled for 30 days. Twitch stopped
 * reporting total views in Helix (users.view_count, deprecated in 2022), so it is never sampled.
 */
export class ChannelStatsSampler {
  constructor(private readonly deps: ChannelStatsSamplerDeps) {}

  /** One round over every linked Twitch account; a channel that fails is skipped, a 429 ends the round. */
  async sampleAll(): Promise<{ sampled: number; failed: number }> {
    const { db, logger, clientId } = this.deps;
    if (!clientId) return { sampled: 0, failed: 0 };
    const accounts = await db.account.findMany({
      where: { providerId: 'twitch', user: { deactivatedAt: null } },
      select: { id: true, userId: true, accountId: true },
      orderBy: { createdAt: 'asc' },
    });
    let sampled = 0;
    let failed = 0;
    for (const account of accounts) {
      try {
        if (await this.sampleOne(account.userId, account.id, account.accountId)) sampled++;
        else failed++;
      } catch (err) {
        if (err instanceof HelixError && err.status === 429) {
          logger.warn({ sampled, remaining: accounts.length - sampled - failed }, 'channel statistics: Twitch rate limit reached, the next round goes on');
          break;
        }
        failed++;
        logger.warn({ userId: account.userId, err: (err as Error).message }, 'channel statistics: sample failed');
      }
    }
    return { sampled, failed };
  }

  /** Samples one channel; false when its token is missing or refused. */
  async sampleOne(userId: string, accountRowId: string, broadcasterId: string): Promise<boolean> {
    const token = await this.deps.tokenFor(userId, accountRowId).catch(() => null);
    if (!token) return false;
    const get = async (path: string, optional = false): Promise<Record<string, unknown> | null> => {
      const res = await fetch(`${this.deps.apiUrl}${path}`, {
        headers: { 'client-id': this.deps.clientId!, authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      // Subscriptions need the broadcaster's channel:read:subscriptions and an affiliate channel.
      if (optional && (res.status === 401 || res.status === 403 || res.status === 400)) return null;
      if (!res.ok) throw new HelixError(res.status);
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
