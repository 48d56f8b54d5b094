// The channel statistics behind campaign eligibility (issue 25): the sweep samples every linked
// Twitch channel through Helix (the Twitch double on a real socket, with a token from its real OAuth
// code exchange), and the 30-day figures come from those samples. A channel whose token is refused
// or whose subscriptions need a scope it lacks is sampled as far as it can be; a 429 ends the round
// without failing the sweep.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatorCampaign } from '@onair/protocol';
import { createLogger } from '@onair/runtime';
import { CampaignSweepJob } from '../src/campaigns/campaign-jobs.ts';
import { CampaignService } from '../src/campaigns/campaign-service.ts';
import { Ledger } from '../src/money/ledger.ts';
import { ChannelStatsSampler } from '../src/campaigns/channel-stats-sampler.ts';
import type { Mailer } from '../src/mail/mailer.ts';
import { PreferenceMailer } from '../src/notifications/preference-mailer.ts';
import { UnsubscribeTokens } from '../src/notifications/unsubscribe-token.ts';
import { personalInfo } from './helpers/partner.ts';
import { startTwitchDouble, type TwitchDouble } from './helpers/platform-doubles/twitch-double.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let twitch: TwitchDouble;
let clock = new Date('2026-11-25T12:00:00.000Z');
const tokens = new Map<string, string>();
const logger = createLogger('campaign-stats-test', 'silent');
const sent: { to: string; subject: string }[] = [];
const mailer: Mailer = { kind: 'dev-inbox', send: async (m) => void sent.push({ to: m.to, subject: m.subject }), close: async () => {} };
let sweep: CampaignSweepJob;

beforeAll(async () => {
  api = await startStudioApi({ now: () => clock });
  twitch = await startTwitchDouble();
  const sampler = new ChannelStatsSampler({
    db: api.db,
    logger,
    apiUrl: `${twitch.url}/helix`,
    clientId: twitch.clientId,
    tokenFor: async (userId, _row, provider) => (provider === 'twitch' ? (tokens.get(userId) ?? null) : null),
    intervalMinutes: 15,
    now: () => clock,
  });
  const mail = new PreferenceMailer({
    db: api.db,
    mailer,
    tokens: new UnsubscribeTokens('a-test-secret-of-at-least-32-characters'),
    publicUrl: api.url,
    logger,
  });
  const campaigns = new CampaignService({ db: api.db, logger, mail, publicUrl: api.url, secrets: null, ledger: new Ledger(api.db), now: () => clock });
  sweep = new CampaignSweepJob({ redis: api.redis, logger, campaigns, sampler, everyMs: 3_600_000, prefix: `test-${randomUUID()}` });
});
afterAll(async () => {
  await sweep?.close();
  await twitch?.close();
  await api?.close();
});

/** The authorization-code exchange a Twitch sign-in makes, against the double. */
async function twitchToken(): Promise<string> {
  const redirect = 'http://127.0.0.1/callback';
  const authorize = await fetch(
    `${twitch.url}/oauth2/authorize?client_id=${twitch.clientId}&redirect_uri=${encodeURIComponent(redirect)}&response_type=code&state=s`,
    { redirect: 'manual' },
  );
  const code = new URL(authorize.headers.get('location')!).searchParams.get('code')!;
  const res = await fetch(`${twitch.url}/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      client_id: twitch.clientId,
      client_secret: twitch.clientSecret,
    }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function linkedCreator(broadcasterId: string): Promise<TestUser> {
  const user = await createTestUser(api);
  expect(
    (await call(api, user, 'POST', '/api/v1/partner/account/onboarding', personalInfo(`s${user.id.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}`))).status,
  ).toBe(200);
  await api.db.account.create({ data: { id: randomUUID(), accountId: broadcasterId, providerId: 'twitch', userId: user.id } });
  tokens.set(user.id, await twitchToken());
  return user;
}

describe('channel statistics for campaign eligibility', () => {
  it('samples the linked channels and judges a campaign from 30 days of its own samples', async () => {
    const streamer = await linkedCreator('5001');
    const scopeless = await linkedCreator('5002');
    const revoked = await linkedCreator('5003');
    twitch.channels.set('5001', { followers: 250, subscribers: 12, viewers: 40 });
    twitch.channels.set('5002', { followers: 90, subscribers: null, viewers: null });
    twitch.channels.set('5003', { followers: 1, subscribers: 1, viewers: 1 });
    tokens.set(revoked.id, 'twitch-access-revoked');

    // Three live hours at 40 and 20 viewers, then offline: 12 samples a quarter hour apart.
    for (let i = 0; i < 16; i++) {
      twitch.channels.get('5001')!.viewers = i < 6 ? 40 : i < 12 ? 20 : null;
      expect((await sweep.runNow()).sampled).toBe(2);
      clock = new Date(clock.getTime() + 15 * 60_000);
    }
    const rows = await api.db.channelStatSample.findMany({ where: { userId: scopeless.id } });
    expect(rows).toHaveLength(16);
    expect(rows[0]).toMatchObject({ followers: 90, subscribers: null, live: false, viewers: null, totalViews: null });
    expect(await api.db.channelStatSample.count({ where: { userId: revoked.id } })).toBe(0);

    const admin = await createTestUser(api);
    await api.db.user.update({ where: { id: admin.id }, data: { userType: 'ADMIN' } });
    const campaign = (
      await call(api, admin, 'POST', '/api/v1/admin/campaigns', {
        name: 'Sampled',
        kind: 'game-key',
        status: 'active',
        game: 'Skyward',
        platforms: ['Steam'],
        requirements: { minFollowers: 100, minSubscribers: 10, minTotalViews: null, minAverageViewers30d: 25, minHoursStreamed30d: 3 },
      })
    ).body as { id: string };
    const judged = (user: TestUser) => call(api, user, 'GET', `/api/v1/partner/campaigns/${campaign.id}`).then((r) => (r.body as CreatorCampaign).eligibility);
    expect(await judged(streamer)).toEqual({
      eligible: true,
      reasons: [],
      stats: {
        platform: 'twitch',
        followers: 250,
        subscribers: 12,
        totalViews: null,
        averageViewers30d: 30,
        hoursStreamed30d: 3,
        sampledSince: '2026-11-25T12:00:00.000Z',
        complete: false,
      },
    });
    expect((await judged(scopeless)).reasons).toEqual([
      'The campaign needs 100 followers; your Twitch channel has 90.',
      "Your Twitch channel's subscribers are not known yet (OnAir samples your channel every few minutes).",
      'The campaign needs 25 average concurrent viewers over 30 days; your Twitch channel has 0.',
      'The campaign needs 3 hours streamed over 30 days; your Twitch channel has 0.',
    ]);

    // 31 days on, the window has moved past those live hours; the figures are complete.
    clock = new Date(clock.getTime() + 31 * 86_400_000);
    await sweep.runNow();
    expect(await judged(streamer)).toMatchObject({ eligible: false, stats: { averageViewers30d: 0, hoursStreamed30d: 0, complete: true } });
  });

  it('ends a round at a 429 without failing the sweep', async () => {
    twitch.rateLimited = true;
    try {
      expect(await sweep.runNow()).toMatchObject({ sampled: 0 });
    } finally {
      twitch.rateLimited = false;
    }
    expect((await sweep.runNow()).sampled).toBeGreaterThanOrEqual(2);
  });

  it("mails the accepted participants once when a campaign's keys become claimable", async () => {
    const admin = await createTestUser(api);
    await api.db.user.update({ where: { id: admin.id }, data: { userType: 'ADMIN' } });
    const opens = new Date(clock.getTime() + 2 * 3_600_000);
    const created = await call(api, admin, 'POST', '/api/v1/admin/campaigns', {
      name: 'Countdown',
      kind: 'game-key',
      status: 'active',
      game: 'Skyward',
      platforms: ['Steam'],
      requiresReview: false,
      keysAvailableAt: opens.toISOString(),
    });
    const campaignId = (created.body as { id: string }).id;
    const participant = await linkedCreator('5004');
    const joined = await call(api, participant, 'POST', `/api/v1/partner/campaigns/${campaignId}/application`, {
      primaryChannel: 'twitch.tv/p',
      agreementAccepted: true,
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    const mails = () => sent.filter((m) => m.subject === 'Your key for Countdown is ready');

    expect((await sweep.runNow()).keyMails).toBe(0);
    clock = new Date(opens.getTime() + 60_000);
    expect((await sweep.runNow()).keyMails).toBe(1);
    expect((await sweep.runNow()).keyMails).toBe(0);
    expect(mails()).toHaveLength(1);
  });
});
