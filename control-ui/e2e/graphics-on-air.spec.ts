import { randomUUID } from 'node:crypto';
import { expect, test } from './support/fixtures.ts';
import { near } from './support/fake-media.ts';
import { colourAt, readStream } from './support/stream-reader.ts';
import { localStreamUrl } from './support/local-stream.ts';
import { confirmEndBroadcast, openNewStudio, publicOrigin, signIn } from './support/studio.ts';

// Issue 53 item 1, graphics on air at once: a message of the room (Guest Chat) is put on screen and
// taken off, again and again, while the program goes out to the local RTMP server; one reader of
// that output, started before the first click, times each frame as it arrives. Each try records the
// click → the first output frame with the lower third, and the take-off → the first frame without
// it, as annotations (`graphic-shown-ms`, `graphic-gone-ms`; `bench/graphics-on-air.ts` runs this
// flow with more tries and prints their percentiles). The lower third is drawn by the session's
// pipeline (media-worker/src/pipeline/lower-third.ts), no web page in the scene. The flow asserts
// what the output shows (the lower third there, then gone, every try) and what the studio says
// (Showing…, then On screen once the worker reports it), never how long it took.
//
// ONAIR_GRAPHICS_TRIES: how many show/take-off pairs (3 by default).

const TRIES = Math.max(1, Number(process.env.ONAIR_GRAPHICS_TRIES ?? 3));
/** The room's colour, the lower third's colour block (on the 1280×720 output: left 51–209, top 511–669), read below its white mark. */
const ROOM_RGB = [0x6d, 0x7c, 0xff];
const BADGE = { x: 110, y: 650 } as const;
const badgeShown = (rgb: Buffer) => near(colourAt(rgb, BADGE.x, BADGE.y), ROOM_RGB, 60);
const describe = (rgb: Buffer) => `(${colourAt(rgb, BADGE.x, BADGE.y).join(',')}) where the colour block goes`;

test('graphics on air: a chat message shown and taken off, timed from each click to the output frame', async ({ page, context }) => {
  test.setTimeout(240_000 + TRIES * 60_000);
  const origin = publicOrigin();
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(context.request, `graphics-${randomUUID()}@example.test`, origin);
  const projectId = await openNewStudio(page, 'Graphics on air', origin);
  const destinations = page.getByRole('region', { name: 'Destinations' });
  await destinations.getByRole('button', { name: 'Add Destination' }).click();
  await page.getByTestId('destination-tile-Local').click();
  await expect(destinations.getByTestId('destination-row')).toHaveCount(1);
  await destinations.getByRole('button', { name: 'Go Live' }).click();
  await expect(destinations.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 30_000 });

  const output = readStream(await localStreamUrl(context.request, projectId, origin));
  try {
    await page.getByRole('tab', { name: 'Guest Chat' }).click();
    const text = `Graphics test ${randomUUID().slice(0, 6)}`;
    await page.getByLabel('Message to the room').fill(text);
    await page.getByLabel('Message to the room').press('Enter');
    const message = page.getByTestId('guest-chat-message').filter({ hasText: text });
    await expect(message).toBeVisible();
    const bar = page.getByTestId('on-screen-bar');
    await bar.getByRole('combobox', { name: 'How long a message stays on screen' }).click();
    await page.getByRole('option', { name: 'Until taken off' }).click();
    // The output is read before the first click: the first frames only tell the reader is on the live stream.
    await output.frameWhere('any picture', () => true, 0, 60_000);
    expect(badgeShown(output.latestFrame()!.rgb), 'nothing on screen before the first click').toBe(false);

    for (let attempt = 1; attempt <= TRIES; attempt++) {
      // Shown: the click, then the first output frame with the colour block.
      const clickedOn = performance.now();
      await message.getByRole('button', { name: 'Show on screen' }).click();
      const shown = await output.frameWhere('the lower third', badgeShown, clickedOn, 120_000, describe);
      test.info().annotations.push({ type: 'graphic-shown-ms', description: String(Math.round(shown.at - clickedOn)) });
      // The studio says On screen once the worker has it on air (by then it is: the frame was read).
      await expect(message.getByTestId('on-screen-badge')).toHaveText('On screen', { timeout: 15_000 });
      await expect(bar).toContainText('On screen: ');
      // A moment on screen, as a creator would leave it.
      await page.waitForTimeout(1000);

      // Taken off: the click, then the first output frame without it (and it stays gone).
      const clickedOff = performance.now();
      await bar.getByRole('button', { name: 'Take off' }).click();
      const gone = await output.frameWhere('the lower third gone', (rgb) => !badgeShown(rgb), clickedOff, 60_000, describe);
      test.info().annotations.push({ type: 'graphic-gone-ms', description: String(Math.round(gone.at - clickedOff)) });
      await expect(message.getByTestId('on-screen-badge')).toHaveCount(0, { timeout: 15_000 });
      await expect(bar).toContainText('Click a message to show it on screen');
      // Drawn by the pipeline: the scene never got a web page for it.
      await expect(page.locator('[data-testid="canvas-layer"][data-kind="webpage"]')).toHaveCount(0);
      const settled = performance.now();
      await page.waitForTimeout(1000);
      const after = output.frames.filter((f) => f.at >= settled);
      expect(after.length, 'the output went on after the take-off').toBeGreaterThan(0);
      expect(after.filter((f) => badgeShown(f.rgb)).length, 'no frame showed the lower third again after it was gone').toBe(0);
    }
  } finally {
    output.stop();
  }

  await destinations.getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(page);
  await expect(destinations.getByRole('button', { name: 'Go Live' })).toBeVisible({ timeout: 30_000 });
});
