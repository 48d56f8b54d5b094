import { randomUUID } from 'node:crypto';
import { type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { CHROMIUM_ARGS } from './playwright.config.ts';
import { grantPremium, openNewStudio, signIn } from './support/studio.ts';

// Spec: a fake camera and microphone, and no permission prompt.
test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  },
  permissions: ['camera', 'microphone'],
});

const layer = (page: Page, kind: string): Locator => page.locator(`[data-testid="canvas-layer"][data-kind="${kind}"]`);
const boxOf = async (l: Locator) => (await l.getAttribute('data-box'))?.split(',').map(Number) ?? [];
const activeScene = (page: Page) => page.locator('[data-testid="scene-item"][aria-current="true"]');
/**
 * Spec: a second studio on the same project sees each change within a second. Waited for as an
 * event, not asserted by a timer: on a loaded CI machine the second studio once showed a drag
 * later than that and the flow passed only on its retry. (A patch's way from the api to the
 * program output is measured by media-worker/bench/patch-api-bench.ts; studio to studio has no
 * benchmark yet.)
 */
const SEEN = { timeout: 10_000 };

async function openSecondStudio(browser: Browser, first: BrowserContext, url: string): Promise<Page> {
  const context = await browser.newContext({ storageState: await first.storageState(), permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByRole('status').filter({ hasText: 'Synced' })).toBeVisible();
  return page;
}

test('two studios edit one project live: sources, drag, resize and scene switches', async ({ page, context, browser }) => {
  test.setTimeout(90_000);
  const email = `studio-${randomUUID()}@example.test`;
  await signIn(context.request, email);
  await grantPremium(context.request);

  await openNewStudio(page, 'Friday stream');
  await expect(page.getByRole('status').filter({ hasText: 'Synced' })).toBeVisible();
  await expect(activeScene(page)).toContainText('Scene 1');
  // Beam on Premium: the plan may hide the logo, so the new project comes without it (Free: see below).
  await expect(layer(page, 'webcam')).toHaveCount(1);
  await expect(layer(page, 'watermark')).toHaveCount(0);

  const second = await openSecondStudio(browser, context, page.url());

  // The host's camera is in a new project's first scene (spec §9 placement): live from the fake device here, and in the other studio.
  await expect(layer(page, 'webcam')).toHaveAttribute('data-box', '40,40,640,360');
  await expect(layer(page, 'webcam').locator('video')).toBeVisible();
  await expect(layer(second, 'webcam')).toHaveAttribute('data-box', '40,40,640,360', SEEN);
  // Below the logo, which is drawn over the camera's top-left corner.
  await layer(page, 'webcam').click({ position: { x: 20, y: 80 } });

  // Camera Settings (spec §2): the fake camera in the grid, 'Mirror Camera' on the source for both studios and remembered here.
  await page.getByRole('button', { name: 'Camera settings' }).click();
  const cameraSettings = page.getByRole('dialog', { name: 'Camera Settings' });
  await expect(cameraSettings).toHaveAccessibleDescription('Configure your camera settings');
  await expect(cameraSettings.getByText('Configure your camera settings', { exact: true }).last()).toBeVisible();
  await expect(cameraSettings.getByLabel('Microphone')).toBeVisible();
  await expect(cameraSettings.getByRole('group', { name: 'Cameras' }).locator('video').first()).toBeVisible();
  await cameraSettings.getByRole('group', { name: 'Cameras' }).getByRole('button').first().click();
  await cameraSettings.getByRole('switch', { name: 'Mirror Camera' }).click();
  await expect(cameraSettings.getByRole('switch', { name: 'Mirror Camera' })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await expect(cameraSettings).toBeHidden();
  await expect(layer(page, 'webcam').locator('video')).toHaveClass(/mirrored/);
  // Device ids are private to a browser profile: in the other studio the chosen id is unknown,
  // and an unknown camera resets to none (spec §4), so it shows the placeholder.
  await expect(layer(second, 'webcam')).toContainText('Camera Offline', SEEN);
  expect(await page.evaluate(() => [localStorage.getItem('isMirrored'), localStorage.getItem('onair.cameraDeviceId')])).toEqual(['true', expect.any(String)]);

  // A browser source at its spec placement.
  await page.getByRole('button', { name: 'Add source' }).click();
  await page.getByRole('menuitem', { name: 'Browser Source' }).click();
  await expect(layer(page, 'webpage')).toHaveAttribute('data-box', '200,36,852,480');
  await expect(layer(second, 'webpage')).toHaveAttribute('data-box', '200,36,852,480', SEEN);

  // Drag the camera with the mouse.
  const camera = layer(page, 'webcam');
  await camera.click({ position: { x: 20, y: 80 } });
  const before = await camera.boundingBox();
  if (!before) throw new Error('camera layer not laid out');
  await page.mouse.move(before.x + 20, before.y + 80);
  await page.mouse.down();
  await page.mouse.move(before.x + 80, before.y + 120, { steps: 5 });
  await page.mouse.move(before.x + 120, before.y + 150, { steps: 5 });
  await page.mouse.up();
  const [x, y] = await boxOf(camera);
  expect(x).toBeGreaterThan(40);
  expect(y).toBeGreaterThan(40);
  const moved = (await camera.getAttribute('data-box')) ?? '';
  await expect(layer(second, 'webcam')).toHaveAttribute('data-box', moved, SEEN);

  // Resize it from its bottom-right corner.
  const handle = camera.getByTestId('resize-se');
  const corner = await handle.boundingBox();
  if (!corner) throw new Error('resize handle not shown');
  await page.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
  await page.mouse.down();
  await page.mouse.move(corner.x - 60, corner.y - 40, { steps: 5 });
  await page.mouse.up();
  const [, , width, height] = await boxOf(camera);
  expect(width).toBeLessThan(640);
  expect(height).toBeLessThan(360);
  const resized = (await camera.getAttribute('data-box')) ?? '';
  await expect(layer(second, 'webcam')).toHaveAttribute('data-box', resized, SEEN);

  // The keyboard moves the selected layer too.
  await page.keyboard.press('Shift+ArrowRight');
  const [nudgedX] = await boxOf(camera);
  expect(nudgedX).toBe(x! + 10);
  await expect(layer(second, 'webcam')).toHaveAttribute('data-box', (await camera.getAttribute('data-box')) ?? '', SEEN);

  // A second scene, switched to, with the logo added from the picker's Hidden group.
  await page.getByRole('button', { name: 'Add scene' }).click();
  await page.getByRole('button', { name: 'Scene 2', exact: true }).click();
  await expect(activeScene(page)).toContainText('Scene 2');
  await expect(activeScene(second)).toContainText('Scene 2', SEEN);
  await expect(layer(page, 'webcam')).toHaveCount(0);
  await page.getByRole('button', { name: 'Add source' }).click();
  await page.getByRole('menuitem', { name: 'Watermark' }).click();
  await expect(layer(page, 'watermark')).toHaveAttribute('data-box', '30,30,237,62');
  await expect(layer(second, 'watermark')).toHaveAttribute('data-box', '30,30,237,62', SEEN);

  // Back to the first scene: the other studio follows, with the moved camera.
  await page.getByRole('button', { name: 'Scene 1', exact: true }).click();
  await expect(activeScene(second)).toContainText('Scene 1', SEEN);
  await expect(layer(second, 'webcam')).toHaveAttribute('data-box', (await camera.getAttribute('data-box')) ?? '', SEEN);

  // What the studios show is what the server stored.
  const projectId = page.url().split('/').pop();
  const stored = (await (await context.request.get(`/api/v1/projects/${projectId}/scene`)).json()) as { version: number; scenes: { name: string }[] };
  expect(stored.scenes.map((s) => s.name)).toEqual(['Scene 1', 'Scene 2']);
  expect(stored.version).toBeGreaterThanOrEqual(8);
  await second.context().close();
});

test('a Free creator keeps the logo and one game source per scene, and is told why', async ({ page, context }) => {
  await signIn(context.request, `free-${randomUUID()}@example.test`);
  await page.goto('/');
  await page.getByLabel('New project').fill('Free show');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Synced' })).toBeVisible();

  // New scenes get the logo on Free.
  await page.getByRole('button', { name: 'Add scene' }).click();
  await page.getByRole('button', { name: 'Scene 2', exact: true }).click();
  await expect(layer(page, 'watermark')).toHaveAttribute('data-box', '30,30,237,62');

  // Hiding it is undone with the plan's words.
  await page.getByRole('button', { name: 'Hide Watermark' }).click();
  await expect(page.getByText('Your plan shows the OnAir logo on all streams. Upgrade to hide or replace it.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hide Watermark' })).toBeVisible();

  // One game source per scene: the picker says so once there is one.
  await page.getByRole('button', { name: 'Add source' }).click();
  await page.getByRole('menuitem', { name: 'Game Source' }).click();
  await expect(layer(page, 'game')).toHaveAttribute('data-box', '40,40,640,360');
  await expect(layer(page, 'game')).toContainText('Game Source Offline');
  await page.getByRole('button', { name: 'Add source' }).click();
  await expect(page.getByRole('menuitem', { name: /Game Source/ })).toContainText('You can only add one game source to each scene');
  await expect(page.getByRole('menuitem', { name: /Game Source/ })).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Escape');

  // Restack with the mouse: drag the logo's row onto the game source's row, which is in front.
  const rows = page.getByTestId('layer-item');
  await expect(rows.first()).toContainText('Game Source');
  await rows.filter({ hasText: 'Watermark' }).dragTo(rows.filter({ hasText: 'Game Source' }));
  await expect(rows.first()).toContainText('Watermark');
  await expect(page.getByTestId('canvas-layer').last()).toHaveAttribute('data-kind', 'watermark');
});
