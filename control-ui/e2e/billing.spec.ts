import { randomUUID } from 'node:crypto';
import { type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { makeAdmin, openNewStudio, publicOrigin, signIn } from './support/studio.ts';

// Plans and billing as a creator meets them, on the one-machine stack's Stripe double (test mode):
// the Free page, checkout on the hosted page in Chromium (a declined card, then the test card),
// 'Subscription successful', 1080p and more destinations now allowed, a second tab following
// without a reload, cancel with its confirmation, 'plan will end', and renew.

const SHOTS = process.env.ONAIR_E2E_SHOTS;

async function openPlanPage(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Plan & Billing' }).click();
  return page.getByRole('region', { name: 'Account Settings' });
}

test('a Free creator upgrades through the hosted checkout, a second tab follows, then cancels and renews', async ({ page, context }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  // Stripe's pages send the browser back to PUBLIC_URL (localhost): the whole flow runs there.
  const origin = publicOrigin();
  await signIn(context.request, `billing-${randomUUID()}@example.test`, origin);

  // A second tab: a studio, where 1080p is locked for Free.
  const studioTab = await context.newPage();
  await studioTab.setViewportSize({ width: 1440, height: 900 });
  const projectId = await openNewStudio(studioTab, 'Billing test', origin);
  await studioTab.getByRole('button', { name: /^Resolution:/ }).click();
  await expect(studioTab.getByRole('menuitem', { name: /^1080p/ })).toBeDisabled();
  await studioTab.keyboard.press('Escape');

  await page.goto(`${origin}/`);
  const plan = await openPlanPage(page);
  await expect(plan.getByRole('note')).toContainText('Test mode');
  await expect(plan.getByRole('heading', { name: 'Power up your live streams' })).toBeVisible();
  const free = plan.getByRole('article', { name: 'Free plan' });
  await expect(free.getByText('Your plan')).toBeVisible();
  const premium = plan.getByRole('article', { name: 'Premium plan' });
  await expect(premium.getByText('$19.99 / month')).toBeVisible();
  await plan.getByRole('button', { name: 'Annually' }).click();
  await expect(premium.getByText('$15.99 / month')).toBeVisible();
  await expect(plan.getByText('Save $48 a year with annual billing')).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/plan-free.png` });
  await plan.getByRole('button', { name: 'Monthly' }).click();

  // Stripe's hosted checkout (the double's page): a declined card first.
  await premium.getByRole('button', { name: 'Upgrade' }).click();
  await expect(page.getByText('Test mode — Stripe double, no real payment')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Subscribe to Premium' })).toBeVisible();
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Subscribe' }).click();

  // Back in OnAir: the purchase is finalized, and the page is Premium's.
  await expect(page.getByText('Subscription successful')).toBeVisible({ timeout: 30_000 });
  const after = page.getByRole('region', { name: 'Account Settings' });
  await expect(after.getByRole('article', { name: 'Premium plan' })).toBeVisible();
  await expect(after.getByText('Next billing date')).toBeVisible();
  await expect(after.getByText('Every month')).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/plan-premium.png` });

  // The studio tab took the new plan without a reload: 1080p can be picked now.
  await studioTab.getByRole('button', { name: /^Resolution:/ }).click();
  await expect(studioTab.getByRole('menuitem', { name: /^1080p/ })).toBeEnabled();
  await studioTab.getByRole('menuitem', { name: /^1080p/ }).click();
  await expect(studioTab.getByRole('button', { name: 'Resolution: 1080p' })).toBeVisible();
  // And more than two destinations (custom RTMP servers are Premium's too).
  for (let i = 1; i <= 3; i++) {
    const res = await context.request.post(`${origin}/api/v1/projects/${projectId}/destinations`, {
      data: { type: 'CustomRTMP', name: `Server ${i}`, rtmpUrl: `rtmp://93.184.216.${i}/live`, streamKey: `key-${i}` },
    });
    expect(res.status(), await res.text()).toBe(201);
  }

  // Cancel: the confirmation lists what is lost; then the plan ends with its term, and is renewed.
  await after.getByRole('button', { name: 'Cancel Premium Plan' }).click();
  const confirm = after.getByRole('alertdialog', { name: 'Are you sure?' });
  for (const loss of ['Replacing or hiding the OnAir logo', 'Uploading your own backgrounds and videos', 'Adding guests to your stream', 'Streaming at 1080p'])
    await expect(confirm.getByText(loss)).toBeVisible();
  await expect(confirm).toHaveAccessibleDescription('You will lose access to your Premium plan at the end of your current term.');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/plan-cancel.png` });
  await confirm.getByRole('button', { name: 'Cancel Premium Plan' }).click();
  await expect(page.getByText('Subscription cancelled')).toBeVisible();
  await expect(after.getByText(/Your Premium plan will end [A-Z][a-z]+ \d{1,2}, \d{4}\./)).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/plan-ending.png` });
  await after.getByRole('button', { name: 'Renew' }).click();
  await expect(page.getByText('Subscription renewed')).toBeVisible();
  await expect(after.getByText('Next billing date')).toBeVisible();
});

test('an administrator grants VIP on the operators page; the creator sees the VIP plan', async ({ browser }) => {
  test.setTimeout(60_000);
  const origin = publicOrigin();
  const ops = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const creator = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const adminEmail = `ops-${randomUUID()}@example.test`;
  const creatorEmail = `vip-${randomUUID()}@example.test`;
  await signIn(ops.request, adminEmail, origin);
  await makeAdmin(adminEmail);
  await signIn(creator.request, creatorEmail, origin);

  const admin = await ops.newPage();
  await admin.goto(`${origin}/admin`);
  const card = admin.getByRole('region', { name: 'VIP plan' });
  await card.getByLabel('Account e-mail').fill(creatorEmail);
  await card.getByRole('button', { name: 'Grant VIP' }).click();
  await expect(card.getByRole('status')).toHaveText(`${creatorEmail} is VIP now.`);
  if (SHOTS) await admin.screenshot({ path: `${SHOTS}/admin-vip.png`, fullPage: true });

  const page = await creator.newPage();
  await page.goto(`${origin}/`);
  const plan = await openPlanPage(page);
  await expect(plan.getByRole('article', { name: 'VIP plan' })).toBeVisible();
  await expect(plan.getByRole('heading', { name: 'Power up your live streams' })).toHaveCount(0);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/plan-vip.png` });

  await card.getByRole('button', { name: 'Take VIP back' }).click();
  await expect(card.getByRole('status')).toHaveText(`${creatorEmail} is on the Free plan now.`);
  await ops.close();
  await creator.close();
});
