// Issue 38 acceptance in the system Chromium at 1280×720: a new creator picks 'Beam' and their fake
// camera (orange) fills the program the local RTMP destination receives, all but the logo; the side
// column's Go Live, Add Destination and Platform Chat tab sit inside the window and take a click
// without any scrolling. Then, Premium, with a guest whose camera is blue: Side by side shows the
// camera left and the guest right in the output, Picture in picture with a screen share shows the
// screen (Chromium's fake screen: green) full frame with the camera in the lower right corner; the
// 'Interview' template is added to the project and its scene switched to.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type Locator, type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { fakeMediaLaunchOptions, grabFrame, near, ORANGE, pixel, probeStreams } from './support/fake-media.ts';
import { grantPremium, openNewStudio, signIn, confirmEndBroadcast } from './support/studio.ts';
import { localStreamUrl } from './support/local-stream.ts';

const SHOTS = process.env.ONAIR_E2E_SHOTS;
const BLUE = [0, 64, 255];
const isScreenGreen = ([r, g, b]: number[]) => g! > 50 && g! - r! > 40 && g! - b! > 40;
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;

test.use({
  launchOptions: fakeMediaLaunchOptions(),
  permissions: ['camera', 'microphone', 'clipboard-read', 'clipboard-write'],
  viewport: { width: 1280, height: 720 },
});

let guestBrowser: Browser | undefined;
test.afterAll(async () => {
  await guestBrowser?.close();
});

/** Inside the window, not covered by anything else, and taking a click where it is: nothing to scroll to. */
async function reachable(page: Page, target: Locator, what: string): Promise<void> {
  const box = await target.boundingBox();
  expect(box, `${what} is drawn`).not.toBeNull();
  const viewport = page.viewportSize()!;
  expect(
    box!.x >= 0 && box!.y >= 0 && box!.x + box!.width <= viewport.width && box!.y + box!.height <= viewport.height,
    `${what} inside ${viewport.width}×${viewport.height}: ${JSON.stringify(box)}`,
  ).toBe(true);
  // The element a click at its centre lands on is it (or inside it): no panel scrolled, nothing over it.
  const hit = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return top !== null && (el === top || el.contains(top));
  });
  expect(hit, `${what} takes a click at its centre`).toBe(true);
  // An enabled control takes the click as it is (Go Live stays disabled until a destination is on).
  if (await target.isEnabled()) await target.click({ trial: true, timeout: 2000 });
}

/** Waits for an output frame that `seen` accepts; says what the output showed otherwise. */
async function outputShows(localUrl: string, what: string, seen: (rgb: Buffer) => boolean, describe: (rgb: Buffer) => string): Promise<Buffer> {
  let last = 'no frame';
  let frame: Buffer | undefined;
  await expect
    .poll(
      async () => {
        const rgb = await grabFrame(localUrl);
        if (!rgb) return false;
        last = describe(rgb);
        if (seen(rgb)) frame = rgb;
        return frame !== undefined;
      },
      { timeout: 60_000, intervals: [500], message: `the output shows ${what}` },
    )
    .toBe(true)
    .catch((err: unknown) => {
      throw new Error(`${(err as Error).message}; last frame: ${last}`);
    });
  test.info().annotations.push({ type: 'output', description: `${what}: ${last}` });
  return frame!;
}

async function screenshots(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/${name}-${size.width}x${size.height}.png` });
  }
  await page.setViewportSize(SIZES[0]);
}

test("Beam: a new creator's camera fills the program; Go Live, Add Destination and Platform Chat fit a 1280×720 window", async ({ page, context }) => {
  test.setTimeout(180_000);
  await signIn(context.request, `beam-${randomUUID()}@example.test`);
  // Premium: three destinations (Free has two, and no custom RTMP).
  await grantPremium(context.request);
  await page.goto('/');
  await expect(page.getByLabel('Template')).toHaveText('Beam');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/new-project-template.png` });
  const projectId = await openNewStudio(page, 'Beam show', '', { template: 'Beam' });
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="webcam"]')).toHaveAttribute('data-box', '0,0,1280,720');
  // Full frame: its corners are the canvas's own, square (the worker draws it so too).
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="webcam"]')).toHaveAttribute('data-corner-radius', '0');
  // It covers its box, as the worker cuts it (the camera's own aspect kept, centred).
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="webcam"]')).toHaveAttribute('data-fit', 'cover');
  await expect(page.getByTestId('media-connection')).toHaveText('Connected', { timeout: 60_000 });
  await screenshots(page, 'studio-empty');

  const destinations = page.getByRole('region', { name: 'Destinations' });
  await reachable(page, destinations.getByRole('button', { name: 'Go Live' }), 'Go Live');
  await reachable(page, destinations.getByRole('button', { name: 'Add Destination' }), 'Add Destination');
  await reachable(page, page.getByRole('tab', { name: 'Platform Chat' }), 'the Platform Chat tab');

  // Three destinations: the column still fits, and only their list gives way.
  for (const name of ['One', 'Two']) {
    const added = await context.request.post(`/api/v1/projects/${page.url().split('/').pop()}/destinations`, {
      data: { type: 'CustomRTMP', name, rtmpUrl: 'rtmp://93.184.216.34/live', streamKey: `key-${name}` },
    });
    expect(added.status(), await added.text()).toBe(201);
  }
  await destinations.getByRole('button', { name: 'Add Destination' }).click();
  await page.getByTestId('destination-tile-Local').click();
  await expect(destinations.getByTestId('destination-row')).toHaveCount(3);
  // This project's own Local stream.
  const localUrl = await localStreamUrl(context.request, projectId);
  // Only the local destination goes live: the others point at a server that does not exist.
  for (const row of await destinations.getByTestId('destination-row').all()) {
    if (!(await row.textContent())?.includes('Local')) await row.getByRole('switch').click();
  }
  await expect(destinations.getByRole('button', { name: 'Go Live' })).toBeEnabled();
  await reachable(page, destinations.getByRole('button', { name: 'Go Live' }), 'Go Live with three destinations');
  await reachable(page, destinations.getByRole('button', { name: 'Add Destination' }), 'Add Destination with three destinations');
  await reachable(page, page.getByRole('tab', { name: 'Platform Chat' }), 'the Platform Chat tab with three destinations');
  await screenshots(page, 'studio-three-destinations');

  await destinations.getByRole('button', { name: 'Go Live' }).click();
  await expect(destinations.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => probeStreams(localUrl), { timeout: 60_000, intervals: [1000] }).toEqual(expect.arrayContaining(['video', 'audio']));
  // Every 8th pixel of the frame outside the logo's box (30,30 237×62): at least 90% the camera's orange.
  const orangeShare = (rgb: Buffer) => {
    let orange = 0;
    let all = 0;
    for (let y = 0; y < 720; y += 8) {
      for (let x = 0; x < 1280; x += 8) {
        if (x >= 30 && x < 267 && y >= 30 && y < 92) continue;
        all++;
        if (near(pixel(rgb, x, y), ORANGE, 60)) orange++;
      }
    }
    return orange / all;
  };
  await outputShows(
    localUrl,
    'the camera filling the frame',
    (rgb) => orangeShare(rgb) >= 0.9,
    (rgb) => `${Math.round(orangeShare(rgb) * 100)}% orange`,
  );
  await destinations.getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(page);
  await expect(destinations.getByRole('button', { name: 'Go Live' })).toBeVisible({ timeout: 30_000 });
});

test('layouts: Side by side with a guest and Picture in picture with a screen share reach the output; the Interview template is added and its scene shown', async ({
  page,
  context,
}) => {
  test.setTimeout(300_000);
  await signIn(context.request, `layouts-${randomUUID()}@example.test`);
  await grantPremium(context.request);
  const projectId = await openNewStudio(page, 'Layout show', '', { template: 'Beam' });
  // 720p30 keeps two browsers, the worker and the encoder within this machine's two cores.
  const doc = (await (await context.request.get(`/api/v1/projects/${projectId}/scene`)).json()) as { version: number };
  expect(
    (
      await context.request.patch(`/api/v1/projects/${projectId}/scene`, {
        data: { baseVersion: doc.version, ops: [{ op: 'setResolution', resolution: '720p' }] },
      })
    ).status(),
  ).toBe(200);
  await expect(page.getByTestId('media-connection').first()).toHaveText('Connected', { timeout: 60_000 });

  // A guest whose camera is blue joins by link, and is added to the scene.
  const camera = test.info().outputPath('guest-camera.y4m');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x0040FF:s=1280x720:r=30:d=2', '-pix_fmt', 'yuv420p', camera]);
  const options = fakeMediaLaunchOptions();
  guestBrowser = await chromium.launch({
    ...options,
    args: options.args.map((a) => (a.startsWith('--use-file-for-fake-video-capture=') ? `--use-file-for-fake-video-capture=${camera}` : a)),
  });
  await page.getByRole('tab', { name: 'Guests' }).click();
  await page.getByRole('region', { name: 'Invite Guests' }).getByRole('button', { name: 'Copy Guest Link' }).click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  const guest = await (
    await guestBrowser.newContext({ baseURL: process.env.ONAIR_E2E_URL, permissions: ['camera', 'microphone'], viewport: { width: 1280, height: 720 } })
  ).newPage();
  await guest.goto(link);
  await guest.getByLabel('Display name (optional)').fill('Grace');
  await guest.getByRole('button', { name: 'Join Studio' }).click();
  await expect(guest.getByTestId('media-connection')).toHaveText('Connected', { timeout: 60_000 });
  const tile = page.getByTestId('guest-tile').filter({ hasText: 'Grace' });
  await expect(tile).toHaveAttribute('data-camera', 'on', { timeout: 30_000 });
  await tile.hover();
  await tile.getByRole('button', { name: 'Add to scene' }).click();
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="participant"]')).toHaveCount(1);

  // Side by side: the host's camera left, the guest right (the camera selected, so it leads).
  const canvas = page.getByTestId('program-canvas');
  const canvasBox = (await canvas.boundingBox())!;
  await canvas.click({ position: { x: canvasBox.width - 10, y: canvasBox.height - 10 } });
  const layouts = page.getByRole('group', { name: 'Layouts' });
  await layouts.getByRole('button', { name: 'Side by side' }).click();
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="webcam"]')).toHaveAttribute('data-box', '0,180,640,360');
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="participant"]')).toHaveAttribute('data-box', '640,180,640,360');
  // Rounded tiles (spec §9: 2% of the width), drawn with the same radius as the program's.
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="webcam"]')).toHaveAttribute('data-corner-radius', '12.8');
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="participant"]')).toHaveAttribute('data-corner-radius', '12.8');
  expect(await page.locator('[data-testid="canvas-layer"][data-kind="participant"]').evaluate((el) => getComputedStyle(el).borderTopLeftRadius)).not.toBe(
    '0px',
  );
  // The scene follows Side by side from now on: its button stays pressed and the Follow switch is on.
  await expect(layouts.getByRole('button', { name: 'Side by side' })).toHaveAttribute('aria-pressed', 'true');
  await expect(layouts.getByRole('switch', { name: 'Follow' })).toBeChecked();
  expect((await context.request.post(`/api/v1/projects/${projectId}/destinations`, { data: { type: 'Local' } })).status()).toBe(201);
  // This project's own Local stream.
  const localUrl = await localStreamUrl(context.request, projectId);
  await page.getByRole('button', { name: 'Go Live' }).click();
  await expect(page.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 30_000 });
  const sideBySide = (rgb: Buffer) => `left ${pixel(rgb, 320, 360).join(',')}, right ${pixel(rgb, 960, 360).join(',')}`;
  await outputShows(localUrl, 'side by side', (rgb) => near(pixel(rgb, 320, 360), ORANGE, 60) && near(pixel(rgb, 960, 360), BLUE, 60), sideBySide);
  await page.getByRole('tab', { name: 'Platform Chat' }).click();
  await screenshots(page, 'studio-side-by-side');

  // Picture in picture with a screen share: the screen full frame, the camera in the lower right corner.
  await page.getByRole('button', { name: 'Add source' }).click();
  await page.getByRole('menuitem', { name: 'Screen Share' }).click();
  await page.getByRole('button', { name: 'Share your screen' }).click();
  await expect(page.getByRole('button', { name: 'Stop sharing your screen' })).toBeVisible();
  // Following Side by side, a third tile grows the scene into a grid: the screen takes the third cell, in the same edit.
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="screenshare"]')).toHaveAttribute('data-box', '320,360,640,360');
  await expect(layouts.getByRole('button', { name: 'Grid' })).toHaveAttribute('aria-pressed', 'true');
  await screenshots(page, 'studio-following-grid');
  await page.getByTestId('program-canvas').click({ position: { x: 2, y: 2 } });
  await layouts.getByRole('button', { name: 'Picture in picture' }).click();
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="screenshare"]')).toHaveAttribute('data-box', '0,0,1280,720');
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="webcam"]')).toHaveAttribute('data-box', '936,516,320,180');
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="screenshare"]')).toHaveAttribute('data-corner-radius', '0');
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="webcam"]')).toHaveAttribute('data-corner-radius', '6.4');
  const pip = (rgb: Buffer) => `screen ${pixel(rgb, 400, 300).join(',')}, corner ${pixel(rgb, 1096, 606).join(',')}`;
  await outputShows(localUrl, 'picture in picture', (rgb) => isScreenGreen(pixel(rgb, 400, 300)) && near(pixel(rgb, 1096, 606), ORANGE, 60), pip);
  await expect.poll(() => probeStreams(localUrl), { timeout: 30_000, intervals: [1000] }).toEqual(expect.arrayContaining(['video', 'audio']));
  await screenshots(page, 'studio-picture-in-picture');
  await page.getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(page);
  await expect(page.getByRole('button', { name: 'Go Live' })).toBeVisible({ timeout: 30_000 });

  // The Interview template, added to this project: its scenes join the list, and its scene is shown.
  await page.getByRole('button', { name: 'Templates', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add scenes from a template' });
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/template-dialog.png` });
  await dialog.getByRole('listitem', { name: 'Interview' }).getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();
  const scenes = page.getByRole('list', { name: 'Scenes' });
  await scenes.getByRole('button', { name: 'Interview', exact: true }).click();
  await expect(scenes.getByRole('button', { name: 'Interview', exact: true })).toHaveAttribute('aria-pressed', 'true');
  // Its host tile is the project's own camera; its two guest slots wait for guests.
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="webcam"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="participant"]')).toHaveCount(2);
  await screenshots(page, 'studio-interview');
  await guest.context().close();
});
