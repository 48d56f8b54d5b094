import { randomUUID } from 'node:crypto';
import { type Page } from '@playwright/test';
import pg from 'pg';
import { expect, test } from './support/fixtures.ts';
import { CHROMIUM_ARGS } from './playwright.config.ts';
import { openNewStudio, publicOrigin, signIn } from './support/studio.ts';

test.use({ launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS } });

// Connector state in the studio (issue 39 item 5c): a Twitch destination whose access was revoked
// at Twitch. The api forgets tokens Twitch refuses and keeps the account (api test events-linked
// drives that through the EventSub double's revocation); this flow starts from the row as that
// leaves it, written to the database: the studio says 'Needs sign-in' on the destination row and
// in the chat, with what stopped and Reconnect, which is the Connect flow — the popup and the
// double's consent page — after which the warnings are gone.

const SHOTS = process.env.ONAIR_E2E_SHOTS;

async function sql(query: string, values: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.ONAIR_E2E_DATABASE_URL });
  await client.connect();
  try {
    await client.query(query, values);
  } finally {
    await client.end();
  }
}

/** Screenshots at both studio sizes of issue 39 (1280×720 and 1440×900), when ONAIR_E2E_SHOTS names a folder. */
async function shots(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  const before = page.viewportSize();
  for (const size of [
    { width: 1280, height: 720 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${SHOTS}/connector-state-${name}-${size.width}.png` });
  }
  if (before) await page.setViewportSize(before);
}

test('a revoked Twitch account: Needs sign-in on the destination row and in the chat, Reconnect through the Connect flow', async ({ page, context }) => {
  test.setTimeout(120_000);
  // The popup ends on the api's public address: the whole flow stays on that origin, so the session cookie is the callback's.
  const origin = publicOrigin();
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(context.request, `revoked-${randomUUID()}@example.test`, origin);
  const projectId = await openNewStudio(page, 'Revoked', origin);
  const destinationId = randomUUID();
  const channel = `revoked${randomUUID().slice(0, 6)}`;
  // Connected once (its account and name are known), its tokens since refused and forgotten.
  await sql(
    `INSERT INTO destinations (id, project_id, type, provider_id, name, username, platform_account_id, settings, updated_at)
     VALUES ($1, $2, 'Twitch', 'twitchtv', $3, $3, '90210', '{"title":"Revoked show"}', now())`,
    [destinationId, projectId, channel],
  );
  await page.reload();

  const row = page.getByRole('region', { name: 'Destinations' }).locator(`[data-destination-id="${destinationId}"]`);
  const warning = row.getByTestId('destination-needs-sign-in');
  await expect(warning).toContainText('Needs sign-in');
  await expect(warning).toContainText("OnAir's access to your Twitch account was revoked or expired.");
  await expect(warning).toContainText('paused until you reconnect');
  await expect(row.getByRole('button', { name: 'Authenticate' })).toHaveCount(0);

  // The chat says so too, live or not, with the same way out.
  const chat = page.getByRole('region', { name: 'Platform chat' });
  await expect(chat.getByTestId(`chat-filter-${destinationId}`)).toHaveAttribute('data-state', 'needsSignIn');
  const notice = chat.getByRole('list', { name: 'Chat status' }).getByRole('listitem');
  await expect(notice).toContainText(`${channel}: your Twitch account needs sign-in to read its chat.`);
  await expect(notice.getByRole('button', { name: 'Reconnect' })).toBeVisible();
  await shots(page, 'needs-sign-in');
  // The events feed says its Twitch events are paused, with the same way out.
  await page.getByRole('tab', { name: 'Event List' }).click();
  const sources = page.getByRole('region', { name: 'Events feed' }).getByRole('list', { name: 'Event sources' });
  await expect(sources).toContainText(`${channel}: your Twitch account needs sign-in; its events are paused.`);
  await expect(sources.getByRole('button', { name: 'Reconnect' })).toBeVisible();
  await shots(page, 'events-needs-sign-in');

  // Reconnect is the Connect flow: the popup, the double's consent page, back authenticated.
  const [popup] = await Promise.all([context.waitForEvent('page'), warning.getByRole('button', { name: 'Reconnect' }).click()]);
  await expect(popup.getByRole('heading', { name: 'Connect OnAir to Twitch?' })).toBeVisible();
  await popup.getByLabel('Test account name').fill(channel);
  const closed = popup.waitForEvent('close', { timeout: 30_000 });
  await popup.getByRole('button', { name: 'Authorize' }).click();
  await closed;
  await expect(row.getByRole('alert')).toHaveCount(0);
  await expect(sources).toHaveCount(0);
  await page.getByRole('tab', { name: /Platform Chat/ }).click();
  await expect(chat.getByTestId(`chat-filter-${destinationId}`)).not.toHaveAttribute('data-state', 'needsSignIn');
  await expect(chat.getByRole('list', { name: 'Chat status' })).toHaveCount(0);
  await shots(page, 'reconnected');

  await context.request.delete(`${origin}/api/v1/projects/${projectId}/session`);
});
