import { randomUUID } from 'node:crypto';
import { type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import pg from 'pg';
import { SecretBox } from '../../runtime/src/secret-box.ts';
import { openNewStudio, signIn } from './support/studio.ts';

// Platform chat (issue 16) as a creator meets it: live to the Twitch, YouTube and Facebook chat
// doubles (the api's connectors talk to them over a real IRC WebSocket, HTTP polling and a server-
// sent event stream), messages from each in one panel with their icons and emotes, a reply to two
// platforms at once, a platform that drops and comes back while the others go on, markup as text.
// The destinations and the live broadcast are written to the database as OAuth and Go Live leave
// them: the platforms' OAuth and RTMP ingest are outside this flow.

const SHOTS = process.env.ONAIR_E2E_SHOTS;
const TWITCH = () => process.env.ONAIR_E2E_CHAT_TWITCH!;
const YOUTUBE = () => process.env.ONAIR_E2E_CHAT_YOUTUBE!;
const FACEBOOK = () => process.env.ONAIR_E2E_CHAT_FACEBOOK!;

async function control<T = unknown>(url: string, action: string, body: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${url}/_double/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.ok, `${action}: ${res.status}`).toBe(true);
  return ((await res.json()) as { result: T }).result;
}

async function sql(query: string, values: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.ONAIR_E2E_DATABASE_URL });
  await client.connect();
  try {
    await client.query(query, values);
  } finally {
    await client.end();
  }
}

/** Destinations as the OAuth flow leaves them: the account's name and id, tokens sealed with the stack's key. */
async function addChatDestinations(projectId: string, channel: string): Promise<{ twitch: string; youtube: string; facebook: string }> {
  const box = new SecretBox(process.env.ONAIR_E2E_SECRETS_KEY!);
  const ids = { twitch: randomUUID(), youtube: randomUUID(), facebook: randomUUID() };
  const rows: [string, string, string, string, string, string][] = [
    [ids.twitch, 'Twitch', 'twitchtv', channel, '1', TWITCH()],
    [ids.youtube, 'YouTube', 'youtube', 'Ada Live', 'UCowner000000000000000000', YOUTUBE()],
    [ids.facebook, 'Facebook', 'facebook', 'Ada on Facebook', '100000000000001', FACEBOOK()],
  ];
  for (const [id, type, provider, name, account, double] of rows) {
    const { accessToken, refreshToken } = await control<{ accessToken: string; refreshToken: string }>(double, 'issue-token');
    await sql(
      `INSERT INTO destinations (id, project_id, type, provider_id, name, username, platform_account_id, access_token_enc, refresh_token_enc, token_expires_at, settings, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, now() + interval '1 hour', '{}', now())`,
      [id, projectId, type, provider, name, account, box.seal(accessToken, `${id}:accessToken`), box.seal(refreshToken, `${id}:refreshToken`)],
    );
  }
  return ids;
}

async function goLive(projectId: string): Promise<void> {
  await sql(`INSERT INTO broadcasts (id, project_id, state, started_at) VALUES ($1, $2, 'live', now())`, [randomUUID(), projectId]);
}

/**
 * Ends the broadcast goLive wrote, as End Broadcast leaves it. Left live, the api would read this
 * project's channels for the rest of the suite: in test mode one Twitch login serves chat and
 * EventSub, so its Twitch channel also keeps seven EventSub subscriptions on the stack's shared double.
 */
async function endBroadcast(projectId: string): Promise<void> {
  await sql(`UPDATE broadcasts SET state = 'ended', ended_at = now() WHERE project_id = $1 AND state = 'live'`, [projectId]);
}

let liveProject: string | undefined;
test.afterEach(async () => {
  if (liveProject) await endBroadcast(liveProject);
  liveProject = undefined;
});

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/platform-chat-${name}.png` });
}

test('live to three chats: one panel, a reply to two platforms, a platform that drops and comes back, markup as text', async ({ page, context }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(context.request, `chat-${randomUUID()}@example.test`);
  const projectId = await openNewStudio(page, 'Chat test');
  const panel = page.getByRole('region', { name: 'Platform chat' });
  const channel = `ada${randomUUID().slice(0, 6)}`;
  const ids = await addChatDestinations(projectId, channel);
  await control(YOUTUBE(), 'go-live');
  await control(FACEBOOK(), 'go-live');

  // Not live yet: the chat says what to do.
  await page.reload();
  await expect(panel.getByText('Start the stream to use the chat').first()).toBeVisible();
  await expect(panel.getByRole('textbox', { name: 'Chat message' })).toBeDisabled();
  await shot(page, 'not-live');

  liveProject = projectId;
  await goLive(projectId);
  // The studio reads the broadcast as Go Live leaves it (its chat follows the connectors on its own).
  await page.reload();
  const chip = (id: string) => panel.getByTestId(`chat-filter-${id}`);
  for (const id of Object.values(ids)) await expect(chip(id)).toHaveAttribute('data-state', 'live', { timeout: 20_000 });

  await control(TWITCH(), 'say', { channel, login: 'kappa_fan', displayName: 'Kappa_Fan', text: 'Kappa hello from Twitch', emotes: '25:0-4' });
  await control(YOUTUBE(), 'post', { displayName: 'YT Viewer', text: 'hello from YouTube, see onair.example/live' });
  await control(FACEBOOK(), 'comment', { name: 'FB Friend', text: 'hello from Facebook' });
  const row = (text: string) => panel.getByTestId('chat-message').filter({ hasText: text });
  await expect(row('hello from Twitch')).toBeVisible();
  await expect(row('hello from Twitch').locator('svg[data-platform="twitch"]')).toBeVisible();
  await expect(row('hello from Twitch').getByRole('img', { name: 'Kappa' })).toHaveAttribute('src', /\/emoticons\/v2\/25\//);
  await expect(row('hello from YouTube').locator('svg[data-platform="youtube"]')).toBeVisible();
  await expect(row('hello from YouTube').getByRole('link', { name: 'onair.example/live' })).toHaveAttribute('href', 'https://onair.example/live');
  await expect(row('hello from Facebook').locator('svg[data-platform="facebook"]')).toBeVisible();
  await shot(page, 'three-platforms');

  // The reply goes to the chats that can send: Twitch and YouTube (Facebook live comments are read only).
  await expect(panel.getByRole('button', { name: /^Send to: / })).toHaveText('All chats');
  const box = panel.getByRole('textbox', { name: 'Chat message' });
  await box.fill('x'.repeat(201));
  await expect(panel.getByTestId('chat-counter')).toHaveText('201/200');
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await shot(page, 'over-the-limit');
  await box.fill('Thanks for watching, everyone!');
  await box.press('Enter');
  const reply = row('Thanks for watching, everyone!');
  await expect(reply.locator('[data-delivery="sent"]')).toHaveCount(2);
  await expect.poll(async () => (await control<{ text: string }[]>(TWITCH(), 'sent')).map((s) => s.text)).toContain('Thanks for watching, everyone!');
  await expect.poll(async () => (await control<{ text: string }[]>(YOUTUBE(), 'inserted')).map((s) => s.text)).toContain('Thanks for watching, everyone!');
  await expect(box).toHaveValue('');
  await shot(page, 'reply-sent');

  // Twitch goes away for a few seconds: its chat reconnects while YouTube and Facebook go on.
  await control(TWITCH(), 'drop', { ms: 4000 });
  await expect(chip(ids.twitch)).toHaveAttribute('data-state', 'reconnecting');
  await control(YOUTUBE(), 'post', { displayName: 'YT Viewer', text: 'YouTube during the outage' });
  await control(FACEBOOK(), 'comment', { name: 'FB Friend', text: 'Facebook during the outage' });
  await expect(row('YouTube during the outage')).toBeVisible();
  await expect(row('Facebook during the outage')).toBeVisible();
  await shot(page, 'twitch-reconnecting');
  await expect(chip(ids.twitch)).toHaveAttribute('data-state', 'live', { timeout: 20_000 });
  await control(TWITCH(), 'say', { channel, login: 'kappa_fan', displayName: 'Kappa_Fan', text: 'Twitch is back' });
  await expect(row('Twitch is back')).toBeVisible();

  // Markup from a platform is text, never HTML.
  await control(TWITCH(), 'say', { channel, login: 'markup', text: '<b>bold</b><img src=x onerror="document.title=1">' });
  const markup = row('<b>bold</b>');
  await expect(markup).toContainText('<b>bold</b><img src=x onerror="document.title=1">');
  await expect(markup.locator('b')).toHaveCount(0);
  await expect(markup.locator('img[src="x"]')).toHaveCount(0);

  // The filter: hiding Twitch leaves the others; All shows everything again.
  await chip(ids.twitch).click();
  await expect(row('Twitch is back')).toHaveCount(0);
  await expect(row('hello from Facebook')).toBeVisible();
  await panel.getByRole('button', { name: 'All', exact: true }).click();
  await expect(row('Twitch is back')).toBeVisible();

  // Unread while another tab is shown, cleared when the chat is viewed again.
  await page.getByRole('tab', { name: 'Event List' }).click();
  await control(FACEBOOK(), 'comment', { name: 'FB Friend', text: 'while you were away' });
  await expect(page.getByTestId('tab-badge-platform-chat')).toBeVisible();
  await shot(page, 'unread');
  await page.getByRole('tab', { name: /Platform Chat/ }).click();
  await expect(row('while you were away')).toBeVisible();
  await expect(page.getByTestId('tab-badge-platform-chat')).toHaveCount(0);

  // A studio opened later gets the broadcast's history from the server.
  const second = await context.newPage();
  await second.setViewportSize({ width: 1440, height: 900 });
  await second.goto(`/studio/${projectId}`);
  const secondPanel = second.getByRole('region', { name: 'Platform chat' });
  await expect(secondPanel.getByTestId('chat-message').filter({ hasText: 'hello from Twitch' })).toBeVisible();
  await expect(secondPanel.getByTestId('chat-message').filter({ hasText: 'Thanks for watching, everyone!' })).toBeVisible();
  await second.close();
});
