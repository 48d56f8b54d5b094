// Issue 15 acceptance: guests by link, in two browsers. The host (Premium) copies the guest link;
// the guest, in a Chromium whose fake camera plays a blue picture, opens it, names themself and
// joins; the host sees the guest's tile with that camera and adds it to the scene; the local RTMP
// output shows blue where the guest's layer is; Guest Chat works both ways; a new link refuses the
// old one with words and the host removes the guest who joined by it; a Free host's studio refuses
// a guest with words and tells the host.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { fakeMediaLaunchOptions, grabFrame, near, ORANGE, pixel } from './support/fake-media.ts';
import { grantPremium, openNewStudio, signIn, confirmEndBroadcast } from './support/studio.ts';
import { localStreamUrl } from './support/local-stream.ts';

const SHOTS = process.env.ONAIR_E2E_SHOTS;
/** The guest's camera: a colour nothing else in the program has. */
const BLUE = [0, 64, 255];

test.use({
  launchOptions: fakeMediaLaunchOptions(),
  permissions: ['camera', 'microphone', 'clipboard-read', 'clipboard-write'],
  viewport: { width: 1440, height: 900 },
});

let guestBrowser: Browser;

test.beforeAll(async () => {
  const camera = test.info().outputPath('guest-camera.y4m');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x0040FF:s=1280x720:r=30:d=2', '-pix_fmt', 'yuv420p', camera]);
  const options = fakeMediaLaunchOptions();
  guestBrowser = await chromium.launch({
    ...options,
    args: options.args.map((a) => (a.startsWith('--use-file-for-fake-video-capture=') ? `--use-file-for-fake-video-capture=${camera}` : a)),
  });
});
test.afterAll(async () => {
  await guestBrowser?.close();
});

async function guestPage(): Promise<Page> {
  const context = await guestBrowser.newContext({
    baseURL: process.env.ONAIR_E2E_URL,
    permissions: ['camera', 'microphone'],
    viewport: { width: 1440, height: 900 },
  });
  return context.newPage();
}

test('a guest joins by link, is seen in the output, chats both ways; a new link refuses the old one; a plan without guests refuses with words', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(300_000);
  await signIn(context.request, `guests-host-${randomUUID()}@example.test`);
  await grantPremium(context.request);
  const projectId = await openNewStudio(page, 'Guest show');
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

  // The Guests tab: with nobody there the Invite Guests panel shows directly.
  await page.getByRole('tab', { name: 'Guests' }).click();
  const invite = page.getByRole('region', { name: 'Invite Guests' });
  await expect(invite.getByText('0 of 10 guests in the studio')).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/guests-invite.png` });
  await invite.getByRole('button', { name: 'Learn More' }).click();
  await expect(page.getByRole('dialog', { name: 'Guests by link' })).toBeVisible();
  await page.keyboard.press('Escape');
  await invite.getByRole('button', { name: 'Copy Guest Link' }).click();
  await expect(page.getByText('Guest Link Copied')).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(new RegExp(`/guest/${projectId}\\?guestToken=`));

  // The guest opens the link: the Camera Settings panel with their live camera.
  const guest = await guestPage();
  await guest.goto(link);
  await expect(guest.getByRole('heading', { name: 'Camera Settings' })).toBeVisible();
  await expect(guest.getByText('Configure your camera settings')).toBeVisible();
  await expect(guest.getByText('You are invited to Guest show')).toBeVisible();
  await expect(guest.getByRole('switch', { name: 'Mirror Camera' })).toBeVisible();
  await expect
    .poll(
      () =>
        guest
          .locator('[aria-label="Cameras"] video')
          .first()
          .evaluate((v: HTMLVideoElement) => v.videoWidth),
      { timeout: 15_000 },
    )
    .toBeGreaterThan(0);
  const name = guest.getByLabel('Display name (optional)');
  await name.fill('<b>Grace</b>');
  await expect(guest.getByText('Your name cannot contain < or >.')).toBeVisible();
  await expect(guest.getByRole('button', { name: 'Join Studio' })).toBeDisabled();
  await name.fill('Grace');
  if (SHOTS) await guest.screenshot({ path: `${SHOTS}/guest-camera-settings.png` });
  await guest.getByRole('button', { name: 'Join Studio' }).click();
  await expect(guest.getByTestId('media-connection')).toHaveText('Connected', { timeout: 60_000 });
  // The guest sees the program.
  await expect(guest.getByRole('region', { name: 'Program' })).toHaveAttribute('data-preview', 'live', { timeout: 20_000 });

  // The host sees Grace's tile with her camera, and adds her to the scene.
  // With a guest in the room the tab lists the guests (the invite view is behind 'Invite Guest').
  const tile = page.getByTestId('guest-tile').filter({ hasText: 'Grace' });
  await expect(tile).toHaveAttribute('data-camera', 'on', { timeout: 30_000 });
  await expect(tile.getByRole('slider', { name: 'Grace volume' })).toHaveAttribute('step', '0.01');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/guests-tile.png` });
  await tile.hover();
  await tile.getByRole('button', { name: 'Add to scene' }).click();
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="participant"]')).toHaveAttribute('data-box', '40,40,640,360');

  // The output: the guest's blue camera where the layer is (over the host's orange camera).
  expect((await context.request.post(`/api/v1/projects/${projectId}/destinations`, { data: { type: 'Local' } })).status()).toBe(201);
  // This project's own Local stream.
  const localUrl = await localStreamUrl(context.request, projectId);
  await page.getByRole('button', { name: 'Go Live' }).click();
  await expect(page.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 30_000 });
  let seen = 'no frame';
  let lastFrame: Buffer | undefined;
  await expect
    .poll(
      async () => {
        const rgb = await grabFrame(localUrl);
        if (rgb) lastFrame = rgb;
        if (rgb) seen = `guest layer ${pixel(rgb, 360, 220).join(',')}, outside ${pixel(rgb, 1100, 600).join(',')}`;
        return (
          rgb !== undefined && near(pixel(rgb, 360, 220), BLUE, 60) && !near(pixel(rgb, 360, 220), ORANGE, 60) && near(pixel(rgb, 1100, 600), [0, 0, 0], 30)
        );
      },
      { timeout: 60_000, intervals: [500], message: 'the output shows the guest where the layer is' },
    )
    .toBe(true)
    .finally(async () => {
      test.info().annotations.push({ type: 'output-pixels', description: seen });
      console.warn(`output: ${seen}`);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/guests-live.png` });
      if (SHOTS) await guest.screenshot({ path: `${SHOTS}/guest-live.png` });
      if (SHOTS && lastFrame)
        execFileSync(
          'ffmpeg',
          ['-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', '1280x720', '-i', '-', '-frames:v', '1', `${SHOTS}/guests-output.png`],
          { input: lastFrame },
        );
    });

  // Guest Chat both ways; the host's tab is marked unread while it is not shown.
  await page.getByRole('tab', { name: 'Guest Chat' }).click();
  const hostChat = page.getByLabel('Message to the room');
  await hostChat.fill('Welcome, Grace! Notes at onair.test/notes');
  await hostChat.press('Enter');
  await expect(guest.getByTestId('guest-chat-message').filter({ hasText: 'Welcome, Grace!' })).toBeVisible();
  await expect(guest.getByRole('link', { name: 'onair.test/notes' })).toHaveAttribute('href', 'https://onair.test/notes');
  await page.getByRole('tab', { name: 'Guests' }).click();
  const guestChat = guest.getByLabel('Message to the room');
  await guestChat.fill('x'.repeat(201));
  await expect(guest.getByText('201/200')).toBeVisible();
  await expect(guestChat).toHaveAttribute('data-invalid', 'true');
  await expect(guest.getByRole('button', { name: 'Send message' })).toBeDisabled();
  await guestChat.fill('Thanks <i>host</i>!');
  await guestChat.press('Enter');
  await expect(page.getByRole('tab', { name: /Guest Chat/ }).getByRole('status', { name: 'Unread messages' })).toBeVisible();
  if (SHOTS) await guest.screenshot({ path: `${SHOTS}/guest-studio.png` });
  await page.getByRole('tab', { name: /Guest Chat/ }).click();
  await expect(page.getByTestId('guest-chat-message').filter({ hasText: 'Thanks <i>host</i>!' })).toBeVisible();
  await expect(page.getByRole('tab', { name: /Guest Chat/ }).getByRole('status')).toHaveCount(0);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/guests-chat.png` });

  // Generate New Link: the old link is refused with words; the guest who joined by it is removed.
  await page.getByRole('tab', { name: 'Guests' }).click();
  await page.getByRole('button', { name: 'Invite Guest' }).click();
  await page.getByRole('button', { name: 'Generate New Link' }).click();
  await expect(page.getByText('New guest link ready')).toBeVisible();
  const late = await guestPage();
  await late.goto(link);
  await expect(late.getByRole('heading', { name: 'This guest link was replaced' })).toBeVisible();
  await expect(late.getByText('This guest link was replaced by a new one. Ask the host for the new guest link.')).toBeVisible();
  if (SHOTS) await late.screenshot({ path: `${SHOTS}/guest-link-replaced.png` });
  await page.getByRole('button', { name: 'Back to guests' }).click();
  // The guest leaves the studio (the source named after her has its own 'Remove Grace': from the scene).
  await page.getByRole('button', { name: 'Remove Grace from the studio' }).click();
  await expect(guest.getByRole('heading', { name: 'You were removed from the studio' })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(page);

  // A Free host: their guest link admits nobody, and both sides are told why.
  const freeContext = await browser.newContext({
    permissions: ['camera', 'microphone', 'clipboard-read', 'clipboard-write'],
    viewport: { width: 1440, height: 900 },
  });
  const freeHost = await freeContext.newPage();
  await signIn(freeContext.request, `guests-free-${randomUUID()}@example.test`);
  const freeProject = await openNewStudio(freeHost, 'Free show');
  await freeHost.getByRole('tab', { name: 'Guests' }).click();
  await expect(freeHost.getByText('Your plan does not include guests, so the guest link is off. Premium lets up to 10 guests join.')).toBeVisible();
  await expect(freeHost.getByRole('button', { name: 'Copy Guest Link' })).toBeDisabled();
  const freeLink = (await (await freeContext.request.get(`/api/v1/projects/${freeProject}/guest-link`)).json()) as { linkUrl: string };
  const refused = await guestPage();
  // Issue 52: said on the guest's first screen, before any camera setup.
  await refused.goto(freeLink.linkUrl);
  await expect(refused.getByRole('heading', { name: 'This studio does not take guests' })).toBeVisible();
  await expect(refused.getByText("This studio's plan does not include guests. Ask the host to let you in later.")).toBeVisible();
  await expect(refused.getByLabel('Display name (optional)')).toHaveCount(0);
  await expect(freeHost.getByText('Someone tried to join, but your plan does not include guests. Upgrade to Premium to invite up to 10.')).toBeVisible();
  if (SHOTS) await refused.screenshot({ path: `${SHOTS}/guest-refused-plan.png` });
  await freeContext.close();
});
