// Issue 51: a creator watches their Local stream in the studio. They add Local, go live, open Watch
// on the Local card, and the player (hls.js, HLS from the local RTMP server through the api) plays
// the program: its clock advances and the camera's orange is drawn where its layer is.
import { randomUUID } from 'node:crypto';
import { type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { fakeMediaLaunchOptions, ORANGE } from './support/fake-media.ts';
import { openNewStudio, signIn, confirmEndBroadcast } from './support/studio.ts';

const SHOTS = process.env.ONAIR_E2E_SHOTS;

test.use({ launchOptions: fakeMediaLaunchOptions(), viewport: { width: 1280, height: 720 } });

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
];

/** Screenshots at both sizes into ONAIR_E2E_SHOTS (when set), back at 1280×720 after. */
async function shots(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${SHOTS}/${name}-${size.width}.png` });
  }
  await page.setViewportSize(SIZES[0]!);
}

const near = (a: readonly number[], b: readonly number[], tolerance: number) => a.every((v, i) => Math.abs(v - (b[i] ?? 0)) <= tolerance);

/** The Watch player's clock and the colour it draws at (x, y) of the 1280×720 program, read through a canvas. */
async function playerSample(page: Page, x: number, y: number): Promise<{ time: number; rgb: number[] } | null> {
  return page.evaluate(
    ([px, py]) => {
      const video = document.querySelector<HTMLVideoElement>('[data-testid="local-watch-video"]');
      if (!video || video.videoWidth === 0) return null;
      const canvas = document.createElement('canvas');
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      const context = canvas.getContext('2d', { willReadFrequently: true });
      if (!context) return null;
      context.drawImage(video, 0, 0);
      const data = context.getImageData(Math.round((px * video.videoWidth) / 1280), Math.round((py * video.videoHeight) / 720), 1, 1).data;
      return { time: video.currentTime, rgb: [data[0] ?? 0, data[1] ?? 0, data[2] ?? 0] };
    },
    [x, y] as const,
  );
}

test('a creator adds Local, goes live and watches the Local stream in the studio', async ({ page, context }) => {
  test.setTimeout(240_000);
  await signIn(context.request, `watch-${randomUUID()}@example.test`);
  const projectId = await openNewStudio(page, 'Watching Local');
  const destinations = page.getByRole('region', { name: 'Destinations' });
  await destinations.getByRole('button', { name: 'Add Destination' }).click();
  await page.getByTestId('destination-tile-Local').click();
  const card = destinations.getByTestId('destination-row');
  await expect(card).toHaveCount(1);

  // Its address, the stream name masked until Show.
  const address = card.getByLabel('Local stream address', { exact: true });
  await expect(address).toHaveText(/^rtmp:\/\/127\.0\.0\.1:\d+\/live\/•+$/);
  await card.getByRole('button', { name: 'Show stream name' }).click();
  await expect(address).toHaveText(/^rtmp:\/\/127\.0\.0\.1:\d+\/live\/[A-Za-z0-9_-]{8,}$/);
  const { playUrl } = (await (
    await context.request.get(`/api/v1/projects/${projectId}/destinations/${await card.getAttribute('data-destination-id')}/local-stream`)
  ).json()) as {
    playUrl: string;
  };
  await expect(address).toHaveText(playUrl);
  await shots(page, 'local-card-shown');
  await card.getByRole('button', { name: 'Hide stream name' }).click();

  // The Edit dialog shows the same address and Watch.
  await card.getByRole('button', { name: 'Edit destination' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Local preview server' });
  await expect(edit.getByLabel('Local stream address', { exact: true })).toHaveText(/^rtmp:\/\/127\.0\.0\.1:\d+\/live\/•+$/);
  await shots(page, 'local-edit-dialog');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // Watch before going live says what to do.
  await card.getByRole('button', { name: 'Watch' }).click();
  const player = page.getByRole('dialog', { name: 'Watch Local preview server' });
  await expect(player.getByRole('status')).toHaveText('Nothing is live on this address yet. Go live with Local on to watch it here.', { timeout: 15_000 });
  await expect(player).toContainText(/About \d+ s behind the program\./);
  await shots(page, 'local-watch-offline');
  await player.getByRole('button', { name: 'Close' }).click();

  await destinations.getByRole('button', { name: 'Go Live' }).click();
  await expect(destinations.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 30_000 });
  await expect(destinations.getByRole('status', { name: 'Local preview server stream health' })).toContainText('Live', { timeout: 60_000 });
  await shots(page, 'local-card-live');

  // The player plays the program: its clock advances, and the camera (orange, at 40,40 640×360) is drawn.
  // On air the card is one line; its address and Watch unfold under it.
  await card.getByRole('button', { name: 'Show details of Local preview server' }).click();
  await card.getByRole('button', { name: 'Watch' }).click();
  let first: { time: number; rgb: number[] } | null = null;
  await expect
    .poll(
      async () => {
        const sample = await playerSample(page, 360, 220);
        if (sample && !first && sample.time > 0) first = sample;
        return sample !== null && first !== null && sample.time > first.time + 1 && near(sample.rgb, ORANGE, 60);
      },
      { timeout: 90_000, intervals: [500] },
    )
    .toBe(true);
  await expect(player.getByRole('status')).toHaveCount(0);
  await shots(page, 'local-watch-playing');

  // How far behind the program the player is, measured (reported, not judged): the camera moves
  // away from (360, 220) by a scene patch, and the player stops drawing orange there.
  const doc = (await (await context.request.get(`/api/v1/projects/${projectId}/scene`)).json()) as {
    version: number;
    activeSceneId: string;
    sources: { id: string; kind: string }[];
    scenes: { id: string; layers: { id: string; sourceId: string }[] }[];
  };
  const camera = doc.sources.find((s) => s.kind === 'webcam');
  const layer = doc.scenes.find((s) => s.id === doc.activeSceneId)?.layers.find((l) => l.sourceId === camera?.id);
  const movedAt = Date.now();
  const moved = await context.request.patch(`/api/v1/projects/${projectId}/scene`, {
    data: {
      baseVersion: doc.version,
      ops: [{ op: 'updateLayer', sceneId: doc.activeSceneId, layerId: layer?.id, changes: { x: 800, y: 400, width: 400, height: 225 } }],
    },
  });
  expect(moved.status(), await moved.text()).toBe(200);
  await expect
    .poll(
      async () => {
        const sample = await playerSample(page, 360, 220);
        return sample !== null && !near(sample.rgb, ORANGE, 60);
      },
      { timeout: 60_000, intervals: [100] },
    )
    .toBe(true);
  const delaySeconds = (Date.now() - movedAt) / 1000;
  test.info().annotations.push({ type: 'watch delay', description: `${delaySeconds.toFixed(1)} s from a scene change to the Watch player` });
  process.stdout.write(`watch delay: ${delaySeconds.toFixed(1)} s from a scene change to the Watch player\n`);

  await player.getByRole('button', { name: 'Close' }).click();
  await destinations.getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(page);
  await expect(destinations.getByRole('button', { name: 'Go Live' })).toBeVisible({ timeout: 30_000 });
  // Free the stack's media worker for the flows after this one.
  await page.close();
  await context.request.delete(`/api/v1/projects/${projectId}/session`);
});
