// Issue 57: lists that follow changes made elsewhere, and the partner area's notes. The Projects
// page of one tab shows a project made and renamed in another tab (or device) without a reload;
// the partner Dashboard has the channel's events feed; Statistics say which time zone cuts the days;
// Campaigns say which platforms eligibility reads.
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { completeOnboarding, queryDb, SHOTS } from './support/partner.ts';
import { signIn } from './support/studio.ts';

async function shots(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  for (const [width, height] of [
    [1280, 720],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
}

test('Projects: a project made and renamed in another tab appears in this one without a reload', async ({ browser }) => {
  const context = await browser.newContext();
  const email = `lists-${Date.now()}@example.com`;
  await signIn(context.request, email);
  const here = await context.newPage();
  await here.goto('/');
  await expect(here.getByRole('heading', { name: 'Projects' })).toBeVisible();
  // The other tab: the api, as its form would call it.
  const made = await context.request.post('/api/v1/projects', { data: { name: 'Made in the other tab' } });
  expect(made.ok()).toBe(true);
  const { id } = (await made.json()) as { id: string };
  await expect(here.getByText('Made in the other tab')).toBeVisible();
  expect((await context.request.patch(`/api/v1/projects/${id}`, { data: { name: 'Renamed in the other tab' } })).ok()).toBe(true);
  await expect(here.getByText('Renamed in the other tab')).toBeVisible();
  await expect(here.getByText('Made in the other tab')).toHaveCount(0);
  await shots(here, 'projects-live-list');
  await context.close();
});

test('partner: the Dashboard shows the channel’s events feed; Statistics name their time zone; Campaigns name the platforms read', async ({ browser }) => {
  const context = await browser.newContext({ timezoneId: 'America/Los_Angeles', viewport: { width: 1440, height: 900 } });
  const email = `feed-${Date.now()}@example.com`;
  await signIn(context.request, email);
  await completeOnboarding(context.request, `Feed_${Date.now().toString(36)}`);
  const project = await context.request.post('/api/v1/projects', { data: { name: 'Evening show' } });
  const { id: projectId } = (await project.json()) as { id: string };
  for (const [type, who, minutesAgo] of [
    ['follow', 'night_owl', 3],
    ['sub', 'ada_watches', 2],
    ['twitchRaid', 'big_raider', 1],
  ] as const) {
    await queryDb(
      `INSERT INTO live_events (id, project_id, platform, platform_event_id, type, platform_username, data, value, platform_created_at)
       VALUES ($1, $2, 'twitch', $3, $4, $5, '{}', $6::float8, (now() AT TIME ZONE 'UTC') - make_interval(mins => $7::int))`,
      [randomUUID(), projectId, randomUUID(), type, who, type === 'twitchRaid' ? 25 : null, minutesAgo],
    );
  }
  const page = await context.newPage();
  await page.goto('/partner');
  const feed = page.getByRole('region', { name: 'Events feed' });
  await expect(feed.getByText('big_raider')).toBeVisible();
  await expect(feed.getByText('night_owl')).toBeVisible();
  await expect(feed.getByRole('button', { name: 'Pause' })).toBeVisible();
  await shots(page, 'partner-dashboard-feed');

  await page.goto('/partner/statistics');
  await expect(page.getByTestId('statistics-time-zone')).toHaveText('Days run midnight to midnight, Los Angeles time (America/Los_Angeles).');
  await shots(page, 'partner-statistics-time-zone');

  await page.goto('/partner/campaigns');
  await expect(page.getByTestId('campaign-platforms-note')).toContainText('Twitch and YouTube only');
  await shots(page, 'partner-campaigns-platforms');
  await context.close();
});
