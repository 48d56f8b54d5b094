import { CHANNEL_STATS_WINDOW_DAYS, type CampaignRequirements, type Eligibility } from '@onair/protocol';

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
export function channelStats(samples: readonly StatSample[], now: Date, firstSampledAt: Date | null): ChannelStats | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a.sampledAt.getTime() - b.sampledAt.getTime());
  const latest = sorted[sorted.length - 1]!;
  const since = now.getTime() - CHANNEL_STATS_WINDOW_DAYS * DAY_MS;
  const live = sorted.filter((s) => s.live && s.sampledAt.getTime() >= since);
  const watched = live.filter((s) => s.viewers !== null);
  const averageViewers = watched.length ? watched.reduce((sum, s) => sum + s.viewers!, 0) / watched.length : 0;
  const minutesLive = live.reduce((sum, s) => sum + s.minutes, 0);
  return {
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

/** Spec §5: every threshold the campaign sets must be met; spec §8's words when none can be judged. */
export function judgeEligibility(requirements: CampaignRequirements, stats: ChannelStats | null, platformLinked: boolean): Eligibility {
  if (!platformLinked)
    return { eligible: false, reasons: ['No platform linked or requirements not met: link your Twitch account in Settings › Integrations.'], stats };
  const reasons: string[] = [];
  for (const check of checks) {
    const needed = requirements[check.key];
    if (needed === null) continue;
    const value = stats?.[check.stat];
    if (typeof value !== 'number') reasons.push(`Your channel's ${check.words} are not known yet (OnAir samples your channel every few minutes).`);
    else if (value < needed)
      reasons.push(`The campaign needs ${needed.toLocaleString('en-US')} ${check.words}; your channel has ${value.toLocaleString('en-US')}.`);
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
