import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { near, pixel, watchFrames } from './support/fake-media.ts';
import { openNewStudio, publicOrigin, signIn, confirmEndBroadcast } from './support/studio.ts';
import { localStreamUrl, twitchTestStreamUrl } from './support/local-stream.ts';

// Issue 39 item 4, chat on screen as a host meets it: live to the local server (horizontal) and to
// Twitch in test mode (vertical; connected through its popup, as platform-test-mode.spec does), a
// viewer writes in chat with markup in the message, the host clicks the message: it is drawn in the
// program as a lower third — the Twitch colour block, the name and the text — read back by pixel
// from both RTMP outputs; the host clicks it again and it is gone from both. The markup is shown as the characters it is. Then a message of the room
// (Guest Chat) goes on screen in the studio's colour and is taken off from the bar. Nothing is
// written to the database.

const SHOTS = process.env.ONAIR_E2E_SHOTS;
const TWITCH_CHAT = () => process.env.ONAIR_E2E_CHAT_TWITCH!;
/**
 * The lower third on the 1280×720 output (drawn by the pipeline where the overlay page's card is: left 4vw, top 71vh, 70vw × 22vh,
 * its colour block 22vh square on the left): a point of the colour block clear of the platform mark,
 * a point of the card below its text, and the region its text is drawn in.
 */
const BADGE = { x: 66, y: 526 } as const;
const CARD = { x: 900, y: 660 } as const;
const TEXT = { left: 231, top: 535, right: 900, bottom: 645 } as const;
const TWITCH_RGB = [0x91, 0x46, 0xff];
const CARD_RGB = [0x15, 0x18, 0x21];
/** The room's (the studio's guest chat) colour. */
const ROOM_RGB = [0x6d, 0x7c, 0xff];

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
    await page.screenshot({ path: `${SHOTS}/chat-on-screen-${name}-${size.width}.png` });
  }
  if (before) await page.setViewportSize(before);
}

/** A frame of the output as a PNG beside the screenshots; a vertical output's frame (read squeezed to 1280×720) at its own 720×1280. */
async function frameShot(frame: Buffer | undefined, name: string, vertical = false): Promise<void> {
  if (!SHOTS || !frame) return;
  const size = vertical ? ['-vf', 'scale=720:1280'] : [];
  await new Promise<void>((resolve) => {
    const ff = spawn('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-s',
      '1280x720',
      '-i',
      '-',
      ...size,
      `${SHOTS}/chat-on-screen-${name}.png`,
    ]);
    ff.on('close', () => resolve());
    ff.stdin.end(frame);
  });
}

/**
 * The same places on the vertical output: the lower third is drawn in a 720×405 band at the bottom of the
 * 720×1280 canvas (y from 875), and frames are read squeezed to 1280×720 (x × 16/9, y × 9/16).
 */
const V_BADGE = { x: 66, y: 662 } as const;
const V_TEXT = { left: 231, top: 662, right: 900, bottom: 697 } as const;

/** Light pixels (text drawn white) in the lower third's text region. */
function textPixels(frame: Buffer, region: typeof TEXT | typeof V_TEXT = TEXT): number {
  let count = 0;
  for (let y = region.top; y < region.bottom; y += 2) for (let x = region.left; x < region.right; x += 2) if (pixel(frame, x, y).every((v) => v > 170)) count++;
  return count;
}

const badgeShown = (frame: Buffer) => near(pixel(frame, BADGE.x, BADGE.y), TWITCH_RGB, 50);
const lowerThirdShown = (frame: Buffer) => badgeShown(frame) && near(pixel(frame, CARD.x, CARD.y), CARD_RGB, 30) && textPixels(frame) > 150;
const verticalBadgeShown = (frame: Buffer) => near(pixel(frame, V_BADGE.x, V_BADGE.y), TWITCH_RGB, 50);
const verticalShown = (frame: Buffer) => verticalBadgeShown(frame) && textPixels(frame, V_TEXT) > 40;

test('chat on screen: a Twitch viewer’s message clicked into the program, found by pixel in the RTMP output, clicked off again', async ({ page, context }) => {
  test.setTimeout(300_000);
  const origin = publicOrigin();
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(context.request, `on-screen-${randomUUID()}@example.test`, origin);
  const projectId = await openNewStudio(page, 'Chat on screen show', origin);
  const destinations = page.getByRole('region', { name: 'Destinations' });
  const rows = destinations.getByTestId('destination-row');

  // Both canvases: the local server takes the horizontal one, Twitch (test mode) the vertical one.
  await destinations.getByRole('button', { name: 'Add Destination' }).click();
  await page.getByTestId('destination-tile-Local').click();
  await expect(rows).toHaveCount(1);
  await destinations.getByRole('button', { name: 'Add Destination' }).click();
  await page.getByTestId('destination-tile-Twitch').click();
  const form = page.getByRole('dialog');
  await form.getByLabel('Title').fill('Chat on screen');
  await form.getByLabel('Canvas').click();
  await page.getByRole('option', { name: 'Vertical 9:16' }).click();
  const [popup] = await Promise.all([context.waitForEvent('page'), form.getByRole('button', { name: 'Add Destination' }).click()]);
  await expect(popup.getByRole('heading', { name: 'Connect OnAir to Twitch?' })).toBeVisible();
  // The destination is saved (waiting for its sign-in) before the consent is given.
  await expect(rows).toHaveCount(2);
  const channel = `ada_${randomUUID().slice(0, 6)}`;
  await popup.getByLabel('Test account name').fill(channel);
  const closed = popup.waitForEvent('close', { timeout: 30_000 });
  await popup.getByRole('button', { name: 'Authorize' }).click();
  await closed;
  const row = rows.filter({ hasText: channel });
  await expect(row).toContainText('Twitch · Vertical');
  await expect(row.getByRole('alert')).toHaveCount(0);

  await destinations.getByRole('button', { name: 'Go Live' }).click();
  await expect(destinations.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 30_000 });
  // This project's own Local stream, and the Twitch channel's own ingest stream.
  const output = await localStreamUrl(context.request, projectId, origin);
  const verticalOutput = await twitchTestStreamUrl(channel);

  // A viewer writes, with markup in the message, from the test-mode audience panel.
  const [panel] = await Promise.all([context.waitForEvent('page'), destinations.getByRole('link', { name: 'Act as the audience' }).click()]);
  const card = panel.getByRole('listitem', { name: `Twitch: ${channel}` });
  await panel.getByLabel('Viewer name').fill('kind_viewer');
  const chat = page.getByRole('region', { name: 'Platform chat' });
  await page.getByRole('tab', { name: 'Platform Chat' }).click();
  await expect
    .poll(async () => (await control<string[]>(TWITCH_CHAT(), 'joined', { channel })).length, { timeout: 30_000, intervals: [250] })
    .toBeGreaterThan(0);
  const text = '<b>x</b> Love this stream!';
  await panel.getByLabel('Message (chat, comment, sub, cheer, Super Chat)').fill(text);
  await card.getByRole('button', { name: 'Chat message' }).click();
  await panel.close();
  const message = chat.getByTestId('chat-message').filter({ hasText: text });
  await expect(message).toBeVisible({ timeout: 15_000 });
  await expect(message.locator('b')).toHaveCount(0);

  // The bar says what to do; the message stays until taken off (chosen here: on a loaded machine the output may take a while to show it).
  const bar = chat.getByTestId('on-screen-bar');
  await expect(bar).toContainText('Click a message to show it on screen');
  await bar.getByRole('combobox', { name: 'How long a message stays on screen' }).click();
  await page.getByRole('option', { name: 'Until taken off' }).click();
  await message.hover();
  await shots(page, '1-before');

  // A click on the message: on screen. The studio marks it once the worker reports it drawn; the
  // pipeline draws it, so no web page joins the scene.
  await message.click();
  await expect(message.getByTestId('on-screen-badge')).toHaveText('On screen', { timeout: 15_000 });
  await expect(message.getByRole('button', { name: 'Take off screen' })).toHaveAttribute('aria-pressed', 'true');
  await expect(bar).toContainText('On screen: kind_viewer');
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="webpage"]')).toHaveCount(0);

  // In the RTMP outputs: the Twitch colour block, the card, and its text, on both canvases.
  const [shown, shownVertical] = await Promise.all([watchFrames(output, lowerThirdShown, 120_000), watchFrames(verticalOutput, verticalShown, 120_000)]);
  await frameShot(shown, '2-output-on-screen');
  await frameShot(shownVertical, '2-output-on-screen-vertical', true);
  expect(shown, 'the lower third in the horizontal output').toBeDefined();
  expect(shownVertical, 'the lower third in the vertical output').toBeDefined();
  await shots(page, '2-on-screen');

  // The overlay page (for a creator's own streaming tool) draws the markup as the characters it is, with the sender's name and platform.
  const view = (await (await context.request.get(`${origin}/api/v1/projects/${projectId}/chat/on-screen`)).json()) as { overlayUrl: string };
  const overlay = await context.newPage();
  await overlay.goto(view.overlayUrl);
  const lowerThird = overlay.getByTestId('chat-on-screen');
  await expect(lowerThird).toHaveAttribute('data-platform', 'twitch');
  await expect(lowerThird.locator('#text')).toHaveText(text);
  await expect(lowerThird.locator('#name')).toHaveText('kind_viewer');
  await expect(lowerThird.locator('#platform')).toHaveText('Twitch');
  await expect(lowerThird.locator('b')).toHaveCount(0);

  // A reload of the studio keeps it (the state is the project's).
  await page.reload();
  await page.getByRole('tab', { name: 'Platform Chat' }).click();
  await expect(message.getByTestId('on-screen-badge')).toBeVisible({ timeout: 15_000 });

  // Clicked again: off. The overlay page and the output are clear of it.
  await message.click();
  await expect(message.getByTestId('on-screen-badge')).toHaveCount(0);
  await expect(chat.getByTestId('on-screen-bar')).toContainText('Click a message to show it on screen');
  await expect(lowerThird).toBeHidden();
  await overlay.close();
  let clear = 0;
  let clearVertical = 0;
  const [gone, goneVertical] = await Promise.all([
    watchFrames(output, (frame) => (clear = badgeShown(frame) || textPixels(frame) > 20 ? 0 : clear + 1) >= 3, 60_000),
    watchFrames(verticalOutput, (frame) => (clearVertical = verticalBadgeShown(frame) ? 0 : clearVertical + 1) >= 3, 60_000),
  ]);
  await frameShot(gone, '3-output-removed');
  await frameShot(goneVertical, '3-output-removed-vertical', true);
  expect(gone, 'the lower third gone from the horizontal output').toBeDefined();
  expect(goneVertical, 'the lower third gone from the vertical output').toBeDefined();
  await shots(page, '3-removed');

  // A message of the room (the studio's own chat with the guests) goes on screen the same way, in the studio's colour.
  await page.getByRole('tab', { name: 'Guest Chat' }).click();
  await page.getByLabel('Message to the room').fill('Thanks for joining <i>everyone</i>');
  await page.getByLabel('Message to the room').press('Enter');
  const roomMessage = page.getByTestId('guest-chat-message').filter({ hasText: 'Thanks for joining <i>everyone</i>' });
  await roomMessage.getByRole('button', { name: 'Show on screen' }).click();
  await expect(roomMessage.getByTestId('on-screen-badge')).toHaveText('On screen', { timeout: 15_000 });
  const roomShown = await watchFrames(output, (frame) => near(pixel(frame, BADGE.x, BADGE.y), ROOM_RGB, 50) && textPixels(frame) > 150, 60_000);
  await frameShot(roomShown, '4-output-room-message');
  expect(roomShown, 'the room message in the output').toBeDefined();
  await shots(page, '4-room-message');
  const roomBar = page.getByTestId('on-screen-bar');
  await roomBar.getByRole('button', { name: 'Take off' }).click();
  await expect(roomMessage.getByTestId('on-screen-badge')).toHaveCount(0);
  await expect(roomBar).toContainText('Click a message to show it on screen');

  await destinations.getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(page);
  await expect(destinations.getByRole('button', { name: 'Go Live' })).toBeVisible({ timeout: 30_000 });
});
