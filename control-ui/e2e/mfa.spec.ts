import { createHmac } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';

// Same origin rule as account.spec.ts: the api's PUBLIC_URL host is localhost.
function appOrigin(): string {
  const url = new URL(process.env.ONAIR_E2E_URL ?? '');
  url.hostname = 'localhost';
  return url.origin;
}

/** What an authenticator app computes from the setup key: RFC 6238 TOTP, SHA-1, 30 s, 6 digits. */
function totp(base32Key: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const ch of base32Key.replace(/=+$/, '').toUpperCase()) {
    value = (value << 5) | alphabet.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', Buffer.from(bytes)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

async function signInByCode(page: Page, email: string, count: number): Promise<void> {
  await page.goto(`${appOrigin()}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
  const inbox = await page.context().newPage();
  await inbox.goto(`${appOrigin()}/dev/inbox`);
  const messages = inbox.getByRole('listitem', { name: `E-mail to ${email}` });
  await expect(messages).toHaveCount(count, { timeout: 10_000 });
  const code = /\b(\d{6})\b/.exec((await messages.first().textContent()) ?? '')?.[1];
  await inbox.close();
  await page.getByLabel('Code').fill(code!);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('two-step verification: set up with an authenticator app, then every sign-in asks for it', async ({ page }) => {
  const email = `e2e-mfa-${Date.now()}@example.com`;
  const origin = appOrigin();
  await signInByCode(page, email, 1);
  await expect(page).toHaveURL(`${origin}/`);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  const settings = page.getByRole('region', { name: 'Account Settings' });
  await settings.getByRole('button', { name: 'Set up' }).click();
  const setupKey = (await settings.locator('code').textContent()) ?? '';
  expect(setupKey).toMatch(/^[A-Z2-7]+=*$/);
  const recoveryCodes = await settings.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  await settings.getByLabel('Code from the app').fill(totp(setupKey));
  await settings.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Two-step verification is on')).toBeVisible();
  await expect(settings.getByText('On: signing in asks for a code from your authenticator app.')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();

  // The e-mail code alone no longer signs in: the second step asks for the app's code.
  await signInByCode(page, email, 2);
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  const wrong = totp(setupKey) === '000000' ? '111111' : '000000';
  await page.getByLabel('Authentication code').fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText('That authentication code is not right. Check your authenticator app.');

  // A recovery code also finishes the sign-in.
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(`${origin}/`);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByText(email)).toBeVisible();
});
