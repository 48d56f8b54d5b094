// Issue 12: the first five minutes of a new creator on the one-machine stack, touching nothing but
// what a newcomer would: the home page's sign-in, a new project, the local destination, Go Live.
// The fake camera plays a known picture (orange), so the preview and the output can be probed.
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { fakeMediaLaunchOptions, grabFrame, near, ORANGE, pixel, probeStreams } from './support/fake-media.ts';
import { localStreamUrl } from './support/local-stream.ts';
import { confirmEndBroadcast } from './support/studio.ts';

test.use({ launchOptions: fakeMediaLaunchOptions(), permissions: ['camera', 'microphone'], viewport: { width: 1440, height: 900 } });

/** The code of the newest mail to `email` in the development inbox (the embedded stack's mailer). */
async function codeFor(page: Page, email: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const inbox = (await (await page.request.get(`/api/v1/dev/inbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { text: string }[] };
    const code = /\b(\d{6})\b/.exec(inbox.messages[0]?.text ?? '')?.[1];
    if (code) return code;
    await page.waitForTimeout(100);
  }
  throw new Error(`no sign-in code for ${email}`);
}

/** The RGB of the program preview's picture at a point of the 1280×720 canvas, as the studio plays it. */
function previewPixel(page: Page, x: number, y: number): Promise<number[] | null> {
  return page.getByTestId('program-preview').evaluate(
    (video: HTMLVideoElement, [px, py]) => {
      if (video.videoWidth === 0) return null;
      const canvas = document.createElement('canvas');
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      const context = canvas.getContext('2d');
      if (!context) return null;
      context.drawImage(video, 0, 0);
      const data = context.getImageData(Math.round((px! / 1280) * video.videoWidth), Math.round((py! / 720) * video.videoHeight), 1, 1).data;
      return [data[0]!, data[1]!, data[2]!];
    },
    [x, y],
  );
}

test('a new creator signs in from the home page, sees their camera in a new project, and goes live to the local destination', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const email = `first-run-${randomUUID()}@example.test`;

  // Signed out, the home page says what OnAir is and offers sign-in.
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('No projects yet')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('1-home-signed-out.png') });
  await page.getByRole('link', { name: 'Sign in', exact: true }).first().click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await page.getByLabel('Code').fill(await codeFor(page, email));
  await page.getByRole('button', { name: 'Sign in' }).click();

  // A project, and nothing else touched.
  await page.getByLabel('New project').fill('My first stream');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page).toHaveURL(/\/studio\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('banner').getByText('My first stream')).toBeVisible();
  await expect(page).toHaveTitle('My first stream · OnAir');

  // Beam, preselected: the camera fills Scene 1, and the program the worker sends back shows it.
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="webcam"]')).toHaveAttribute('data-box', '0,0,1280,720');
  await expect(page.getByTestId('media-connection')).toHaveText('Connected', { timeout: 60_000 });
  await expect
    .poll(
      async () => {
        const inCamera = await previewPixel(page, 360, 220);
        const outside = await previewPixel(page, 1100, 600);
        return inCamera !== null && outside !== null && near(inCamera, ORANGE, 60) && near(outside, ORANGE, 60);
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toBe(true);
  await page.screenshot({ path: testInfo.outputPath('2-new-project.png') });

  // The local destination in one click, then Go Live.
  const destinations = page.getByRole('region', { name: 'Destinations' });
  await destinations.getByRole('button', { name: 'Add Destination' }).click();
  await page.getByTestId('destination-tile-Local').click();
  await expect(destinations.getByTestId('destination-row')).toHaveCount(1);
  // This project's own Local stream, where a viewer watches it.
  const projectId = /studio\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
  const localUrl = await localStreamUrl(page.request, projectId);
  await destinations.getByRole('button', { name: 'Go Live' }).click();
  await expect(destinations.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 30_000 });

  // A viewer of the local destination gets video and audio, with the camera where its layer is.
  await expect.poll(() => probeStreams(localUrl), { timeout: 60_000, intervals: [1000] }).toEqual(expect.arrayContaining(['video', 'audio']));
  await expect
    .poll(
      async () => {
        const frame = await grabFrame(localUrl);
        return frame !== undefined && near(pixel(frame, 360, 220), ORANGE, 50);
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe(true);
  await page.screenshot({ path: testInfo.outputPath('3-live.png') });

  await destinations.getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(page);
  await expect(destinations.getByRole('button', { name: 'Go Live' })).toBeVisible({ timeout: 30_000 });

  // Free the stack's media worker for the flows after this one.
  await page.close();
  await page.request.delete(`/api/v1/projects/${projectId}/session`);
});
