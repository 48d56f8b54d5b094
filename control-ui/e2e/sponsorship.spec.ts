import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { completeOnboarding, queryDb, SHOTS } from './support/partner.ts';
import { signIn } from './support/studio.ts';

// Issue 40 item 2: the Sponsorship screen (the creator's tracked link and promo codes) and
// Statistics with a week of sample data — sponsor impressions and clicks, campaign revenue and tips,
// two streams — in each of the four groupings, at 1280×720 and 1440×900.
const DAY = 86_400_000;

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
]) {
  test(`Sponsorship and Statistics with a week of sample data (${viewport.width}×${viewport.height})`, async ({ browser }) => {
    test.setTimeout(60_000);
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const email = `sponsor-${randomUUID()}@example.test`;
    await signIn(context.request, email);
    await completeOnboarding(context.request, `sp${randomUUID().replace(/-/g, '').slice(0, 12)}`);
    const project = await context.request.post('/api/v1/projects', { data: { name: 'Evening show' } });
    expect(project.status()).toBe(201);
    const projectId = ((await project.json()) as { id: string }).id;

    // A campaign the creator takes part in, with a tracked link and a promo code (as accepting and Generate code make them).
    const userId = (await queryDb<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]))[0]!.id;
    const campaignName = `Skyward ${randomUUID().slice(0, 4)}`;
    const campaignId = randomUUID();
    const applicationId = randomUUID();
    const linkId = randomUUID();
    const slug = `e2e${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const code = `SKY${randomUUID()
      .replace(/[^0-9]/g, '')
      .slice(0, 5)}`;
    await queryDb(
      `INSERT INTO campaigns (id, name, kind, status, game, store_url, revenue_share_permille, updated_at) VALUES ($1, $2, 'revenue-share', 'active', 'Skyward', 'https://store.example.com/skyward', 150, now())`,
      [campaignId, campaignName],
    );
    await queryDb(`INSERT INTO campaign_applications (id, campaign_id, creator_id, status, updated_at) VALUES ($1, $2, $3, 'accepted', now())`, [
      applicationId,
      campaignId,
      userId,
    ]);
    // The link's all-time counters, as the hits below would have left them.
    await queryDb('INSERT INTO campaign_links (id, application_id, slug, impressions, clicks) VALUES ($1, $2, $3, 98, 13)', [linkId, applicationId, slug]);
    await queryDb('INSERT INTO promo_codes (id, application_id, code, discount_percent) VALUES ($1, $2, $3, 15)', [randomUUID(), applicationId, code]);

    // A week of sample data ending today (UTC): impressions and clicks each day, two streams, revenue.
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    for (let d = 0; d < 7; d++) {
      const day = today - (6 - d) * DAY;
      for (let i = 0; i < 5 + d * 3; i++)
        await queryDb(`INSERT INTO campaign_link_hits (id, link_id, channel_id, kind, source, created_at) VALUES ($1, $2, $3, 'impression', $4, $5)`, [
          randomUUID(),
          linkId,
          userId,
          i % 2 ? 'overlay' : 'site',
          new Date(day + 12 * 3_600_000 + i * 60_000),
        ]);
      for (let i = 0; i < 1 + (d % 3); i++)
        await queryDb(`INSERT INTO campaign_link_hits (id, link_id, channel_id, kind, source, created_at) VALUES ($1, $2, $3, 'click', 'link', $4)`, [
          randomUUID(),
          linkId,
          userId,
          new Date(day + 13 * 3_600_000 + i * 60_000),
        ]);
      await queryDb(
        `INSERT INTO ledger_entries (id, channel_id, kind, amount, currency, description, created_at) VALUES ($1, $2, 'tip', $3, 'usd', 'Tip', $4)`,
        [randomUUID(), userId, 500 + d * 250, new Date(day + 12 * 3_600_000 + 30 * 60_000)],
      );
    }
    await queryDb(
      `INSERT INTO ledger_entries (id, channel_id, kind, amount, currency, description, campaign_name, created_at) VALUES ($1, $2, 'campaign_revenue', 600, 'usd', 'Revenue share', $3, $4)`,
      [randomUUID(), userId, campaignName, new Date(today - 2 * DAY + 12 * 3_600_000 + 45 * 60_000)],
    );
    for (const d of [2, 5])
      await queryDb(`INSERT INTO broadcasts (id, project_id, state, started_at, ended_at) VALUES ($1, $2, 'ended', $3, $4)`, [
        randomUUID(),
        projectId,
        new Date(today - (6 - d) * DAY + 11 * 3_600_000),
        new Date(today - (6 - d) * DAY + 14 * 3_600_000),
      ]);

    // Sponsorship: the link (copyable) with its all-time counts, and the code.
    await page.goto('/partner/sponsorship');
    await expect(page).toHaveTitle('Sponsorship · OnAir');
    await expect(page.getByRole('heading', { name: 'Sponsorship', level: 1 })).toBeVisible();
    const sponsor = page.getByTestId('sponsorship').filter({ hasText: campaignName });
    await expect(sponsor.getByTestId('sponsorship-link')).toHaveText(new RegExp(`/api/v1/public/campaign-links/${slug}$`));
    await expect(sponsor).toContainText(code);
    await expect(sponsor).toContainText('15% off');
    // A real click through the link adds one to the counts.
    const click = await context.request.get((await sponsor.getByTestId('sponsorship-link').textContent())!, { maxRedirects: 0 });
    expect(click.status()).toBe(302);
    await page.reload();
    await expect(page.getByTestId('sponsorship').filter({ hasText: campaignName }).getByTestId('sponsorship-counts')).toHaveText(
      '98 impressions · 14 clicks (all time)',
    );
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/sponsorship-${viewport.width}.png`, fullPage: true });

    // Statistics: every grouping of the week.
    await page.getByRole('link', { name: 'Statistics' }).click();
    await expect(page).toHaveTitle('Statistics · OnAir');
    const from = new Date(today - 6 * DAY).toISOString().slice(0, 10);
    const to = new Date(today).toISOString().slice(0, 10);
    await page.getByLabel('From').fill(from);
    await page.getByLabel('To').fill(to);
    const sponsorships = page.getByRole('region', { name: 'Sponsorships' });
    // 5+8+…+23 = 98 impressions; clicks 1,2,3,1,2,3,1 = 13, and the real click today.
    await expect(sponsorships.getByTestId('sponsor-impressions')).toHaveText('98');
    await expect(sponsorships.getByTestId('sponsor-clicks')).toHaveText('14');
    await expect(sponsorships.getByRole('row').filter({ hasText: campaignName })).toContainText('$6.00');
    for (const [value, label] of [
      ['daily', 'Daily'],
      ['weekly', 'Weekly'],
      ['monthly', 'Monthly'],
      ['stream', 'By stream'],
    ] as const) {
      await page.getByRole('combobox', { name: 'Group by' }).click();
      await page.getByRole('option', { name: label, exact: true }).click();
      await expect(page.getByRole('img', { name: new RegExp(`Sponsor impressions and clicks, ${label.toLowerCase()}`) })).toBeVisible();
      if (SHOTS) {
        // The partner area scrolls inside its frame: one shot at the top (Channel, Revenue), one at Sponsorships.
        await page.getByRole('heading', { name: 'Statistics', level: 1 }).scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/statistics-${value}-${viewport.width}.png` });
        await sponsorships.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/statistics-${value}-sponsorships-${viewport.width}.png` });
      }
    }

    // The Channel page's events feed: the channel's events from every platform, filtered by type.
    for (const [id, platform, type, minutesAgo] of [
      ['ann', 'twitch', 'follow', 30],
      ['bob', 'youtube', 'sub', 20],
      ['cid', 'twitch', 'follow', 10],
    ] as const)
      await queryDb(
        `INSERT INTO live_events (id, project_id, platform, platform_event_id, type, platform_username, data, platform_created_at) VALUES ($1, $2, $3, $4, $5, $6, '{}', $7)`,
        [randomUUID(), projectId, platform, `${id}-${randomUUID()}`, type, id, new Date(Date.now() - minutesAgo * 60_000)],
      );
    await page.getByRole('link', { name: 'Channel', exact: true }).click();
    await expect(page).toHaveTitle('Channel · OnAir');
    const feed = page.getByRole('list', { name: 'Channel events' });
    await expect(feed.getByTestId('event-row')).toHaveCount(3);
    await page.getByRole('combobox', { name: 'Event type' }).click();
    await page.getByRole('option', { name: 'Follow', exact: true }).click();
    await expect(feed.getByTestId('event-row')).toHaveCount(2);
    await page.getByRole('region', { name: 'Events feed' }).scrollIntoViewIfNeeded();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/channel-events-${viewport.width}.png` });
    await context.close();
  });
}
