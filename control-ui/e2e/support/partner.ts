// Steps the partner-network flows share.
import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';
import pg from 'pg';

export const SHOTS = process.env.ONAIR_E2E_SHOTS;

/** Get Started through the api (the onboarding flow itself is driven through the UI in its own test). */
export async function completeOnboarding(request: APIRequestContext, username: string, firstName = 'Ada'): Promise<void> {
  const res = await request.post('/api/v1/partner/account/onboarding', {
    data: {
      username,
      firstName,
      lastName: 'Tester',
      identity: 'They',
      pronouns: '',
      birthdate: '1990-01-31',
      country: 'NL',
      contentLanguage: 'en',
      streamingDevices: ['PC'],
      mainPlatform: 'Twitch',
      discoverySource: 'Search',
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/**
 * Stands in for connecting Twitch through its OAuth consent page, which the e2e stack cannot reach
 * (no Twitch double there; the OAuth link itself is covered by the api's auth tests): the account
 * row better-auth writes and the login the Twitch sign-in records.
 */
export async function linkTwitchAccount(email: string, login: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.ONAIR_E2E_DATABASE_URL });
  await client.connect();
  try {
    const accountId = `twitch-${randomUUID()}`;
    const { rowCount } = await client.query(
      `INSERT INTO accounts (id, account_id, provider_id, user_id, updated_at) SELECT $1, $2, 'twitch', id, now() FROM users WHERE email = $3`,
      [randomUUID(), accountId, email],
    );
    expect(rowCount).toBe(1);
    await client.query(`INSERT INTO platform_logins (id, provider_id, account_id, login, updated_at) VALUES ($1, 'twitch', $2, $3, now())`, [
      randomUUID(),
      accountId,
      login,
    ]);
  } finally {
    await client.end();
  }
}

/** Runs one query against the stack's database (for what the UI cannot show: rows and stored dates). */
export async function queryDb<T extends Record<string, unknown>>(sql: string, values: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.ONAIR_E2E_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}
