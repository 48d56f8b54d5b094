// Statistics' Sponsorships and its four groupings (issue 40 item 2) on a known data set, against the
// real api and PostgreSQL: two weeks that cross a month end, two streams, tips, a refund, campaign
// revenue, and sponsor impressions (creator site, overlay) and clicks through the tracked link —
// some counted through the public pixel and link as a viewer would, at the test's clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Statistics } from '@onair/protocol';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let clock = new Date('2026-11-09T12:00:00.000Z');
let user: TestUser;
let campaignName: string;
let campaignId: string;
const at = (iso: string) => new Date(`${iso}:00.000Z`);

beforeAll(async () => {
  api = await startStudioApi({ now: () => clock });
  user = await createTestUser(api);
  const settings = { enabled: true, paymentEmail: 'pay@example.test', currency: 'usd', minTip: 200, maxTip: 200_000 };
  expect((await call(api, user, 'PUT', `/api/v1/partner/channels/${user.id}/tip-settings`, settings)).status).toBe(200);
  const project = await call(api, user, 'POST', '/api/v1/projects', { name: 'Main show' });
  const projectId = (project.body as { id: string }).id;
  const campaign = await api.db.campaign.create({
    data: { name: 'Skyward', kind: 'revenue-share', game: 'Skyward', status: 'active', storeUrl: 'https://store.example.com/s' },
  });
  campaignName = campaign.name;
  campaignId = campaign.id;
  const application = await api.db.campaignApplication.create({ data: { campaignId: campaign.id, creatorId: user.id, status: 'accepted' } });
  const link = await api.db.campaignLink.create({ data: { applicationId: application.id, slug: 'known-data-set-1' } });

  // Stream A on Tuesday 27 October, stream B on Thursday 5 November.
  await api.db.broadcast.createMany({
    data: [
      { projectId, state: 'ended', startedAt: at('2026-10-27T09:00'), endedAt: at('2026-10-27T11:00') },
      { projectId, state: 'ended', startedAt: at('2026-11-05T19:00'), endedAt: at('2026-11-05T21:00') },
    ],
  });
  const hit = (kind: string, source: string, iso: string) => ({ linkId: link.id, channelId: user.id, kind, source, createdAt: at(iso) });
  await api.db.campaignLinkHit.createMany({
    data: [
      hit('impression', 'site', '2026-10-27T10:00'),
      hit('impression', 'site', '2026-10-27T10:05'),
      hit('impression', 'overlay', '2026-10-27T10:10'),
      hit('click', 'link', '2026-10-27T10:15'),
      // Either side of the month's end (UTC).
      hit('impression', 'overlay', '2026-10-31T23:30'),
      hit('impression', 'overlay', '2026-10-31T23:59'),
      hit('click', 'link', '2026-11-01T00:30'),
      // Outside the window.
      hit('impression', 'site', '2026-10-25T23:59'),
      hit('click', 'link', '2026-11-09T00:00'),
    ],
  });
  const entry = (kind: string, amount: number, iso: string, currency = 'usd', campaign: string | null = null) => ({
    channelId: user.id,
    kind,
    amount,
    currency,
    campaignName: campaign,
    createdAt: at(iso),
  });
  await api.db.ledgerEntry.createMany({
    data: [
      entry('tip', 1000, '2026-10-27T10:30'),
      entry('tip_refund', -200, '2026-11-01T01:00'),
      entry('campaign_revenue', 500, '2026-11-05T20:30', 'usd', campaign.name),
      // Another currency and a day outside the window: not counted.
      entry('tip', 700, '2026-10-28T12:00', 'eur'),
      entry('tip', 9000, '2026-10-20T12:00'),
    ],
  });

  // A viewer during stream B: the overlay shows the sponsor (its pixel), then clicks the tracked link.
  clock = at('2026-11-05T20:00');
  expect((await fetch(`${api.url}/api/v1/public/campaign-links/known-data-set-1/impression?source=overlay`)).status).toBe(204);
  const click = await fetch(`${api.url}/api/v1/public/campaign-links/known-data-set-1`, { redirect: 'manual' });
  expect(click.status).toBe(302);
  expect(click.headers.get('location')).toBe('https://store.example.com/s');
  clock = new Date('2026-11-09T12:00:00.000Z');
});
afterAll(async () => {
  await api?.close();
});

async function statistics(groupBy: string): Promise<Statistics> {
  const res = await call(api, user, 'GET', `/api/v1/partner/channels/${user.id}/statistics?from=2026-10-26&to=2026-11-08&groupBy=${groupBy}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Statistics;
}

const point = (label: string, revenue: number, impressions: number, clicks: number) => ({ label, revenue, impressions, clicks });

describe('Statistics groupings on a known data set', () => {
  it('daily: one point per UTC day of the window', async () => {
    const stats = await statistics('daily');
    expect(stats.series).toHaveLength(14);
    expect(stats.series[0]!.label).toBe('2026-10-26');
    expect(stats.series.at(-1)!.label).toBe('2026-11-08');
    expect(stats.series.filter((p) => p.revenue !== 0 || p.impressions !== 0 || p.clicks !== 0)).toEqual([
      point('2026-10-27', 1000, 3, 1),
      point('2026-10-31', 0, 2, 0),
      point('2026-11-01', -200, 0, 1),
      point('2026-11-05', 500, 1, 1),
    ]);
  });

  it('weekly: weeks from Monday (Sunday 1 November belongs to the week of 26 October)', async () => {
    expect((await statistics('weekly')).series).toEqual([point('2026-10-26', 800, 5, 2), point('2026-11-02', 500, 1, 1)]);
  });

  it('monthly: the month end is UTC midnight', async () => {
    expect((await statistics('monthly')).series).toEqual([point('2026-10-01', 1000, 5, 1), point('2026-11-01', 300, 1, 2)]);
  });

  it('by stream: what happened while each stream was on', async () => {
    expect((await statistics('stream')).series).toEqual([point('Main show · 2026-10-27 09:00', 1000, 3, 1), point('Main show · 2026-11-05 19:00', 500, 1, 1)]);
  });

  it('fills the Channel, Revenue and Sponsorships sections for the window', async () => {
    const stats = await statistics('daily');
    expect(stats.channel).toEqual({ streams: 2, hoursStreamed: 4, events: 0 });
    expect(stats.revenue).toMatchObject({ currency: 'usd', total: 800, tips: 1000, tipCount: 1, tipPageViews: 0, tipCheckouts: 0 });
    expect(stats.sponsorships).toEqual({
      campaigns: 1,
      revenue: 500,
      linkImpressions: 6,
      linkClicks: 3,
      links: [{ campaignId, campaignName, impressions: 6, clicks: 3, revenue: 500 }],
    });
    const sources = await api.db.campaignLinkHit.groupBy({ by: ['source'], where: { channelId: user.id }, _count: { _all: true }, orderBy: { source: 'asc' } });
    expect(sources.map((s) => [s.source, s._count._all])).toEqual([
      ['link', 4],
      ['overlay', 4],
      ['site', 3],
    ]);
  });

  it('refuses an unknown impression source', async () => {
    expect((await fetch(`${api.url}/api/v1/public/campaign-links/known-data-set-1/impression?source=email`)).status).toBe(400);
  });
});
