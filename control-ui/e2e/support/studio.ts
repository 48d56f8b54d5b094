// Steps the e2e flows share: signing a user in, giving them Premium, and opening a new project's studio.
import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import pg from 'pg';
import { planEntitlements } from '@onair/protocol';

/** Signs in through the real e-mail code flow, reading the code from the development inbox. */
export async function signIn(request: APIRequestContext, email: string): Promise<void> {
  expect((await request.post('/api/auth/email-otp/send-verification-otp', { data: { email, type: 'sign-in' } })).ok()).toBe(true);
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i++) {
    const inbox = (await (await request.get(`/api/v1/dev/inbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { text: string }[] };
    code = /\b(\d{6})\b/.exec(inbox.messages[0]?.text ?? '')?.[1];
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  if (!code) throw new Error('no sign-in code arrived');
  expect((await request.post('/api/auth/sign-in/email-otp', { data: { email, otp: code } })).ok()).toBe(true);
}

/**
 * Billing does not exist yet; this writes the subscription it will write, so the user has
 * Premium's entitlements.
 */
export async function grantPremium(email: string): Promise<void> {
  const databaseUrl = process.env.ONAIR_E2E_DATABASE_URL;
  if (!databaseUrl) throw new Error('ONAIR_E2E_DATABASE_URL is not set (global-setup sets it when it starts the stack)');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
    const userId = rows[0]?.id;
    if (!userId) throw new Error(`no user ${email}`);
    const subscriptionId = randomUUID();
    await client.query(
      `INSERT INTO subscriptions (id, user_id, plan_id, item_price_id, status, updated_at) VALUES ($1, $2, 'Premium', 'Premium-USD-Monthly', 'active', now())`,
      [subscriptionId, userId],
    );
    for (const [featureId, value] of Object.entries(planEntitlements.Premium)) {
      await client.query('INSERT INTO entitlements (id, subscription_id, feature_id, value) VALUES ($1, $2, $3, $4)', [randomUUID(), subscriptionId, featureId, value]);
    }
  } finally {
    await client.end();
  }
}

/** Creates a project from the home page under this name and waits for its studio; returns the project's id. */
export async function openNewStudio(page: Page, name: string): Promise<string> {
  await page.goto('/');
  await page.getByLabel('New project').fill(name);
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page).toHaveURL(/\/studio\/[0-9a-f-]{36}$/);
  return /studio\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
}
