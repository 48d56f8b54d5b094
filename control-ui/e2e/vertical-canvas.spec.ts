import { randomUUID } from 'node:crypto';
import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { CHROMIUM_ARGS } from './playwright.config.ts';
import { openNewStudio, signIn } from './support/studio.ts';

// Issue 20: the same editor edits the vertical canvas of the scene.
test.use({
  viewport: { width: 1440, height: 900 },
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  },
  permissions: ['camera', 'microphone'],
});

const layer = (page: Page, kind: string): Locator => page.locator(`[data-testid="canvas-layer"][data-kind="${kind}"]`);
const boxOf = async (l: Locator) => ((await l.getAttribute('data-box')) ?? '').split(',').map(Number);
/** The box once the edits are confirmed: Synced, and the same on two reads 300 ms apart (no echo still arriving). */
async function settledBox(page: Page, l: Locator): Promise<number[]> {
  await expect(page.getByRole('status').filter({ hasText: 'Synced' })).toBeVisible();
  let last = '';
  await expect
    .poll(
      async () => {
        const now = (await l.getAttribute('data-box')) ?? '';
        const same = now === last;
        last = now;
        return same;
      },
      { intervals: [300] },
    )
    .toBe(true);
  return boxOf(l);
}

test('switch the editor to the vertical canvas, move a layer, and the preview follows; the horizontal layout stays', async ({ page, context }) => {
  test.setTimeout(60_000);
  await signIn(context.request, `vertical-${randomUUID()}@example.test`);
  await openNewStudio(page, 'Vertical stream');
  await expect(page.getByRole('status').filter({ hasText: 'Synced' })).toBeVisible();
  const canvas = page.getByTestId('program-canvas');
  const camera = layer(page, 'webcam');
  await expect(camera).toHaveAttribute('data-box', '40,40,640,360');
  const wide = (await canvas.boundingBox())!;
  expect(wide.width / wide.height).toBeCloseTo(16 / 9, 1);

  // The switch: the canvas turns 9:16, and the camera (alone in the scene) fills it, cropped at the sides.
  const switcher = page.getByRole('group', { name: 'Canvas' });
  await switcher.getByRole('button', { name: 'Vertical' }).click();
  await expect(switcher.getByRole('button', { name: 'Vertical' })).toHaveAttribute('aria-pressed', 'true');
  await expect(canvas).toHaveAttribute('data-canvas', 'vertical');
  const tall = (await canvas.boundingBox())!;
  expect(tall.width / tall.height).toBeCloseTo(9 / 16, 1);
  const [x0, y0, w0, h0] = await boxOf(camera);
  expect([y0, h0]).toEqual([0, 1280]);
  expect(x0! * 2 + w0!).toBe(720);
  await page.screenshot({ path: 'test-results/vertical-canvas-derived.png' });

  // Shrink it from its bottom-right corner... the corner is off the canvas (the camera is wider
  // than the vertical canvas), so resize with the keyboard, then drag it with the mouse.
  await camera.click({ position: { x: (await camera.boundingBox())!.width / 2, y: 40 } });
  for (let i = 0; i < 5; i++) await page.keyboard.press('Alt+ArrowUp');
  const shrunk = await settledBox(page, camera);
  expect(shrunk[3]).toBeLessThan(1280);
  await expect(camera).toHaveAttribute('data-box', shrunk.join(','));

  const onScreen = (await camera.boundingBox())!;
  const grabX = tall.x + tall.width / 2;
  const grabY = tall.y + 60;
  await page.mouse.move(grabX, grabY);
  await page.mouse.down();
  await page.mouse.move(grabX, grabY + 80, { steps: 5 });
  await page.mouse.move(grabX, grabY + 160, { steps: 5 });
  await page.mouse.up();
  // The edit is confirmed by the server (the box survives the echo) and the drawn layer moved down.
  await expect.poll(async () => (await boxOf(camera))[1]).toBeGreaterThan(shrunk[1]! + 100);
  const moved = await settledBox(page, camera);
  const after = (await camera.boundingBox())!;
  expect(after.y).toBeGreaterThan(onScreen.y + 100);
  await expect(page.getByRole('status').filter({ hasText: 'Synced' })).toBeVisible();
  await page.screenshot({ path: 'test-results/vertical-canvas-moved.png' });

  // After a reload the vertical layout is the saved one.
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Synced' })).toBeVisible();
  await expect(camera).toHaveAttribute('data-box', '40,40,640,360');
  await page.getByRole('group', { name: 'Canvas' }).getByRole('button', { name: 'Vertical' }).click();
  await expect(camera).toHaveAttribute('data-box', moved.join(','));

  // The horizontal canvas did not move.
  await page.getByRole('group', { name: 'Canvas' }).getByRole('button', { name: 'Horizontal' }).click();
  await expect(canvas).toHaveAttribute('data-canvas', 'horizontal');
  await expect(camera).toHaveAttribute('data-box', '40,40,640,360');
});
