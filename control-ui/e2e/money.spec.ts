import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { queryDb, SHOTS } from './support/partner.ts';
import { publicOrigin, signIn } from './support/studio.ts';

// The partner network's money (issue 24) as a creator and a viewer meet it, on the one-machine
// stack's Stripe double: the creator switches tips on; a viewer is refused $0.50 in words, then
// tips $25 through the double's hosted checkout; the tip plays as an alert on the creator's overlay
// (open as OBS would open it); the creator sees the credit and the tip in the studio's events feed,
// completes the tax interview and a bank account, requests a payout; the double's dashboard
// completes it; the history and its CSV show both; statistics show the tip in today's revenue.

test.use({ viewport: { width: 1440, height: 900 } });

async function onboard(request: APIRequestContext, origin: string, username: string): Promise<void> {
  const res = await request.post(`${origin}/api/v1/partner/account/onboarding`, {
    data: {
      username,
      firstName: 'Ada',
      lastName: 'Tester',
      identity: 'They',
      pronouns: '',
      birthdate: '1990-01-31',
      country: 'US',
      contentLanguage: 'en',
      streamingDevices: ['PC'],
      mainPlatform: 'Twitch',
      discoverySource: 'Search',
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

test('a viewer tips through the hosted checkout; the creator sees it, is paid out, and finds both in history, CSV and statistics', async ({
  page,
  browser,
  context,
}) => {
  test.setTimeout(180_000);
  const origin = publicOrigin();
  const stripe = process.env.ONAIR_E2E_STRIPE;
  if (!stripe) throw new Error('ONAIR_E2E_STRIPE is not set: the stack runs without the Stripe double');
  const username = `tips_${randomUUID().slice(0, 8)}`;
  await signIn(context.request, `${username}@example.test`, origin);
  await onboard(context.request, origin, username);
  const channels = (await (await context.request.get(`${origin}/api/v1/partner/channels`)).json()) as { channels: { id: string; owner: boolean }[] };
  const creatorId = channels.channels.find((c) => c.owner)!.id;
  const project = await context.request.post(`${origin}/api/v1/projects`, { data: { name: 'Tips show' } });
  const projectId = ((await project.json()) as { id: string }).id;

  // The creator takes part in a running campaign and made a promo code for it (issue 25's flow is
  // its own e2e; here its rows as they stand after it).
  const promoCode = `SKY${randomUUID().slice(0, 6).toUpperCase().replaceAll('-', '')}`;
  const campaignId = randomUUID();
  const applicationId = randomUUID();
  await queryDb(
    `INSERT INTO campaigns (id, name, kind, status, game, store_url, promo_discount_kind, promo_min_percent, promo_max_percent, updated_at)
     VALUES ($1, 'Skyward launch', 'game-key', 'active', 'Skyward', 'https://store.example.test/skyward', 'range', 5, 30, now())`,
    [campaignId],
  );
  await queryDb(`INSERT INTO campaign_applications (id, campaign_id, creator_id, status, updated_at) VALUES ($1, $2, $3, 'accepted', now())`, [
    applicationId,
    campaignId,
    creatorId,
  ]);
  await queryDb(`INSERT INTO promo_codes (id, application_id, code, discount_percent) VALUES ($1, $2, $3, 15)`, [randomUUID(), applicationId, promoCode]);
  const slug = `e2e${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await queryDb(`INSERT INTO campaign_links (id, application_id, slug) VALUES ($1, $2, $3)`, [randomUUID(), applicationId, slug]);

  // The creator site: a tip button and the promo codes. Tips are still off: the editor says the
  // button is hidden from visitors, and the public page does not show it.
  await page.goto(`${origin}/partner/site`);
  await page.getByRole('button', { name: 'Add tip button' }).click();
  const tipBlock = page.getByRole('region', { name: 'Tip button block' });
  await expect(tipBlock.getByRole('note')).toContainText('Visitors do not see this button right now: This creator does not take tips right now.');
  await page.getByRole('button', { name: 'Add campaign promo codes' }).click();
  const codesBlock = page.getByRole('region', { name: 'Campaign promo codes block' });
  await expect(codesBlock.getByRole('list', { name: 'Promo codes shown' }).getByRole('listitem')).toHaveText([
    `${promoCode}Skyward · 15% off · Skyward launchwith your store link`,
  ]);
  await page.getByRole('switch').click();
  await page.getByRole('button', { name: 'Save site' }).click();
  await expect(page.getByRole('button', { name: 'Saved' })).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/money-site-editor-tips-off.png`, fullPage: true });
  const hidden = await (await context.request.get(`${origin}/c/${username}`)).text();
  expect(hidden).toContain(promoCode);
  expect(hidden).not.toContain('data-block="tipButton"');

  // Settings › Tips (from the editor's note): switched on with a payment e-mail; the page gives the tip link.
  await tipBlock.getByRole('link', { name: 'Settings › Tips' }).click();
  await expect(page).toHaveURL(`${origin}/partner/settings/tips`);
  await page.getByLabel('Take tips').click();
  await page.getByLabel('Payment-account e-mail').fill(`${username}@example.test`);
  await page.getByLabel('Minimum tip').fill('1.00');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('The minimum tip must be more than $1.00')).toBeVisible();
  await page.getByLabel('Minimum tip').fill('2.00');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Tip settings saved')).toBeVisible();
  await expect(page.getByRole('link', { name: `${origin}/tip/${creatorId}` })).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/money-tip-settings.png` });

  // An overlay with an alert box whose tip alert carries the tipper's message, open as OBS would
  // open it (the address the overlay editor gives; a page with no session).
  await page.goto(`${origin}/partner/overlays`);
  await page.getByLabel('New overlay name').fill('Tip alerts');
  await page.getByRole('button', { name: 'Create overlay' }).click();
  await expect(page).toHaveURL(/\/partner\/overlays\/[0-9a-f-]{36}$/);
  await page.getByRole('button', { name: 'Alert box', exact: true }).click();
  const alertSettings = page.getByRole('group', { name: 'Alert box settings' });
  // On screen for the longest time allowed, so the alert is still up when the check looks.
  await alertSettings.getByLabel('Seconds on screen').fill('15');
  await alertSettings.getByLabel(/^Tip · /).fill('{tipper} tipped {amount}: {message}');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Saved' })).toBeVisible();
  const overlayUrl = await page.getByRole('textbox', { name: 'Overlay address' }).inputValue();
  const obsContext = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const obs = await obsContext.newPage();
  await obs.goto(overlayUrl);
  await expect(obs.locator('body')).toHaveAttribute('data-feed', 'open');
  const alertCard = obs.getByTestId('alert-card');
  await expect(alertCard).toBeHidden();

  // A viewer, signed out, on the creator site: the promo code with its store link, and the tip
  // button, which opens the tip page.
  const viewerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const viewer = await viewerContext.newPage();
  await viewer.goto(`${origin}/c/${username}`);
  const codes = viewer.locator('[data-block="promoCodes"]');
  await expect(codes.getByRole('listitem')).toHaveText([`${promoCode}Skyward · 15% offGet it in the store`]);
  await expect(codes.getByRole('link', { name: 'Get it in the store' })).toHaveAttribute('href', `${origin}/api/v1/public/campaign-links/${slug}`);
  if (SHOTS) await viewer.screenshot({ path: `${SHOTS}/money-site-public.png`, fullPage: true });
  // The visit counts as an impression of the creator's tracked link (the campaign's Sponsorships figures).
  await expect
    .poll(async () => (await queryDb<{ impressions: number }>('SELECT impressions FROM campaign_links WHERE slug = $1', [slug]))[0]?.impressions)
    .toBe(1);
  await viewer.getByRole('link', { name: 'Send a tip' }).click();
  await expect(viewer).toHaveURL(`${origin}/tip/${creatorId}`);

  // The tip page: $0.50 is refused in words; $25 goes to the hosted checkout.
  await expect(viewer.getByRole('heading', { name: `Tip ${username}` })).toBeVisible();
  await viewer.getByLabel('Your name').fill('Grace');
  await viewer.getByLabel('Amount (USD)').fill('0.50');
  await viewer.getByLabel('Message (optional)').fill('Great stream!');
  await viewer.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(viewer.getByRole('alert')).toHaveText('The smallest tip is $2.00');
  if (SHOTS) await viewer.screenshot({ path: `${SHOTS}/money-tip-page-refused.png` });
  await viewer.getByLabel('Amount (USD)').fill('25');
  await viewer.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(viewer.getByText('Test mode — Stripe double, no real payment')).toBeVisible();
  await expect(viewer.getByRole('heading', { name: `Tip for ${username}` })).toBeVisible();
  await viewer.getByLabel('Card number').fill('4242 4242 4242 4242');
  await viewer.getByRole('button', { name: 'Pay $25.00' }).click();
  await expect(viewer.getByRole('heading', { name: 'Thank you!' })).toBeVisible({ timeout: 30_000 });
  if (SHOTS) await viewer.screenshot({ path: `${SHOTS}/money-tip-thanks.png` });
  await viewerContext.close();

  // The paid tip plays as an alert on the creator's overlay: name, amount and message, as text.
  await expect(alertCard).toBeVisible({ timeout: 30_000 });
  await expect(alertCard).toHaveText('Grace tipped $25.00: Great stream!');
  if (SHOTS) await obs.screenshot({ path: `${SHOTS}/money-overlay-tip-alert.png`, omitBackground: true });
  await obsContext.close();

  // The creator: the credit on Payouts (once the webhook is in), and the tip in the studio's events feed.
  await page.goto(`${origin}/partner/payouts`);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('available-balance')).toHaveText('$25.00', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const history = page.getByRole('region', { name: 'Transaction history' });
  await expect(history.getByRole('row', { name: /Tip from Grace/ })).toContainText('$25.00');

  // Request payout: the tax interview and a bank account first, on the page itself.
  await page.getByLabel('Legal name').fill('Ada Tester');
  await page.getByLabel('Tax identification number').fill('123-45-6789');
  await page.getByLabel('I confirm that this information is correct.').check();
  await page.getByRole('button', { name: 'Complete tax interview' }).click();
  await page.getByRole('button', { name: 'Add payment method' }).click();
  const form = page.getByRole('form', { name: 'Add payment method' });
  await form.getByLabel('Name', { exact: true }).fill('Ada Tester');
  await form.getByLabel('Email').fill(`${username}@example.test`);
  await form.getByLabel('Address line 1').fill('1 Main St');
  await form.getByLabel('Account holder').fill('Ada Tester');
  await form.getByLabel('Bank name').fill('Test Bank');
  await form.getByLabel('Account number').fill('000123456789');
  await form.getByLabel('Routing number (ABA)').fill('123456789');
  await form.getByRole('button', { name: 'Save payment method' }).click();
  await expect(form.getByText('Enter a valid 9-digit ABA routing number')).toBeVisible();
  await form.getByLabel('Routing number (ABA)').fill('110000000');
  await form.getByRole('button', { name: 'Save payment method' }).click();
  await expect(page.getByText('1–3 business days')).toBeVisible();
  await page.getByLabel('Payout amount (USD)').fill('30');
  await page.getByRole('button', { name: 'Request payout' }).click();
  await expect(page.getByRole('alert')).toHaveText('Unable to request payout: $25.00 is your available balance');
  await page.getByLabel('Payout amount (USD)').fill('20');
  await page.getByRole('button', { name: 'Request payout' }).click();
  await expect(page.getByRole('status')).toContainText('Payout of $20.00 requested');
  await expect(page.getByTestId('available-balance')).toHaveText('$5.00');
  await history.getByRole('tab', { name: 'Payouts' }).click();
  await expect(history.getByRole('row', { name: /Test Bank ····6789/ })).toContainText('processing');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/money-payouts.png`, fullPage: true });

  // The bank pays it (the double's test-mode dashboard); the history says completed.
  const dashboard = await context.newPage();
  await dashboard.goto(`${stripe}/dashboard/payouts`);
  const row = dashboard.getByRole('row').filter({ hasText: '$20.00' });
  await row.getByRole('button', { name: 'Mark paid' }).click();
  await expect(row).toContainText('paid');
  await dashboard.close();
  await expect(async () => {
    await page.reload();
    await page.getByRole('region', { name: 'Transaction history' }).getByRole('tab', { name: 'Payouts' }).click();
    await expect(page.getByRole('region', { name: 'Transaction history' }).getByRole('row', { name: /Test Bank/ })).toContainText('completed', {
      timeout: 1000,
    });
  }).toPass({ timeout: 30_000 });

  // Both in the CSV downloads, amounts as numbers.
  const credit = await (await context.request.get(`${origin}/api/v1/partner/channels/${creatorId}/transactions.csv?tab=credit`)).text();
  expect(credit).toMatch(/,Tip,Tip from Grace,,25,USD,completed/);
  const payouts = await (await context.request.get(`${origin}/api/v1/partner/channels/${creatorId}/transactions.csv?tab=payouts`)).text();
  expect(payouts).toMatch(/,20,0,USD,Test Bank ····6789,completed,/);

  // Statistics: today's revenue holds the tip.
  await page.getByRole('link', { name: 'Statistics' }).click();
  await expect(page.getByTestId('revenue-total')).toHaveText('$25.00');
  await expect(page.getByText('The last 30 days')).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/money-statistics.png`, fullPage: true });

  // The tip in the studio's events feed.
  await page.goto(`${origin}/studio/${projectId}`);
  await page.getByRole('tab', { name: 'Event List' }).click();
  const feed = page.getByRole('region', { name: 'Events feed' });
  await expect(feed.getByText('Grace')).toBeVisible({ timeout: 30_000 });
  await expect(feed).toContainText('$25.00');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/money-studio-feed.png` });
});
