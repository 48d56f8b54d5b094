import { randomUUID } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { completeOnboarding, linkTwitchAccount, SHOTS } from './support/partner.ts';
import { makeAdmin, signIn } from './support/studio.ts';

// Issue 25 acceptance: an administrator creates a game-key campaign with 2 keys in the admin
// portal; three eligible creators apply and are accepted; two claim (one through the claim
// dialog), the third is told no key is left; a creator makes a promo code and its tracked link
// counts a click.
test.use({ viewport: { width: 1440, height: 900 } });

async function creator(browser: Browser, tag: string): Promise<{ page: Page; email: string }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const email = `campaign-${tag}-${randomUUID()}@example.test`;
  await signIn(context.request, email);
  await completeOnboarding(context.request, `${tag}${randomUUID().replace(/-/g, '').slice(0, 10)}`);
  await linkTwitchAccount(email, `tw_${tag}_${randomUUID().slice(0, 6)}`);
  return { page, email };
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test('a game-key campaign from the admin portal to two claimed keys, a refusal, a promo code and a counted click', async ({ page, context, browser }) => {
  test.setTimeout(120_000);
  const adminEmail = `campaign-admin-${randomUUID()}@example.test`;
  await signIn(context.request, adminEmail);
  await makeAdmin(adminEmail);
  const name = `Skyward ${randomUUID().slice(0, 6)}`;

  // The admin portal: a new campaign, then its key pool from CSV.
  await page.goto('/admin/campaigns');
  await expect(page.getByRole('heading', { name: 'Campaign admin' })).toBeVisible();
  const form = page.getByRole('form', { name: 'New campaign' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Game', { exact: true }).fill('Skyward');
  await form.getByLabel('Publisher').fill('Up Games');
  await form.getByLabel('Promo discount from (%)').fill('5');
  await form.getByLabel('Promo discount up to (%)').fill('20');
  await form.getByLabel('Store page (https://)').fill('https://store.example.com/skyward');
  await shot(page, 'campaign-admin-new');
  await form.getByRole('button', { name: 'Create campaign' }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await page.getByLabel('Key pool CSV', { exact: true }).fill('key,platform\nSKY-AAAA-0001,Steam\nSKY-AAAA-0001,Steam\n');
  await page.getByRole('button', { name: 'Import keys' }).click();
  await expect(page.getByRole('alert')).toContainText('line 3: the same key as line 2');
  await page.getByLabel('Key pool CSV', { exact: true }).fill('key,platform\nSKY-AAAA-0001,Steam\nSKY-BBBB-0002,Steam\n');
  await page.getByRole('button', { name: 'Import keys' }).click();
  await expect(page.getByText('2 of 2 keys left')).toBeVisible();
  // Edited afterwards in the same portal: details creators see, and a resource link.
  await page.getByText('Campaign details').click();
  const edit = page.getByRole('form', { name: 'Edit campaign' });
  await expect(edit.getByLabel('Name')).toHaveValue(name);
  await expect(edit.getByLabel('Promo discount up to (%)')).toHaveValue('20');
  await edit.getByLabel('Genre').fill('Platformer');
  await edit.getByLabel('Developer').fill('Cloud Works');
  await edit.getByRole('button', { name: 'Add a resource' }).click();
  await edit.getByLabel('Resource 1 title').fill('Press kit');
  await edit.getByLabel('Resource 1 address').fill('http://example.com/kit');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit.getByRole('alert')).toContainText('https://');
  await edit.getByLabel('Resource 1 address').fill('https://example.com/kit');
  await shot(page, 'campaign-admin-edit');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Campaign saved')).toBeVisible();
  await page.reload();
  await page.getByRole('button', { name: new RegExp(name) }).click();
  await page.getByText('Campaign details').click();
  await expect(page.getByRole('form', { name: 'Edit campaign' }).getByLabel('Genre')).toHaveValue('Platformer');

  // Three creators: the first applies through the dialogs, the others through the api.
  const [first, second, third] = [await creator(browser, 'ada'), await creator(browser, 'bea'), await creator(browser, 'cy')];
  await first!.page.goto('/partner/campaigns');
  await expect(first!.page.getByRole('heading', { name: 'How campaigns work' })).toBeVisible();
  await shot(first!.page, 'campaigns-list');
  await first!.page.getByTestId('campaign-card').filter({ hasText: name }).click();
  await expect(first!.page.getByRole('heading', { name })).toBeVisible();
  await expect(first!.page.getByText('Cloud Works')).toBeVisible();
  await shot(first!.page, 'campaign-detail');
  await first!.page.getByRole('tab', { name: 'Resources' }).click();
  await expect(first!.page.getByRole('link', { name: /Press kit/ })).toHaveAttribute('href', 'https://example.com/kit');
  await first!.page.getByRole('tab', { name: 'Campaign details' }).click();
  await first!.page.getByRole('button', { name: 'Apply' }).click();
  const apply = first!.page.getByRole('dialog', { name: `Apply to ${name}` });
  await apply.getByLabel('Primary channel').fill('twitch.tv/ada');
  await apply.getByRole('button', { name: 'Continue' }).click();
  const agreement = first!.page.getByRole('dialog', { name: 'Campaign agreement' });
  await expect(agreement.getByRole('button', { name: 'Send application' })).toBeDisabled();
  await agreement.getByLabel('I accept the campaign agreement').check();
  await agreement.getByRole('button', { name: 'Send application' }).click();
  await expect(first!.page.getByTestId('application-status')).toHaveText('In review');
  const campaignPath = new URL(first!.page.url()).pathname;
  const campaignId = campaignPath.split('/').pop()!;
  for (const c of [second!, third!]) {
    const res = await c.page.request.post(`/api/v1/partner/campaigns/${campaignId}/application`, {
      data: { primaryChannel: 'twitch.tv/me', keyPlatform: 'Steam', agreementAccepted: true },
    });
    expect(res.status(), await res.text()).toBe(201);
  }

  // The administrator accepts all three.
  await page.reload();
  await page.getByRole('button', { name: new RegExp(name) }).click();
  for (let i = 0; i < 3; i++) {
    await page.getByRole('button', { name: 'Accept', exact: true }).first().click();
    await expect(page.getByRole('button', { name: 'Accept', exact: true })).toHaveCount(2 - i);
  }
  await shot(page, 'campaign-admin-applications');

  // The first claims through the claim dialog; the second through the api; the third is refused.
  await first!.page.reload();
  await expect(first!.page.getByTestId('application-status')).toHaveText('Active');
  await first!.page.getByRole('button', { name: 'Claim key' }).click();
  await first!.page.getByRole('dialog', { name: 'Claim your game key' }).getByRole('button', { name: 'Claim key' }).click();
  await expect(first!.page.getByTestId('game-key')).toHaveText(/^SKY-(AAAA-0001|BBBB-0002)$/);
  await expect(first!.page.getByTestId('application-status')).toHaveText('Claimed');
  expect((await second!.page.request.post(`/api/v1/partner/campaigns/${campaignId}/application/claim`, { data: { keyPlatform: 'Steam' } })).status()).toBe(200);
  await third!.page.goto(campaignPath);
  await third!.page.getByRole('button', { name: 'Claim key' }).click();
  const claim = third!.page.getByRole('dialog', { name: 'Claim your game key' });
  await claim.getByRole('button', { name: 'Claim key' }).click();
  await expect(claim.getByRole('alert')).toHaveText('No Steam key is left in this campaign. Every key was claimed.');
  await shot(third!.page, 'campaign-claim-refused');
  await third!.page.keyboard.press('Escape');

  // A promo code and the tracked link's click.
  await first!.page.getByLabel('Code (A–Z and digits; empty: generated)').fill('ada15');
  await first!.page.getByLabel(/^Discount/).fill('15');
  await first!.page.getByRole('button', { name: 'Generate code' }).click();
  await expect(first!.page.getByRole('list', { name: 'Your promo codes' })).toContainText('ADA1515% off');
  const link = (await first!.page.getByTestId('tracked-link').textContent())!;
  const click = await first!.page.request.get(link, { maxRedirects: 0 });
  expect(click.status()).toBe(302);
  expect(click.headers().location).toBe('https://store.example.com/skyward');
  await first!.page.reload();
  await expect(first!.page.getByTestId('link-counts')).toHaveText('1 click · 0 impressions');
  await shot(first!.page, 'campaign-claimed');

  // A revenue-share campaign: the first creator joins, makes a code; the publisher's sales are credited.
  const revenueName = `Cloudfall ${randomUUID().slice(0, 6)}`;
  const revenue = await page.request.post('/api/v1/admin/campaigns', {
    data: {
      name: revenueName,
      kind: 'revenue-share',
      status: 'active',
      game: 'Cloudfall',
      revenueSharePercent: 15,
      requiresReview: false,
      promoDiscount: { kind: 'fixed', percent: 10 },
    },
  });
  expect(revenue.status(), await revenue.text()).toBe(201);
  const revenueId = ((await revenue.json()) as { id: string }).id;
  expect(
    (
      await first!.page.request.post(`/api/v1/partner/campaigns/${revenueId}/application`, {
        data: { primaryChannel: 'twitch.tv/ada', agreementAccepted: true },
      })
    ).status(),
  ).toBe(201);
  const code = `ADA${randomUUID()
    .replace(/[^0-9]/g, '')
    .slice(0, 6)}`;
  expect((await first!.page.request.post(`/api/v1/partner/campaigns/${revenueId}/promo-codes`, { data: { code, discountPercent: 10 } })).status()).toBe(201);
  await page.goto('/admin/campaigns');
  await page.getByRole('button', { name: new RegExp(revenueName) }).click();
  await page.getByLabel('Sales CSV').fill(`sale_id,promo_code,amount_minor,currency\nS-1,${code},4000,usd\n`);
  await page.getByRole('button', { name: 'Credit sales' }).click();
  await expect(page.getByText('1 sales credited')).toBeVisible();
  await first!.page.goto('/partner/payouts');
  const history = first!.page.getByRole('region', { name: 'Transaction history' });
  await expect(history.getByRole('row').filter({ hasText: revenueName })).toContainText('$6.00');
  await shot(first!.page, 'campaign-revenue-credit');

  // The marketing campaigns page, signed out.
  const visitor = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const visitorPage = await visitor.newPage();
  await visitorPage.goto('/campaigns');
  await expect(visitorPage.getByRole('list', { name: 'Campaigns running now' })).toContainText(name);
  await shot(visitorPage, 'campaigns-marketing');
});
