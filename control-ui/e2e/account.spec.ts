import { expect, test, type Page } from '@playwright/test';

const SHOTS = process.env.ONAIR_E2E_SHOTS;

// The api's PUBLIC_URL (where magic links point) is http://localhost:<port>, while the stack is
// reached at 127.0.0.1: use the localhost origin throughout so the session cookie is the one the
// links land on.
function appOrigin(): string {
  const base = process.env.ONAIR_E2E_URL;
  if (!base) throw new Error('ONAIR_E2E_URL is not set (global-setup starts the stack)');
  const url = new URL(base);
  url.hostname = 'localhost';
  return url.origin;
}

/** Reads the newest message to `to` in the development inbox page, in its own tab. */
async function newestMessage(page: Page, to: string, count: number, channel: 'E-mail' | 'SMS' = 'E-mail'): Promise<string> {
  const inbox = await page.context().newPage();
  await inbox.goto(`${appOrigin()}/dev/inbox`);
  const messages = inbox.getByRole('listitem', { name: `${channel} to ${to}` });
  await expect(messages).toHaveCount(count, { timeout: 10_000 });
  const text = (await messages.first().textContent()) ?? '';
  await inbox.close();
  return text;
}

test('account journey: e-mail code, display name, mailing group, sign out, magic link, delete', async ({ page }) => {
  const email = `e2e-${Date.now()}@example.com`;
  const origin = appOrigin();

  // Sign in with a code read from the development inbox.
  await page.goto(`${origin}/login`);
  await expect(page.getByRole('heading', { name: 'Sign in to OnAir' })).toBeVisible();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
  const mail = await newestMessage(page, email, 1);
  const code = /\b(\d{6})\b/.exec(mail)?.[1];
  expect(code).toBeTruthy();
  await page.getByLabel('Code').fill('000000' === code ? '111111' : '000000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('That code is not right. Check it and try again.');
  await page.getByLabel('Code').fill(code!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${origin}/`);

  // Account settings: no name yet; change it.
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByText(email)).toBeVisible();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  const dialog = page.getByRole('region', { name: 'Account Settings' });
  await expect(dialog.getByText('No name set')).toBeVisible();
  await expect(dialog.getByText(email)).toBeVisible();
  await dialog.getByRole('button', { name: 'Change name' }).click();
  const save = dialog.getByRole('button', { name: 'Save' }).first();
  await expect(save).toBeDisabled();
  await dialog.getByLabel('Name').fill('E2E Streamer');
  await save.click();
  await expect(page.getByText('Your name has been updated')).toBeVisible();
  await expect(dialog.getByText('E2E Streamer')).toBeVisible();

  // Email Preferences: subscribe, turn one group off, save; it survives a reload.
  await expect(dialog.getByText('Get news and important product updates about the studio.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Subscribe' }).click();
  const tips = dialog.getByRole('checkbox', { name: 'Tips and tutorials' });
  await expect(tips).toBeChecked();
  await tips.uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('You are subscribed')).toBeVisible();
  await page.reload();
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  await expect(dialog.getByRole('checkbox', { name: 'Tips and tutorials' })).not.toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'Product updates' })).toBeChecked();
  await expect(dialog.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();
  await page.keyboard.press('Escape');

  // Sign out.
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${origin}/login`);
  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Sign in' })).toBeVisible();
  await page.keyboard.press('Escape');

  // Sign in again with a magic link from the inbox.
  await page.goto(`${origin}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link instead' }).click();
  await expect(page.getByText(`We sent a sign-in link to ${email}`)).toBeVisible();
  const linkMail = await newestMessage(page, email, 2);
  const link = /(https?:\/\/\S+)/.exec(linkMail)?.[1];
  expect(link).toContain('/api/auth/magic-link/verify');
  await page.goto(link!);
  await expect(page).toHaveURL(`${origin}/`);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByText('E2E Streamer')).toBeVisible();

  // Delete the account: confirm only once 'delete' is typed (any case); then signed out.
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete account' });
  const confirmButton = confirm.getByRole('button', { name: 'Delete account' });
  await expect(confirmButton).toBeDisabled();
  await confirm.getByLabel('Type delete to confirm').fill('delet');
  await expect(confirmButton).toBeDisabled();
  await confirm.getByLabel('Type delete to confirm').fill('DeLeTe');
  await expect(confirmButton).toBeEnabled();
  // The one deletion of both areas: deactivated now, erased after the server's retention window.
  await expect(confirm.getByText('Your account is deactivated at once and erased for good 30 days later.')).toBeVisible();
  if (SHOTS) {
    for (const [width, height] of [
      [1280, 720],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: `${SHOTS}/account-delete-${width}.png` });
    }
  }
  await confirmButton.click();
  await expect(page).toHaveURL(`${origin}/login`);
  await expect(page.getByText('Your account has been deleted')).toBeVisible();
  const me = await page.request.get(`${origin}/api/v1/users/current`);
  expect(me.status()).toBe(401);
});

test('SMS: add a phone number on the Account page, then sign in with a texted code', async ({ page }) => {
  const email = `e2e-sms-${Date.now()}@example.com`;
  const phone = `+1555${String(Date.now()).slice(-7)}`;
  const origin = appOrigin();

  await page.goto(`${origin}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  const code = /\b(\d{6})\b/.exec(await newestMessage(page, email, 1))?.[1];
  await page.getByLabel('Code').fill(code!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${origin}/`);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  const settings = page.getByRole('region', { name: 'Account Settings' });
  await expect(settings.getByText('No phone number')).toBeVisible();
  await settings.getByRole('button', { name: 'Add phone' }).click();
  const phoneDialog = page.getByRole('dialog', { name: 'Phone number' });
  await phoneDialog.getByLabel('Phone number, international format').fill(phone);
  await phoneDialog.getByRole('button', { name: 'Text me a code' }).click();
  const sms = /\b(\d{6})\b/.exec(await newestMessage(page, phone, 1, 'SMS'))?.[1];
  await phoneDialog.getByLabel(`Code sent to ${phone}`).fill(sms!);
  await phoneDialog.getByRole('button', { name: 'Verify number' }).click();
  await expect(page.getByText('Your phone number has been verified')).toBeVisible();
  await expect(settings.getByText(phone)).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${origin}/login`);
  await page.getByRole('button', { name: 'Text me a code instead' }).click();
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  const signInSms = /\b(\d{6})\b/.exec(await newestMessage(page, phone, 2, 'SMS'))?.[1];
  await page.getByLabel('Code').fill(signInSms!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${origin}/`);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByText(email)).toBeVisible();
});
