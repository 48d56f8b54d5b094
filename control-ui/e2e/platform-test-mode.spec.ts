import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { near, pixel, watchFrames } from './support/fake-media.ts';
import { openNewStudio, publicOrigin, signIn, confirmEndBroadcast } from './support/studio.ts';
import { twitchTestStreamUrl } from './support/local-stream.ts';

// Issue 39, the Connect flow as a newcomer meets it on the one-machine stack, whose Twitch runs in
// test mode on local doubles: Add Destination → Twitch (labelled test mode) → its popup → the
// double's consent page → back in the studio authenticated, the warning gone, the popup closed.
// Then live: the stream reaches the local RTMP server under Twitch's test key, the test-mode panel
// sends a chat message and a follow as a viewer, the creator answers in chat, and the follow's
// alert is read back by pixel from that RTMP output. Nothing here is written to the database.

const SHOTS = process.env.ONAIR_E2E_SHOTS;
const TWITCH_CHAT = () => process.env.ONAIR_E2E_CHAT_TWITCH!;
/** Where the alert card's colour block is on the 1280×720 canvas (the alerts overlay's lower right card, as in events.spec). */
const PROBE = { x: 720, y: 520 } as const;
const FOLLOW_RGB = [0xe0, 0x45, 0x7b];

async function control<T = unknown>(url: string, action: string, body: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${url}/_double/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.ok, `${action}: ${res.status}`).toBe(true);
  return ((await res.json()) as { result: T }).result;
}

/** Screenshots at both studio sizes of issue 39 (1280×720 and 1440×900), when ONAIR_E2E_SHOTS names a folder. */
async function shots(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  const before = page.viewportSize();
  for (const size of [
    { width: 1280, height: 720 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${SHOTS}/test-mode-${name}-${size.width}.png` });
  }
  if (before) await page.setViewportSize(before);
}

async function frameShot(frame: Buffer | undefined, name: string): Promise<void> {
  if (!SHOTS || !frame) return;
  await new Promise<void>((resolve) => {
    const ff = spawn('ffmpeg', ['-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', '1280x720', '-i', '-', `${SHOTS}/test-mode-${name}.png`]);
    ff.on('close', () => resolve());
    ff.stdin.end(frame);
  });
}

test('Twitch in test mode: connect through the popup and consent page, go live, chat and a follow from the audience panel, an answer, the alert in the output', async ({
  page,
  context,
}) => {
  test.setTimeout(300_000);
  // The popup ends on the api's public address: the whole flow stays on that origin, so the session cookie is the callback's.
  const origin = publicOrigin();
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(context.request, `test-mode-${randomUUID()}@example.test`, origin);
  const projectId = await openNewStudio(page, 'Test-mode show', origin);
  const destinations = page.getByRole('region', { name: 'Destinations' });

  // The picker says Twitch, YouTube and Facebook are test mode (no 'Not available').
  await destinations.getByRole('button', { name: 'Add Destination' }).click();
  for (const type of ['Twitch', 'YouTube', 'Facebook']) await expect(page.getByTestId(`destination-tile-${type}`)).toContainText('Test mode');
  await shots(page, '1-picker');
  await page.getByTestId('destination-tile-Twitch').click();
  const form = page.getByRole('dialog');
  await form.getByLabel('Title').fill('Test-mode speedrun');

  // Add Destination opens the platform's popup: the double's consent page, labelled test mode.
  const [popup] = await Promise.all([context.waitForEvent('page'), form.getByRole('button', { name: 'Add Destination' }).click()]);
  await expect(popup.getByText('Test mode — no real Twitch account')).toBeVisible();
  await expect(popup.getByRole('heading', { name: 'Connect OnAir to Twitch?' })).toBeVisible();
  const row = destinations.getByTestId('destination-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('alert')).toContainText('Your Twitch account requires authentication.');
  if (SHOTS) await popup.screenshot({ path: `${SHOTS}/test-mode-2-consent.png` });
  await shots(page, '2-waiting-for-consent');
  const channel = `ada_${randomUUID().slice(0, 6)}`;
  await popup.getByLabel('Test account name').fill(channel);
  // Bounded: a popup that stays open fails here in 30 s (the test's own budget is 5 min, a file's limit in the run).
  const closed = popup.waitForEvent('close', { timeout: 30_000 });
  await popup.getByRole('button', { name: 'Authorize' }).click();

  // Back in the studio: authenticated under the account's name, the warning gone, the popup closed.
  await closed;
  await expect(row.getByRole('alert')).toHaveCount(0);
  await expect(row).toContainText(channel);
  await expect(row).toContainText('Twitch · Horizontal · test mode');
  await expect(destinations.getByText('Test mode: Twitch')).toBeVisible();
  await shots(page, '3-connected');

  // Alerts in the program, before going live (as events.spec does it).
  await page.getByRole('tab', { name: 'Event List' }).click();
  const feed = page.getByRole('region', { name: 'Events feed' });
  await feed.getByRole('button', { name: 'Alerts in the program' }).click();
  const alerts = page.getByRole('dialog', { name: 'Alerts' });
  await alerts.getByRole('button', { name: 'Add alerts to the scene' }).click();
  await expect(alerts.getByText('The alerts are in your scene, over the whole picture.')).toBeVisible();
  await alerts.getByTestId('alert-row-follow').getByLabel('Seconds').fill('8');
  await alerts.getByRole('button', { name: 'Save alerts' }).click();
  await expect(alerts.getByText('Alerts saved')).toBeVisible();
  await alerts.getByRole('button', { name: 'Close' }).click();

  // Go Live: the Twitch destination streams to this machine's RTMP server under its test key.
  await destinations.getByRole('button', { name: 'Go Live' }).click();
  await expect(destinations.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 30_000 });
  // The channel's own stream on the local RTMP server, under the key the Twitch double gave it.
  const twitchOutput = await twitchTestStreamUrl(channel);

  // The audience panel (its own tab, from the destinations panel's test-mode note).
  const [panel] = await Promise.all([context.waitForEvent('page'), destinations.getByRole('link', { name: 'Act as the audience' }).click()]);
  await expect(panel).toHaveURL(new RegExp(`/projects/${projectId}/test-mode$`));
  await expect(panel.getByText('Test mode — no real platform accounts')).toBeVisible();
  const card = panel.getByRole('listitem', { name: `Twitch: ${channel}` });
  await panel.getByLabel('Viewer name').fill('kind_viewer');

  // A chat message as a viewer: the connector reads it over IRC once it joined the channel.
  const chat = page.getByRole('region', { name: 'Platform chat' });
  await page.getByRole('tab', { name: 'Platform Chat' }).click();
  await expect
    .poll(async () => (await control<string[]>(TWITCH_CHAT(), 'joined', { channel })).length, { timeout: 30_000, intervals: [250] })
    .toBeGreaterThan(0);
  await panel.getByLabel('Message (chat, comment, sub, cheer, Super Chat)').fill('Hello from the test audience!');
  await card.getByRole('button', { name: 'Chat message' }).click();
  await expect(panel.getByRole('log')).toContainText('Chat message from kind_viewer sent to');
  const message = chat.getByTestId('chat-message').filter({ hasText: 'Hello from the test audience!' });
  await expect(message).toBeVisible({ timeout: 15_000 });
  await expect(message.locator('svg[data-platform="twitch"]')).toBeVisible();
  await shots(panel, '4-panel');

  // The creator answers in chat: it reaches the Twitch double as the channel's own message.
  const box = chat.getByRole('textbox', { name: 'Chat message' });
  await box.fill('Welcome, kind_viewer!');
  await box.press('Enter');
  await expect
    .poll(async () => (await control<{ text: string }[]>(TWITCH_CHAT(), 'sent')).map((s) => s.text), { timeout: 15_000 })
    .toContain('Welcome, kind_viewer!');
  await shots(page, '5-chat');

  // A follow from the panel: in the events feed, and its alert card in the Twitch output, read by pixel.
  const followCard = (frame: Buffer) => near(pixel(frame, PROBE.x, PROBE.y), FOLLOW_RGB, 45);
  const followInOutput = watchFrames(twitchOutput, followCard, 90_000);
  await followInOutput.reading;
  await card.getByRole('button', { name: 'Follow' }).click();
  await expect(panel.getByRole('log')).toContainText('Follow from kind_viewer sent to');
  await expect(panel.getByRole('log').getByText(/not reading this channel/)).toHaveCount(0);
  await page.getByRole('tab', { name: 'Event List' }).click();
  await expect(feed.getByTestId('event-row').filter({ hasText: 'kind_viewer' })).toBeVisible({ timeout: 15_000 });
  const followFrame = await followInOutput;
  await frameShot(followFrame, '6-output-follow-alert');
  expect(followFrame, 'the follow card in the Twitch output').toBeDefined();
  await shots(page, '6-follow');

  await panel.close();
  await destinations.getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(page);
  await expect(destinations.getByRole('button', { name: 'Go Live' })).toBeVisible({ timeout: 30_000 });
});
