import { expect, test } from '@playwright/test';

test('the app shell loads from the api and reports the api ready', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'OnAir home' })).toBeVisible();
  // Signed out: what OnAir is, and the way in.
  await expect(page.getByRole('heading', { name: 'Your live studio, in the cloud' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute('href', '/login');
  await expect(page.getByText('No projects yet')).toHaveCount(0);
  // The indicator starts at "Checking" and only says "Ready" after a real /readyz answer.
  await expect(page.getByRole('button', { name: 'Server status: Ready' })).toBeVisible();
  await expect(page).toHaveTitle('Cloud streaming studio · OnAir');
});

test('a client-side route survives a reload (the api falls back to index.html)', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Server status: Ready' })).toBeVisible();

  // Navigate inside the SPA, without a page load.
  await page.evaluate(() => {
    window.history.pushState({}, '', '/studio/e2e-project');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('tablist', { name: 'Side panel' })).toBeVisible();

  const response = await page.reload();
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/studio\/e2e-project$/);
  for (const tab of ['Platform Chat', 'Event List', 'Guests', 'Guest Chat']) {
    await expect(page.getByRole('tab', { name: tab })).toBeVisible();
  }
  await expect(page.getByRole('tab', { name: 'Platform Chat' })).toHaveAttribute('aria-selected', 'true');
});

test('the user menu opens the Plan & Billing page, a route of its own', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Plan & Billing' }).click();
  const dialog = page.getByRole('region', { name: 'Account Settings' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Plan & Billing' })).toBeVisible();
  await expect(page).toHaveURL(/\/account\/plan$/);
  await dialog.getByRole('link', { name: 'Account', exact: true }).click();
  await expect(dialog.getByRole('heading', { name: 'Account', exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/account$/);
});

test('an unknown address shows the not-found page', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(200);
  await expect(page.getByText('Page not found')).toBeVisible();
});
