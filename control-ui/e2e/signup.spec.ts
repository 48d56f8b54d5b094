import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { SHOTS } from './support/partner.ts';

// Issue 40 item 4: the Signup page (this stack takes new accounts: SIGNUP_MODE=open), partner spec
// §8's 'signup request expired' notice after a code is used up, the account made by the first code,
// the Waitlist page, route titles and the language kept in local storage. Waitlist mode itself is
// covered by the api's signup-waitlist test.
for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
]) {
  test(`signs up with an e-mail code; an exhausted code says the signup request expired (${viewport.width}×${viewport.height})`, async ({ browser }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto('/login');
    await expect(page).toHaveTitle('Auth · OnAir');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole('heading', { name: 'Create your OnAir account' })).toBeVisible();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/signup-${viewport.width}.png` });

    const email = `signup-${randomUUID()}@example.test`;
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('E-mail').fill(email);
    await form.getByRole('button', { name: 'Email me a code' }).click();
    await expect(page.getByRole('heading', { name: 'Confirm your e-mail' })).toBeVisible();
    // Wrong codes until the request is used up.
    for (let i = 0; i < 4 && !(await page.getByText('Your signup request expired. Please start again.').isVisible()); i++) {
      await page.getByLabel('Code').fill('000000');
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(page.getByTestId('signup-notice')).toBeVisible();
    }
    await expect(page.getByTestId('signup-notice')).toContainText('Your signup request expired. Please start again.');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/signup-expired-${viewport.width}.png` });
    await page.getByRole('button', { name: 'Start again' }).click();

    // A fresh request, and the code from the development inbox, make the account.
    await form.getByLabel('E-mail').fill(email);
    await form.getByRole('button', { name: 'Email me a code' }).click();
    await expect(page.getByRole('heading', { name: 'Confirm your e-mail' })).toBeVisible();
    let code: string | undefined;
    for (let i = 0; i < 50 && !code; i++) {
      const inbox = (await (await context.request.get(`/api/v1/dev/inbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { text: string }[] };
      code = /\b(\d{6})\b/.exec(inbox.messages[0]?.text ?? '')?.[1];
      if (!code) await page.waitForTimeout(100);
    }
    await page.getByLabel('Code').fill(code!);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL(/\/partner\/get-started$/);
    await expect(page).toHaveTitle('Get Started · OnAir');

    // The language choice is kept in this browser.
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

    // The Waitlist page's notice.
    await page.goto('/waitlist');
    await expect(page).toHaveTitle('Waitlist · OnAir');
    await expect(page.getByRole('heading', { name: 'You are on the waitlist' })).toBeVisible();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/waitlist-${viewport.width}.png` });
    await context.close();
  });
}

test('the partner area keeps the language choice in local storage', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const { signIn } = await import('./support/studio.ts');
  const { completeOnboarding } = await import('./support/partner.ts');
  await signIn(context.request, `lang-${randomUUID()}@example.test`);
  await completeOnboarding(context.request, `lg${randomUUID().replace(/-/g, '').slice(0, 12)}`);
  await page.goto('/partner');
  // English by default, kept from the first visit; the choice is in the partner navigation.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('onair.language'))).toBe('en');
  await expect(page.getByRole('combobox', { name: 'Language' })).toHaveText(/English/);
  await page.getByRole('combobox', { name: 'Language' }).click();
  await page.getByRole('option', { name: 'English' }).click();
  await page.reload();
  expect(await page.evaluate(() => [localStorage.getItem('onair.language'), document.documentElement.lang])).toEqual(['en', 'en']);
  await page.goto('/partner/overlays');
  await expect(page).toHaveTitle('Scenes · OnAir');
  await context.close();
});
