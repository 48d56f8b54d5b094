// Game-key and revenue-share campaigns (issue 25) against the real api, PostgreSQL and Redis: the
// admin portal (administrators only, audited), key pools from CSV, eligibility from the channel
// statistics OnAir sampled, apply / accept / claim with the last key raced by two creators at
// once, promo codes, tracked links and expiry; every refusal in words, nothing half-written.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminApplication, CampaignView, CreatorCampaign } from '@onair/protocol';
import { SecretBox } from '@onair/runtime';
import { emailOf, linkTwitch, personalInfo } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let admin: TestUser;
let clock = new Date('2026-11-25T12:00:00.000Z');
const HOUR = 3_600_000;

beforeAll(async () => {
  api = await startStudioApi({ env: { SECRETS_KEY: SecretBox.generateKey() }, now: () => clock });
  admin = await createTestUser(api);
  await api.db.user.update({ where: { id: admin.id }, data: { userType: 'ADMIN' } });
});
afterAll(async () => {
  await api?.close();
});

const gameKeyCampaign = (overrides: Record<string, unknown> = {}) => ({
  name: `Skyward ${randomUUID().slice(0, 6)}`,
  kind: 'game-key',
  status: 'active',
  game: 'Skyward',
  genre: 'Platformer',
  developer: 'Cloud Nine',
  publisher: 'Up Games',
  businessModel: 'Premium',
  platforms: ['Steam'],
  requirements: { minFollowers: 100, minSubscribers: null, minTotalViews: null, minAverageViewers30d: 5, minHoursStreamed30d: 2 },
  promoDiscount: { kind: 'range', minPercent: 5, maxPercent: 20 },
  storeUrl: 'https://store.example.com/skyward',
  resources: [{ title: 'Press kit', url: 'https://example.com/kit.zip' }],
  ...overrides,
});

async function createCampaign(body: Record<string, unknown>): Promise<CampaignView> {
  const res = await call(api, admin, 'POST', '/api/v1/admin/campaigns', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as CampaignView;
}

/** A creator with a linked Twitch account whose sampled channel has `followers` and 3 live hours at `viewers`. */
async function creatorWithChannel(followers: number, viewers: number, profile: Record<string, unknown> = {}): Promise<TestUser> {
  const user = await createTestUser(api);
  const onboarded = await call(
    api,
    user,
    'POST',
    '/api/v1/partner/account/onboarding',
    personalInfo(`c${user.id.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}`, profile),
  );
  expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(200);
  await linkTwitch(api, user, `tw_${user.id.slice(0, 10)}`);
  const samples = Array.from({ length: 12 }, (_, i) => ({
    userId: user.id,
    platform: 'twitch',
    sampledAt: new Date(clock.getTime() - (i + 1) * 15 * 60_000),
    followers,
    subscribers: 3,
    totalViews: null,
    live: true,
    viewers,
    minutes: 15,
  }));
  await api.db.channelStatSample.createMany({ data: samples });
  return user;
}

const apply = (user: TestUser, campaignId: string) =>
  call(api, user, 'POST', `/api/v1/partner/campaigns/${campaignId}/application`, {
    primaryChannel: 'twitch.tv/me',
    keyPlatform: 'Steam',
    message: 'I play platformers.',
    agreementAccepted: true,
  });

async function acceptAll(campaignId: string): Promise<void> {
  const list = (await call(api, admin, 'GET', `/api/v1/admin/campaigns/${campaignId}/applications`)).body as { applications: AdminApplication[] };
  for (const a of list.applications.filter((x) => x.status === 'applied')) {
    expect((await call(api, admin, 'POST', `/api/v1/admin/campaigns/${campaignId}/applications/${a.id}`, { action: 'accept' })).status).toBe(200);
  }
}

async function inbox(to: string): Promise<{ subject: string; text: string }[]> {
  const res = await fetch(`${api.url}/api/v1/dev/inbox?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as { messages: { subject: string; text: string }[] }).messages;
}

describe('the admin portal', () => {
  it('is for administrators only, and every change is audited', async () => {
    const creator = await createTestUser(api);
    expect((await call(api, creator, 'GET', '/api/v1/admin/campaigns')).status).toBe(403);
    expect((await call(api, creator, 'POST', '/api/v1/admin/campaigns', gameKeyCampaign())).status).toBe(403);
    expect((await call(api, null, 'GET', '/api/v1/admin/campaigns')).status).toBe(401);

    const campaign = await createCampaign(gameKeyCampaign());
    expect(campaign).toMatchObject({
      kind: 'game-key',
      status: 'active',
      keys: { total: 0, available: 0 },
      promoDiscount: { kind: 'range', minPercent: 5, maxPercent: 20 },
    });
    const updated = await call(api, admin, 'PUT', `/api/v1/admin/campaigns/${campaign.id}`, gameKeyCampaign({ name: campaign.name, genre: 'Puzzle' }));
    expect(updated).toMatchObject({ status: 200, body: { genre: 'Puzzle' } });
    const audit = await api.db.adminAuditEntry.findMany({ where: { targetId: campaign.id }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => [a.action, a.actorId])).toEqual([
      ['campaign-created', admin.id],
      ['campaign-updated', admin.id],
    ]);
    expect(audit[1]!.detail).toMatchObject({ changed: ['genre'] });
  });

  it('refuses a campaign that contradicts itself, with words', async () => {
    const bad = async (overrides: Record<string, unknown>) =>
      (await call(api, admin, 'POST', '/api/v1/admin/campaigns', gameKeyCampaign(overrides))).body as { error: { code: string; message: string } };
    expect((await bad({ kind: 'revenue-share', revenueSharePercent: null })).error.message).toContain('A revenue-share campaign needs its percent');
    expect((await bad({ promoDiscount: { kind: 'range', minPercent: 20, maxPercent: 10 } })).error.message).toContain(
      'The maximum discount must be above the minimum',
    );
    expect((await bad({ platforms: [] })).error.message).toContain('Name the platforms the keys are for');
    expect((await bad({ keysAvailableAt: '2026-12-10T00:00:00Z', expiresAt: '2026-12-01T00:00:00Z' })).error.message).toContain(
      'Keys must become available before the campaign expires',
    );
    expect((await bad({ name: '' })).error.message).toContain('This field is required');
  });

  it('imports a key pool from CSV all or nothing: duplicates, formula cells and unknown platforms refused by line', async () => {
    const campaign = await createCampaign(gameKeyCampaign({ platforms: ['Steam', 'Xbox'] }));
    const importCsv = (csv: string) => call(api, admin, 'POST', `/api/v1/admin/campaigns/${campaign.id}/keys`, { csv });

    const duplicate = await importCsv('key,platform\nAAAA-1111,Steam\nBBBB-2222,Xbox\nAAAA-1111,Steam\n');
    expect(duplicate.status).toBe(400);
    expect((duplicate.body as { error: { message: string } }).error.message).toContain('line 4: the same key as line 2');
    const formula = await importCsv('key,platform\n=HYPERLINK("http://evil.example"),Steam\nCCCC-3333,Steam\n');
    expect((formula.body as { error: { message: string } }).error.message).toContain('line 2: a cell starts with = + - @');
    const platform = await importCsv('key,platform\nDDDD-4444,Nintendo Switch\n');
    expect((platform.body as { error: { message: string } }).error.message).toContain("the platform must be one of the campaign's (Steam, Xbox)");
    expect((await importCsv('code\nAAAA\n')).status).toBe(400);
    expect(await api.db.campaignKey.count({ where: { campaignId: campaign.id } })).toBe(0);

    const ok = await importCsv('\ufeffkey,platform\r\nAAAA-1111,Steam\r\nBBBB-2222,Xbox\r\n');
    expect(ok).toMatchObject({ status: 200, body: { imported: 2, keys: { total: 2, available: 2 } } });
    const again = await importCsv('key,platform\nEEEE-5555,Steam\nAAAA-1111,Steam\n');
    expect((again.body as { error: { message: string } }).error.message).toContain("already in this campaign's pool (lines 3)");
    expect(await api.db.campaignKey.count({ where: { campaignId: campaign.id } })).toBe(2);
    // Sealed at rest: the key's text is nowhere in its row.
    const rows = await api.db.campaignKey.findMany({ where: { campaignId: campaign.id } });
    expect(JSON.stringify(rows)).not.toContain('AAAA-1111');
  });
});

describe('creators', () => {
  it('are told why they are not eligible: no platform linked, too few followers, too young for revenue share', async () => {
    const campaign = await createCampaign(gameKeyCampaign());
    const unlinked = await createTestUser(api);
    const refused = await apply(unlinked, campaign.id);
    expect(refused).toMatchObject({ status: 403, body: { error: { message: expect.stringContaining('No platform linked or requirements not met') } } });

    const small = await creatorWithChannel(40, 9);
    const detail = (await call(api, small, 'GET', `/api/v1/partner/campaigns/${campaign.id}`)).body as CreatorCampaign;
    expect(detail.eligibility).toMatchObject({
      eligible: false,
      reasons: ['The campaign needs 100 followers; your Twitch channel has 40.'],
      stats: { followers: 40, averageViewers30d: 9, hoursStreamed30d: 3, complete: false },
    });
    expect((await apply(small, campaign.id)).status).toBe(403);
    expect(await api.db.campaignApplication.count({ where: { campaignId: campaign.id } })).toBe(0);

    const revenue = await createCampaign(gameKeyCampaign({ kind: 'revenue-share', revenueSharePercent: 12.5, platforms: [], requirements: undefined }));
    expect(revenue.revenueSharePercent).toBe(12.5);
    const young = await creatorWithChannel(500, 20, { birthdate: '2010-01-01' });
    const tooYoung = await call(api, young, 'POST', `/api/v1/partner/campaigns/${revenue.id}/application`, {
      primaryChannel: 'twitch.tv/me',
      agreementAccepted: true,
    });
    expect(tooYoung).toMatchObject({ status: 403, body: { error: { message: 'Revenue share needs age 18 or older.' } } });
    const adult = await creatorWithChannel(500, 20);
    expect(
      (await call(api, adult, 'POST', `/api/v1/partner/campaigns/${revenue.id}/application`, { primaryChannel: 'twitch.tv/me', agreementAccepted: true }))
        .status,
    ).toBe(201);
  });

  it('apply once, are accepted, wait out the key countdown and claim; the last key goes to one of two creators claiming at once', async () => {
    const campaign = await createCampaign(gameKeyCampaign({ keysAvailableAt: new Date(clock.getTime() + 50 * HOUR).toISOString() }));
    expect(
      (await call(api, admin, 'POST', `/api/v1/admin/campaigns/${campaign.id}/keys`, { csv: 'key,platform\nKEY-0001,Steam\nKEY-0002,Steam\n' })).status,
    ).toBe(200);
    const [first, second, third] = [await creatorWithChannel(150, 8), await creatorWithChannel(200, 12), await creatorWithChannel(300, 6)];

    // The agreement dialog must be accepted; an application is made once.
    expect(
      (await call(api, first!, 'POST', `/api/v1/partner/campaigns/${campaign.id}/application`, { primaryChannel: 'x', agreementAccepted: false })).status,
    ).toBe(400);
    const applied = await apply(first!, campaign.id);
    expect(applied).toMatchObject({ status: 201, body: { application: { status: 'applied', statusLabel: 'In review' } } });
    expect(await apply(first!, campaign.id)).toMatchObject({ status: 409, body: { error: { message: 'You already applied to this campaign (In review).' } } });
    // In review: nothing to claim yet.
    expect((await call(api, first!, 'POST', `/api/v1/partner/campaigns/${campaign.id}/application/claim`, { keyPlatform: 'Steam' })).status).toBe(409);
    for (const c of [second!, third!]) expect((await apply(c, campaign.id)).status).toBe(201);
    await acceptAll(campaign.id);
    expect(
      (await inbox(emailOf(first!))).some(
        (m) => m.subject === `You are in: ${campaign.name}` && m.text.includes('We will write again when the keys can be claimed.'),
      ),
    ).toBe(true);
    // Accepted by an administrator: the tracked link exists from then on.
    expect(((await call(api, first!, 'GET', `/api/v1/partner/campaigns/${campaign.id}`)).body as CreatorCampaign).application!.link).toMatchObject({
      clicks: 0,
      impressions: 0,
    });

    const early = await call(api, first!, 'POST', `/api/v1/partner/campaigns/${campaign.id}/application/claim`, { keyPlatform: 'Steam' });
    expect(early).toMatchObject({ status: 409, body: { error: { message: 'Keys can be claimed in 2 days.' } } });
    clock = new Date(clock.getTime() + 49.5 * HOUR);
    expect((await call(api, first!, 'POST', `/api/v1/partner/campaigns/${campaign.id}/application/claim`, { keyPlatform: 'Steam' })).body).toMatchObject({
      error: { message: 'Keys can be claimed in 30 minutes.' },
    });
    clock = new Date(clock.getTime() + HOUR);

    const claimed = await call(api, first!, 'POST', `/api/v1/partner/campaigns/${campaign.id}/application/claim`, { keyPlatform: 'Steam' });
    expect(claimed).toMatchObject({
      status: 200,
      body: { application: { status: 'claimed', gameKey: { platform: 'Steam', key: expect.stringMatching(/^KEY-000[12]$/) } } },
    });
    expect((await call(api, first!, 'POST', `/api/v1/partner/campaigns/${campaign.id}/application/claim`, { keyPlatform: 'Steam' })).body).toMatchObject({
      error: { message: 'You already claimed your key for this campaign.' },
    });

    // One key left, two creators at the same moment: one key, one clear refusal.
    const race = await Promise.all(
      [second!, third!].map((c) => call(api, c, 'POST', `/api/v1/partner/campaigns/${campaign.id}/application/claim`, { keyPlatform: 'Steam' })),
    );
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(race.find((r) => r.status === 409)!.body).toMatchObject({ error: { message: 'No Steam key is left in this campaign. Every key was claimed.' } });
    const loser = race[0]!.status === 409 ? second! : third!;
    expect(((await call(api, loser, 'GET', `/api/v1/partner/campaigns/${campaign.id}`)).body as CreatorCampaign).application).toMatchObject({
      status: 'accepted',
      gameKey: null,
    });
    expect(await api.db.campaignKey.count({ where: { campaignId: campaign.id, applicationId: null } })).toBe(0);
    // The administrator sees who claimed, never the keys.
    const admins = (await call(api, admin, 'GET', `/api/v1/admin/campaigns/${campaign.id}/applications`)).body as { applications: AdminApplication[] };
    expect(admins.applications.filter((a) => a.keyClaimed)).toHaveLength(2);
    expect(JSON.stringify(admins)).not.toContain('KEY-000');
  });

  it('make promo codes of A–Z and digits within the discount range, and tracked links that count clicks and impressions', async () => {
    const campaign = await createCampaign(gameKeyCampaign({ requiresReview: false }));
    const creator = await creatorWithChannel(1000, 30);
    const joined = await apply(creator, campaign.id);
    expect(joined).toMatchObject({ status: 201, body: { application: { status: 'accepted', statusLabel: 'Active' } } });
    const promo = (body: Record<string, unknown>) => call(api, creator, 'POST', `/api/v1/partner/campaigns/${campaign.id}/promo-codes`, body);

    expect(((await promo({ code: 'ada15', discountPercent: 10 })).body as { error: { message: string } }).error.message).toContain(
      'Use 4 to 20 capital letters A–Z and digits',
    );
    expect(((await promo({ code: 'ADA-15!', discountPercent: 10 })).body as { error: { message: string } }).error.message).toContain(
      'Use 4 to 20 capital letters A–Z and digits',
    );
    expect((await promo({ code: 'ADA15', discountPercent: 25 })).body).toMatchObject({ error: { message: 'The discount must lie between 5% and 20%.' } });
    expect((await promo({ code: 'ADA15', discountPercent: 15 })).status).toBe(201);
    const generated = await promo({ discountPercent: 5 });
    const codes = (generated.body as CreatorCampaign).application!.promoCodes;
    expect(codes.map((c) => c.code)).toEqual(['ADA15', expect.stringMatching(/^[A-Z0-9]{8}$/)]);
    const other = await creatorWithChannel(1000, 30);
    await apply(other, campaign.id);
    expect((await call(api, other, 'POST', `/api/v1/partner/campaigns/${campaign.id}/promo-codes`, { code: 'ADA15', discountPercent: 10 })).body).toMatchObject(
      { error: { message: 'The promo code ADA15 is taken. Choose another.' } },
    );

    const link = (generated.body as CreatorCampaign).application!.link!;
    expect(link).toMatchObject({ clicks: 0, impressions: 0 });
    const click = await fetch(link.url, { redirect: 'manual' });
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe('https://store.example.com/skyward');
    expect((await fetch(`${link.url}/impression`)).status).toBe(204);
    expect((await fetch(`${link.url}/impression`)).status).toBe(204);
    expect((await fetch(`${api.url}/api/v1/public/campaign-links/nosuchlink00`, { redirect: 'manual' })).status).toBe(404);
    const after = ((await call(api, creator, 'GET', `/api/v1/partner/campaigns/${campaign.id}`)).body as CreatorCampaign).application!.link;
    expect(after).toMatchObject({ clicks: 1, impressions: 2 });
  });

  it('answer invitations, withdraw, and find a campaign closed after it expires', async () => {
    const campaign = await createCampaign(gameKeyCampaign({ requirements: undefined, expiresAt: new Date(clock.getTime() + 24 * HOUR).toISOString() }));
    expect((await call(api, admin, 'POST', `/api/v1/admin/campaigns/${campaign.id}/keys`, { csv: 'key\nKEY-9001\n' })).status).toBe(200);
    const invited = await creatorWithChannel(10, 1);
    const decliner = await creatorWithChannel(10, 1);
    for (const c of [invited, decliner]) {
      expect((await call(api, admin, 'POST', `/api/v1/admin/campaigns/${campaign.id}/invitations`, { email: emailOf(c) })).status).toBe(201);
    }
    expect((await inbox(emailOf(invited))).some((m) => m.subject === `You are invited to ${campaign.name}`)).toBe(true);
    const mine = (await call(api, invited, 'GET', '/api/v1/partner/campaigns?list=mine')).body as { campaigns: CreatorCampaign[] };
    expect(mine.campaigns.map((c) => [c.campaign.id, c.application?.statusLabel])).toEqual([[campaign.id, 'Awaits your response']]);
    expect(await apply(invited, campaign.id)).toMatchObject({
      status: 409,
      body: { error: { message: 'You are invited to this campaign: accept the invitation instead.' } },
    });
    expect((await call(api, decliner, 'POST', `/api/v1/partner/campaigns/${campaign.id}/application/answer`, { accept: false })).body).toMatchObject({
      application: { statusLabel: 'Declined' },
    });
    expect((await call(api, invited, 'POST', `/api/v1/partner/campaigns/${campaign.id}/application/answer`, { accept: true })).body).toMatchObject({
      application: { statusLabel: 'Active' },
    });

    const leaver = await creatorWithChannel(10, 1);
    await apply(leaver, campaign.id);
    expect((await call(api, leaver, 'DELETE', `/api/v1/partner/campaigns/${campaign.id}/application`)).body).toMatchObject({ application: null });

    clock = new Date(clock.getTime() + 25 * HOUR);
    const late = await call(api, invited, 'POST', `/api/v1/partner/campaigns/${campaign.id}/application/claim`, { keyPlatform: 'Steam' });
    expect(late).toMatchObject({ status: 409, body: { error: { message: 'This campaign has expired: its keys can no longer be claimed.' } } });
    expect(((await call(api, invited, 'GET', `/api/v1/partner/campaigns/${campaign.id}`)).body as CreatorCampaign).application).toMatchObject({
      status: 'expired',
      statusLabel: 'Expired',
    });
    expect(await apply(await creatorWithChannel(10, 1), campaign.id)).toMatchObject({
      status: 409,
      body: { error: { message: 'This campaign has expired.' } },
    });
    const discover = (await call(api, invited, 'GET', '/api/v1/partner/campaigns')).body as { campaigns: CreatorCampaign[] };
    expect(discover.campaigns.map((c) => c.campaign.id)).not.toContain(campaign.id);
    expect(await api.db.campaignKey.count({ where: { campaignId: campaign.id, applicationId: null } })).toBe(1);
  });

  it("earn their revenue share once per reported sale, in the ledger under the campaign's name", async () => {
    const campaign = await createCampaign(
      gameKeyCampaign({
        kind: 'revenue-share',
        revenueSharePercent: 12.5,
        platforms: [],
        requirements: undefined,
        requiresReview: false,
        promoDiscount: { kind: 'fixed', percent: 10 },
      }),
    );
    const creator = await creatorWithChannel(10, 1);
    expect(
      (await call(api, creator, 'POST', `/api/v1/partner/campaigns/${campaign.id}/application`, { primaryChannel: 'twitch.tv/me', agreementAccepted: true }))
        .status,
    ).toBe(201);
    expect((await call(api, creator, 'POST', `/api/v1/partner/campaigns/${campaign.id}/promo-codes`, { code: 'REVSHARE10', discountPercent: 10 })).status).toBe(
      201,
    );
    const report = (csv: string) => call(api, admin, 'POST', `/api/v1/admin/campaigns/${campaign.id}/sales`, { csv });

    // Refused whole, with lines: a code of no participant, a formula cell, a sale id twice, a fraction of a cent.
    const bad = await report('sale_id,promo_code,amount_minor,currency\ns-1,REVSHARE10,1999,usd\ns-2,NOBODY99,1999,usd\n');
    expect(bad).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('line 3: NOBODY99 is not a promo code of this campaign') } } });
    const formula = await report('sale_id,promo_code,amount_minor,currency\ns-1,REVSHARE10,=1+1,usd\ns-1,REVSHARE10,19.99,usd\n');
    expect((formula.body as { error: { message: string } }).error.message).toMatch(
      /line 2: a cell starts with = .*line 3: the amount is a whole number of cents/,
    );
    expect((await call(api, creator, 'GET', `/api/v1/partner/channels/${creator.id}/transactions`)).body).toMatchObject({ total: 0 });

    const first = await report('sale_id,promo_code,amount_minor,currency\ns-1,REVSHARE10,2000,usd\ns-2,REVSHARE10,1999,usd\n');
    expect(first).toMatchObject({ status: 200, body: { credited: 2, alreadyCredited: 0, shares: [{ currency: 'usd', amount: 250 + 249 }] } });
    // The publisher sends the same report again with one new sale: only the new one is credited.
    const again = await report('sale_id,promo_code,amount_minor,currency\ns-1,REVSHARE10,2000,usd\ns-2,REVSHARE10,1999,usd\ns-3,REVSHARE10,800,usd\n');
    expect(again).toMatchObject({ status: 200, body: { credited: 1, alreadyCredited: 2, shares: [{ currency: 'usd', amount: 100 }] } });
    const history = (await call(api, creator, 'GET', `/api/v1/partner/channels/${creator.id}/transactions?campaign=${encodeURIComponent(campaign.name)}`))
      .body as { total: number; credits: { amount: number; campaignName: string | null }[] };
    expect(history.total).toBe(3);
    expect(history.credits.map((c) => c.amount).sort((a, b) => a - b)).toEqual([100, 249, 250]);
    expect(history.credits.every((c) => c.campaignName === campaign.name)).toBe(true);
    expect(await api.db.adminAuditEntry.count({ where: { targetId: campaign.id, action: 'campaign-sales-recorded' } })).toBe(2);
    // A game-key campaign has no sales to credit.
    const keys = await createCampaign(gameKeyCampaign());
    expect(
      (
        await call(api, admin, 'POST', `/api/v1/admin/campaigns/${keys.id}/sales`, {
          csv: 'sale_id,promo_code,amount_minor,currency\ns-1,REVSHARE10,2000,usd\n',
        })
      ).body,
    ).toMatchObject({ error: { message: 'Only a revenue-share campaign credits sales.' } });
  });

  it('never see drafts, and an unknown campaign is "Campaign not found"', async () => {
    const draft = await createCampaign(gameKeyCampaign({ status: 'draft' }));
    const creator = await creatorWithChannel(1000, 30);
    expect((await call(api, creator, 'GET', `/api/v1/partner/campaigns/${draft.id}`)).body).toMatchObject({
      error: { code: 'NOT_FOUND', message: 'Campaign not found.' },
    });
    expect((await call(api, creator, 'GET', `/api/v1/partner/campaigns/${randomUUID()}`)).status).toBe(404);
    expect((await call(api, creator, 'GET', '/api/v1/partner/campaigns/not-a-uuid')).status).toBe(400);
    const discover = (await call(api, creator, 'GET', '/api/v1/partner/campaigns')).body as { campaigns: CreatorCampaign[] };
    expect(discover.campaigns.map((c) => c.campaign.id)).not.toContain(draft.id);
    // The marketing page, signed out: running campaigns only, without requirements or keys.
    const running = await createCampaign(gameKeyCampaign());
    const open = (await call(api, null, 'GET', '/api/v1/public/campaigns')) as { status: number; body: { campaigns: Record<string, unknown>[] } };
    expect(open.status).toBe(200);
    expect(open.body.campaigns.map((c) => c.id)).toContain(running.id);
    expect(open.body.campaigns.map((c) => c.id)).not.toContain(draft.id);
    expect(Object.keys(open.body.campaigns[0]!).sort()).toEqual([
      'expiresAt',
      'game',
      'genre',
      'id',
      'kind',
      'name',
      'platforms',
      'publisher',
      'revenueSharePercent',
      'summary',
    ]);
  });
});
