// Statistics are cut into the creator's days (partner spec §2 groupings): an evening stream in Los
// Angeles runs past UTC midnight, and must stay on its own day. The browser sends its IANA zone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Statistics } from '@onair/protocol';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let user: TestUser;
const LA = 'America/Los_Angeles';

beforeAll(async () => {
  api = await startStudioApi({ now: () => new Date('2026-11-09T12:00:00.000Z') });
  user = await createTestUser(api);
  const settings = { enabled: true, paymentEmail: 'pay@example.test', currency: 'usd', minTip: 200, maxTip: 200_000 };
  expect((await call(api, user, 'PUT', `/api/v1/partner/channels/${user.id}/tip-settings`, settings)).status).toBe(200);
  const project = await call(api, user, 'POST', '/api/v1/projects', { name: 'Evening show' });
  const projectId = (project.body as { id: string }).id;
  // Thursday 5 November, 15:00–18:00 in Los Angeles (UTC−8): 23:00 UTC to 02:00 UTC on the 6th.
  await api.db.broadcast.create({
    data: { projectId, state: 'ended', startedAt: new Date('2026-11-05T23:00:00Z'), endedAt: new Date('2026-11-06T02:00:00Z') },
  });
  const tip = (amount: number, iso: string) => ({ channelId: user.id, kind: 'tip', amount, currency: 'usd', createdAt: new Date(iso) });
  await api.db.ledgerEntry.createMany({
    data: [
      tip(1000, '2026-11-05T23:30:00Z'), // 15:30 in Los Angeles, during the stream
      tip(500, '2026-11-06T01:30:00Z'), // 17:30 in Los Angeles, during the stream (the 6th in UTC)
      tip(300, '2026-11-08T05:00:00Z'), // 21:00 on Saturday the 7th in Los Angeles (Sunday in UTC)
      tip(9000, '2026-11-04T07:30:00Z'), // 23:30 on the 3rd in Los Angeles: before the window there
    ],
  });
});
afterAll(async () => {
  await api?.close();
});

async function statistics(query: string): Promise<{ status: number; body: unknown }> {
  return call(api, user, 'GET', `/api/v1/partner/channels/${user.id}/statistics?from=2026-11-04&to=2026-11-07&${query}`);
}

const revenueByDay = (stats: Statistics) => stats.series.map((p) => [p.label, p.revenue]);

describe("statistics in the creator's time zone", () => {
  it('keeps an evening stream on its day, and the window on local midnights', async () => {
    const { status, body } = await statistics(`groupBy=daily&timeZone=${encodeURIComponent(LA)}`);
    expect(status, JSON.stringify(body)).toBe(200);
    const stats = body as Statistics;
    expect(stats).toMatchObject({ from: '2026-11-04', to: '2026-11-07', timeZone: LA });
    expect(revenueByDay(stats)).toEqual([
      ['2026-11-04', 0],
      ['2026-11-05', 1500],
      ['2026-11-06', 0],
      ['2026-11-07', 300],
    ]);
    expect(stats.revenue).toMatchObject({ total: 1800, tipCount: 3 });
    expect(stats.channel.streams).toBe(1);
  });

  it('labels a stream with its local start, and weeks start on local Monday', async () => {
    const byStream = (await statistics(`groupBy=stream&timeZone=${encodeURIComponent(LA)}`)).body as Statistics;
    expect(byStream.series).toEqual([{ label: 'Evening show · 2026-11-05 15:00', revenue: 1500, impressions: 0, clicks: 0 }]);
    const weekly = (await statistics(`groupBy=weekly&timeZone=${encodeURIComponent(LA)}`)).body as Statistics;
    expect(revenueByDay(weekly)).toEqual([['2026-11-02', 1800]]);
  });

  it('cuts UTC days without a time zone (the stream then spans two days)', async () => {
    const stats = (await statistics('groupBy=daily')).body as Statistics;
    expect(stats.timeZone).toBe('UTC');
    expect(revenueByDay(stats)).toEqual([
      ['2026-11-04', 9000],
      ['2026-11-05', 1000],
      ['2026-11-06', 500],
      ['2026-11-07', 0],
    ]);
  });

  it('refuses a time zone that is not an IANA name', async () => {
    for (const zone of ['Mars/Olympus_Mons', '+05:00', 'UTC; DROP TABLE x', 'x'.repeat(65)]) {
      const res = await statistics(`timeZone=${encodeURIComponent(zone)}`);
      expect(res.status, zone).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
  });
});
