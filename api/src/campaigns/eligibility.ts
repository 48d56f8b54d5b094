import { CHANNEL_STATS_WINDOW_DAYS, statsPlatformLabels, type CampaignRequirements, type Eligibility, type StatsPlatform } from '@onair/protocol';

export interface StatSample {
  sampledAt: Date;
  followers: number | null;
  subscribers: number | null;
  totalViews: number | null;
  live: boolean;
  viewers: number | null;
  minutes: number;
}

export type ChannelStats = NonNullable<Eligibility['stats']>;

const DAY_MS = 86_400_000;

/**
 * The channel's figures from OnAir's own samples (Twitch keeps no 30-day history a third party can
 * read): the latest counts, the mean concurrent viewers over the live samples of the last 30 days,
 * and the hours those live samples stand for. `complete` is false until the first sample is 30
 * days old: before that the 30-day figures cover only the days sampled.
 */
export function channelStats(platform: StatsPlatform, samples: readonly StatSample[], now: Date, firstSampledAt: Date | null): ChannelStats | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a.sampledAt.getTime() - b.sampledAt.getTime());
  const latest = sorted[sorted.length - 1]!;
  const since = now.getTime() - CHANNEL_STATS_WINDOW_DAYS * DAY_MS;
  const live = sorted.filter((s) => s.live && s.sampledAt.getTime() >= since);
  const watched = live.filter((s) => s.viewers !== null);
  const averageViewers = watched.length ? watched.reduce((sum, s) => sum + s.viewers!, 0) / watched.length : 0;
  const minutesLive = live.reduce((sum, s) => sum + s.minutes, 0);
  return {
    platform,
    followers: latest.followers,
    subscribers: latest.subscribers,
    totalViews: latest.totalViews,
    averageViewers30d: Math.round(averageViewers * 10) / 10,
    hoursStreamed30d: Math.round((minutesLive / 60) * 10) / 10,
    sampledSince: firstSampledAt?.toISOString() ?? null,
    complete: firstSampledAt !== null && firstSampledAt.getTime() <= since,
  };
}

const checks: { key: keyof CampaignRequirements; stat: keyof ChannelStats; words: string }[] = [
  { key: 'minFollowers', stat: 'followers', words: 'followers' },
  { key: 'minSubscribers', stat: 'subscribers', words: 'subscribers' },
  { key: 'minTotalViews', stat: 'totalViews', words: 'total views' },
  { key: 'minAverageViewers30d', stat: 'averageViewers30d', words: 'average concurrent viewers over 30 days' },
  { key: 'minHoursStreamed30d', stat: 'hoursStreamed30d', words: 'hours streamed over 30 days' },
];

/**
 * Spec §5: every threshold the campaign sets must be met by one channel; spec §8's words when no
 * channel is linked. With a Twitch and a YouTube channel linked, each is judged and the one that
 * qualifies (or the one missing the fewest thresholds, Twitch first) is the answer.
 */
export function judgeChannels(requirements: CampaignRequirements, channels: readonly { platform: StatsPlatform; stats: ChannelStats | null }[]): Eligibility {
  if (channels.length === 0)
    return {
      eligible: false,
      reasons: ['No platform linked or requirements not met: link your Twitch account, or your Google account for YouTube, in Settings › Integrations.'],
      stats: null,
    };
  const judged = channels.map((c) => judgeEligibility(requirements, c.stats, c.platform));
  return judged.find((j) => j.eligible) ?? judged.reduce((best, j) => (j.reasons.length < best.reasons.length ? j : best));
}

/** One channel against the campaign's thresholds. */
export function judgeEligibility(requirements: CampaignRequirements, stats: ChannelStats | null, platform: StatsPlatform = 'twitch'): Eligibility {
  const reasons: string[] = [];
  for (const check of checks) {
    const needed = requirements[check.key];
    if (needed === null) continue;
    const value = stats?.[check.stat];
    const channel = `Your ${statsPlatformLabels[platform]} channel`;
    if (typeof value !== 'number') reasons.push(`${channel}'s ${check.words} are not known yet (OnAir samples your channel every few minutes).`);
    else if (value < needed)
      reasons.push(
        `The campaign needs ${needed.toLocaleString('en-US')} ${check.words}; your ${statsPlatformLabels[platform]} channel has ${value.toLocaleString('en-US')}.`,
      );
  }
  return { eligible: reasons.length === 0, reasons, stats };
}

/** Whole years between a birthdate and now (spec §5: revenue share from 18). */
export function ageOn(birthdate: Date, now: Date): number {
  let age = now.getUTCFullYear() - birthdate.getUTCFullYear();
  const beforeBirthday =
    now.getUTCMonth() < birthdate.getUTCMonth() || (now.getUTCMonth() === birthdate.getUTCMonth() && now.getUTCDate() < birthdate.getUTCDate());
  if (beforeBirthday) age -= 1;
  return age;
}
