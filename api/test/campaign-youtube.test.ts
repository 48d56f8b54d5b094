// YouTube channels for campaign eligibility (issue 40 item 5): the sweep samples a creator's YouTube
// channel through the Data API (the YouTube double on a real socket, the creator's Google token) —
// subscribers and total views from channels.list, concurrent viewers of the live broadcast from
// liveBroadcasts.list and videos.list — and a creator with YouTube only qualifies for a campaign.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatorCampaign } from '@onair/protocol';
import { createLogger } from '@onair/runtime';
import { CampaignSweepJob } from '../src/campaigns/campaign-jobs.ts';
import { CampaignService } from '../src/campaigns/campaign-service.ts';
import { ChannelStatsSampler } from '../src/campaigns/channel-stats-sampler.ts';
import { DevInbox, DevInboxMailer } from '../src/mail/dev-inbox.ts';
import { Ledger } from '../src/money/ledger.ts';
import { PreferenceMailer } from '../src/notifications/preference-mailer.ts';
import { UnsubscribeTokens } from '../src/notifications/unsubscribe-token.ts';
import { personalInfo } from './helpers/partner.ts';
import { startYouTubeDouble, type YouTubeDouble } from './helpers/platform-doubles/youtube-double.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let youtube: YouTubeDouble;
let sweep: CampaignSweepJob;
let clock = new Date('2026-11-25T12:00:00.000Z');
const tokens = new Map<string, string>();
const logger = createLogger('campaign-youtube-test', 'silent');

beforeAll(async () => {
  youtube = await startYouTubeDouble();
  api = await startStudioApi({ now: () => clock, env: youtube.env() });
  const sampler = new ChannelStatsSampler({
    db: api.db,
    logger,
    apiUrl: 'http://127.0.0.1:9/helix',
    clientId: null,
    youtubeApiUrl: `${youtube.url}/youtube/v3`,
    tokenFor: async (userId, _row, provider) => (provider === 'google' ? (tokens.get(userId) ?? null) : null),
    intervalMinutes: 15,
    now: () => clock,
  });
  const mail = new PreferenceMailer({
    db: api.db,
    mailer: new DevInboxMailer(new DevInbox(api.redis)),
    tokens: new UnsubscribeTokens(api.authSecret),
    publicUrl: api.url,
    logger,
  });
  const campaigns = new CampaignService({ db: api.db, logger, mail, publicUrl: api.url, secrets: null, ledger: new Ledger(api.db), now: () => clock });
  sweep = new CampaignSweepJob({ redis: api.redis, logger, campaigns, sampler, everyMs: 3_600_000, prefix: `test-${randomUUID()}` });
});
afterAll(async () => {
  await sweep?.close();
  await youtube?.close();
  await api?.close();
});

/** An onboarded creator whose only linked platform is a Google account (YouTube). */
async function youtubeCreator(token: string): Promise<TestUser> {
  const user = await createTestUser(api);
  const onboarded = await call(api, user, 'POST', '/api/v1/partner/account/onboarding', personalInfo(`y${user.id.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}`));
  expect(onboarded.status).toBe(200);
  await api.db.account.create({ data: { id: randomUUID(), accountId: `google-${randomUUID()}`, providerId: 'google', userId: user.id } });
  tokens.set(user.id, token);
  return user;
}

describe('YouTube channels for campaign eligibility', () => {
  it('samples subscribers, total views and live viewers, and a YouTube creator qualifies for a campaign', async () => {
    const creator = await youtubeCreator(youtube.issueAccessToken());
    const revoked = await youtubeCreator('revoked-token');
    youtube.statistics = { subscriberCount: 1200, viewCount: 54_321, hiddenSubscriberCount: false };

    // Two live hours at 30 then 50 viewers, then offline: 10 samples a quarter hour apart.
    for (let i = 0; i < 10; i++) {
      youtube.liveViewers = i < 4 ? 30 : i < 8 ? 50 : null;
      expect(await sweep.runNow()).toMatchObject({ sampled: 1 });
      clock = new Date(clock.getTime() + 15 * 60_000);
    }
    const rows = await api.db.channelStatSample.findMany({ where: { userId: creator.id }, orderBy: { sampledAt: 'asc' } });
    expect(rows).toHaveLength(10);
    expect(rows[0]).toMatchObject({ platform: 'youtube', followers: 1200, subscribers: 1200, totalViews: 54_321, live: true, viewers: 30 });
    expect(rows[9]).toMatchObject({ live: false, viewers: null });
    expect(await api.db.channelStatSample.count({ where: { userId: revoked.id } })).toBe(0);
    // The calls the Data API was asked: the channel's own statistics, its active broadcasts, the live video's viewers.
    const paths = youtube.calls.filter((c) => c.token === tokens.get(creator.id)).map((c) => c.path);
    expect(new Set(paths)).toEqual(new Set(['/youtube/v3/channels', '/youtube/v3/liveBroadcasts', '/youtube/v3/videos']));

    const admin = await createTestUser(api);
    await api.db.user.update({ where: { id: admin.id }, data: { userType: 'ADMIN' } });
    const create = await call(api, admin, 'POST', '/api/v1/admin/campaigns', {
      name: 'For YouTube',
      kind: 'game-key',
      status: 'active',
      game: 'Skyward',
      platforms: ['Steam'],
      requiresReview: false,
      requirements: { minFollowers: 1000, minSubscribers: null, minTotalViews: 50_000, minAverageViewers30d: 35, minHoursStreamed30d: 2 },
    });
    expect(create.status, JSON.stringify(create.body)).toBe(201);
    const campaignId = (create.body as { id: string }).id;
    const judged = await call(api, creator, 'GET', `/api/v1/partner/campaigns/${campaignId}`);
    expect((judged.body as CreatorCampaign).eligibility).toEqual({
      eligible: true,
      reasons: [],
      stats: {
        platform: 'youtube',
        followers: 1200,
        subscribers: 1200,
        totalViews: 54_321,
        averageViewers30d: 40,
        hoursStreamed30d: 2,
        sampledSince: '2026-11-25T12:00:00.000Z',
        complete: false,
      },
    });
    const joined = await call(api, creator, 'POST', `/api/v1/partner/campaigns/${campaignId}/application`, {
      primaryChannel: 'youtube.com/@ada',
      agreementAccepted: true,
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    expect((joined.body as CreatorCampaign).application?.status).toBe('accepted');

    // A creator whose channel has not been sampled is told so, naming YouTube.
    const unsampled = await call(api, revoked, 'GET', `/api/v1/partner/campaigns/${campaignId}`);
    expect((unsampled.body as CreatorCampaign).eligibility.reasons[0]).toBe(
      "Your YouTube channel's followers are not known yet (OnAir samples your channel every few minutes).",
    );
  });

  it('leaves the subscribers unknown when the creator hides them, and tells a creator with no platform what to link', async () => {
    const hidden = await youtubeCreator(youtube.issueAccessToken());
    youtube.statistics = { subscriberCount: 5000, viewCount: 10, hiddenSubscriberCount: true };
    youtube.liveViewers = null;
    await sweep.runNow();
    expect(await api.db.channelStatSample.findFirst({ where: { userId: hidden.id } })).toMatchObject({ followers: null, subscribers: null, totalViews: 10 });

    const nobody = await createTestUser(api);
    await call(api, nobody, 'POST', '/api/v1/partner/account/onboarding', personalInfo(`n${nobody.id.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}`));
    const any = await api.db.campaign.findFirst({ where: { name: 'For YouTube' } });
    const res = await call(api, nobody, 'GET', `/api/v1/partner/campaigns/${any!.id}`);
    expect((res.body as CreatorCampaign).eligibility.reasons).toEqual([
      'No platform linked or requirements not met: link your Twitch account, or your Google account for YouTube, in Settings › Integrations.',
    ]);
  });
});
