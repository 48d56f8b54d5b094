// Issue 19 acceptance in the system Chromium: uploads placed in a scene reach the output (pixels
// and the video's own tone), a built-in Be Right Back screen and back, and the holding slate when the
// host's browser goes away while live (the RTMP connection stays up; reopening brings the camera back).
import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import type { BroadcastView, Recording, SceneDocument } from '@onair/protocol';
import { fakeMediaLaunchOptions, grabFrame, near, ORANGE, pixel, watchFrames } from './support/fake-media.ts';
import { grantPremium, openNewStudio, signIn, confirmEndBroadcast } from './support/studio.ts';
import { localStreamUrl } from './support/local-stream.ts';

test.use({ launchOptions: fakeMediaLaunchOptions(), permissions: ['camera', 'microphone'], viewport: { width: 1440, height: 900 } });

const SHOTS = process.env.ONAIR_E2E_SHOTS;
const BLUE = [0, 0, 255];
const GREEN = [0, 255, 0];
/** The built-in screens' flat backgrounds (media-worker/src/placement/screens.ts). */
const BRB = [0x7c, 0x2d, 0x12];
const SLATE = [0x3b, 0x2a, 0x7a];
/** The video's tone: far from the fake microphone's 440 Hz, so a narrow band around it hears the video alone. */
const VIDEO_TONE_HZ = 3000;

/** Mean level (dB) of the stream's sound in a narrow band around the video's tone. */
function toneLevel(url: string): Promise<number> {
  return new Promise((resolve) => {
    execFile(
      'ffmpeg',
      [
        '-hide_banner',
        '-rw_timeout',
        '8000000',
        '-i',
        url,
        '-t',
        '3',
        '-vn',
        '-af',
        `bandpass=f=${VIDEO_TONE_HZ}:width_type=h:w=200,bandpass=f=${VIDEO_TONE_HZ}:width_type=h:w=200,volumedetect`,
        '-f',
        'null',
        '-',
      ],
      { timeout: 20_000, killSignal: 'SIGKILL' },
      (_err, _out, stderr) => {
        const match = /mean_volume: (-?[\d.]+) dB/.exec(String(stderr));
        resolve(match ? Number(match[1]) : -Infinity);
      },
    );
  });
}

async function frameShows(url: string, checks: [x: number, y: number, colour: number[]][], timeoutMs = 60_000): Promise<void> {
  let last = 'none read';
  let lastFrame: Buffer | undefined;
  await expect
    .poll(
      async () => {
        const rgb = await grabFrame(url);
        if (!rgb) {
          last = 'none read';
          return false;
        }
        lastFrame = rgb;
        last = checks.map(([x, y]) => pixel(rgb, x, y).join(',')).join(' | ');
        return checks.every(([x, y, colour]) => near(pixel(rgb, x, y), colour, 60));
      },
      { timeout: timeoutMs, intervals: [300] },
    )
    .toBe(true)
    .catch(async (err: unknown) => {
      // What the output showed instead: its pixels in the error, the picture itself beside the trace.
      if (lastFrame) await test.info().attach('last frame (1280x720 rgb24)', { body: lastFrame, contentType: 'application/octet-stream' });
      throw new Error(`expected ${JSON.stringify(checks)}, last frame ${last}: ${err instanceof Error ? err.message : String(err)}`);
    });
}

async function moveLayer(
  request: APIRequestContext,
  projectId: string,
  sourceName: string,
  box: { x: number; y: number; width: number; height: number },
): Promise<void> {
  // The open studio edits the same scene (its own patches after an upload): a stale version is
  // refused with 409, and the move is made again on the newer document, as the studio does.
  await expect
    .poll(
      async () => {
        const doc = (await (await request.get(`/api/v1/projects/${projectId}/scene`)).json()) as SceneDocument;
        const source = doc.sources.find((s) => s.name === sourceName)!;
        const scene = doc.scenes.find((s) => s.id === doc.activeSceneId)!;
        const layer = scene.layers.find((l) => l.sourceId === source.id)!;
        const res = await request.patch(`/api/v1/projects/${projectId}/scene`, {
          data: { baseVersion: doc.version, ops: [{ op: 'updateLayer', sceneId: scene.id, layerId: layer.id, changes: box }] },
        });
        return res.status() === 409 ? 'stale, again' : `${res.status()} ${res.status() === 200 ? '' : await res.text()}`.trim();
      },
      { timeout: 10_000, intervals: [200] },
    )
    .toBe('200');
}

async function uploadThroughLibrary(page: Page, purpose: string, file: string, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Screens and media' }).click();
  const dialog = page.getByRole('dialog', { name: 'Media' });
  await dialog.getByLabel('Use as').click();
  await page.getByRole('option', { name: purpose }).click();
  await dialog.getByLabel('Choose files to upload').setInputFiles(file);
  const row = dialog.getByRole('list', { name: 'Your files' }).getByRole('listitem').filter({ hasText: name });
  await expect(row).toBeVisible({ timeout: 30_000 });
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/media-library-${name}.png` });
  await row.getByRole('button', { name: 'Add to scene' }).click();
  await expect(dialog).toBeHidden();
}

let dir = '';
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'onair-production-'));
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x0000ff:s=320x180', '-frames:v', '1', join(dir, 'blue-logo.png')]);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=0x00ff00:s=320x180:r=30',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${VIDEO_TONE_HZ}:sample_rate=48000`,
    '-t',
    '4',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    join(dir, 'green-tone.mp4'),
  ]);
});
test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('uploads in a scene go live with their picture and sound; a Be Right Back screen and back; the holding slate keeps the output up while the host is away', async ({
  page,
  context,
}) => {
  test.setTimeout(300_000);
  await signIn(context.request, `production-${randomUUID()}@example.test`);
  await grantPremium(context.request);
  const projectId = await openNewStudio(page, 'Production');
  // 720p30 keeps the browser, the worker, a video file and the encoder within this machine's two
  // cores: at Premium's 1080p the session ran short of frames, so its encoder stepped down and back
  // (a new recording part each time) while the suite ran.
  const doc = (await (await context.request.get(`/api/v1/projects/${projectId}/scene`)).json()) as SceneDocument;
  expect(
    (
      await context.request.patch(`/api/v1/projects/${projectId}/scene`, {
        data: { baseVersion: doc.version, ops: [{ op: 'setResolution', resolution: '720p' }] },
      })
    ).status(),
  ).toBe(200);
  await expect(page.getByTestId('media-connection')).toHaveText('Connected', { timeout: 60_000 });

  await uploadThroughLibrary(page, 'Logo (image)', join(dir, 'blue-logo.png'), 'blue-logo.png');
  await uploadThroughLibrary(page, 'Video with sound', join(dir, 'green-tone.mp4'), 'green-tone.mp4');
  // Where the creator would drag them: beside the camera (40,40 640×360).
  await moveLayer(context.request, projectId, 'blue-logo.png', { x: 760, y: 40, width: 320, height: 180 });
  await moveLayer(context.request, projectId, 'green-tone.mp4', { x: 760, y: 400, width: 320, height: 180 });
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="video"]')).toHaveAttribute('data-box', '760,400,320,180');

  expect((await context.request.post(`/api/v1/projects/${projectId}/destinations`, { data: { type: 'Local' } })).status()).toBe(201);
  // This project's own Local stream.
  const localUrl = await localStreamUrl(context.request, projectId);
  // Recorded (Premium): from the outputs' own encode, in the uploads store.
  await page.getByRole('switch', { name: 'Record' }).click();
  await page.getByRole('button', { name: 'Go Live' }).click();
  await expect(page.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 30_000 });
  const liveAt = Date.now();
  await expect(page.getByText('REC', { exact: true })).toBeVisible();

  // The output: the camera, the uploaded image and the video, and the video's tone.
  await frameShows(localUrl, [
    [360, 220, ORANGE],
    [920, 130, BLUE],
    [920, 490, GREEN],
  ]);
  const withVideo = await toneLevel(localUrl);
  expect(withVideo).toBeGreaterThan(-45);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/production-live.png` });

  // A built-in Be Right Back screen, then back to the scene.
  await page.getByRole('button', { name: 'Screens and media' }).click();
  await page.getByRole('dialog', { name: 'Media' }).getByRole('button', { name: 'Be right back' }).click();
  // The dialog closes once the screen is added; its own 'Be right back' button must not take the
  // next click (that added a second screen instead of showing the first, now and then).
  await expect(page.getByRole('dialog', { name: 'Media' })).toBeHidden();
  await page.getByRole('list', { name: 'Scenes' }).getByRole('button', { name: 'Be right back', exact: true }).click();
  // Adding the screen rebuilt the pipeline (a new input); if this step fails, the broadcast's output
  // states are kept with the failure to tell a refused reconnect from a pipeline that did not start.
  await frameShows(localUrl, [
    [100, 100, BRB],
    [920, 130, BRB],
  ]).catch(async (err: unknown) => {
    const seen = ((await (await context.request.get(`/api/v1/projects/${projectId}/broadcast`)).json()) as { broadcast: BroadcastView }).broadcast;
    const description = JSON.stringify({ state: seen.state, failureReason: seen.failureReason, outputs: seen.outputs });
    test.info().annotations.push({ type: 'broadcast after the rebuild', description });
    process.stdout.write(`broadcast after the rebuild: ${description}\n`);
    throw err;
  });
  // The video is not in this scene: its sound fades out.
  expect(await toneLevel(localUrl)).toBeLessThan(withVideo - 15);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/production-brb.png` });
  await page.getByRole('list', { name: 'Scenes' }).getByRole('button', { name: 'Scene 1', exact: true }).click();
  await frameShows(localUrl, [
    [360, 220, ORANGE],
    [920, 130, BLUE],
    [920, 490, GREEN],
  ]);

  // The host's browser goes away while live: the slate, and the connection stays up.
  await page.close();
  const closedAt = Date.now();
  await frameShows(
    localUrl,
    [
      [100, 100, SLATE],
      [920, 490, SLATE],
    ],
    30_000,
  );
  test.info().annotations.push({ type: 'slate', description: `slate seen ${Date.now() - closedAt} ms after the studio closed (frame probes included)` });
  const broadcast = ((await (await context.request.get(`/api/v1/projects/${projectId}/broadcast`)).json()) as { broadcast: BroadcastView }).broadcast;
  expect(broadcast.state).toBe('live');
  expect(broadcast.outputs.map((o) => [o.state, o.reconnects])).toEqual([['live', 0]]);

  // The host opens the studio again: the camera comes back and stays, and the outputs were never
  // reconnected. (It used to come and go: the program had drifted seconds behind the clock on this
  // loaded machine, and the new peer's picture, at a new size, waited at the compositor for the
  // program to reach its time; the pacer now keeps the program on the clock, pipeline/pacer.ts.)
  const again = await context.newPage();
  await again.goto(`/studio/${projectId}`);
  await expect(again.getByTestId('media-connection')).toHaveText('Connected', { timeout: 60_000 });
  const connectedAt = Date.now();
  await frameShows(localUrl, [[360, 220, ORANGE]], 30_000);
  test.info().annotations.push({ type: 'camera back', description: `${Date.now() - connectedAt} ms after the studio connected again (frame probes included)` });
  let frames = 0;
  let withCamera = 0;
  await watchFrames(
    localUrl,
    (rgb) => {
      frames += 1;
      if (near(pixel(rgb, 360, 220), ORANGE, 60)) withCamera += 1;
      return false;
    },
    15_000,
  );
  const stays = `the camera in ${withCamera} of ${frames} frames over 15 s`;
  test.info().annotations.push({ type: 'camera stays', description: stays });
  expect(frames, stays).toBeGreaterThan(20);
  expect(withCamera / frames, stays).toBeGreaterThanOrEqual(0.9);
  const after = ((await (await context.request.get(`/api/v1/projects/${projectId}/broadcast`)).json()) as { broadcast: BroadcastView }).broadcast;
  expect(after.outputs.map((o) => o.reconnects)).toEqual([0]);

  await again.getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(again);
  const liveSeconds = (Date.now() - liveAt) / 1000;
  await expect(again.getByRole('button', { name: 'Go Live' })).toBeVisible({ timeout: 30_000 });

  // The recording: listed with its duration and size once written out, downloadable, H.264 + AAC.
  await again.getByRole('link', { name: 'Recordings' }).click();
  await expect(again.getByRole('heading', { name: 'Recordings' })).toBeVisible();
  await expect
    .poll(
      async () => {
        await again.reload();
        return again.getByText(/^\d+:\d{2}$/).count();
      },
      { timeout: 30_000, intervals: [2000] },
    )
    .toBeGreaterThan(0);
  if (SHOTS) await again.screenshot({ path: `${SHOTS}/production-recordings.png` });
  const { recordings } = (await (await context.request.get(`/api/v1/projects/${projectId}/recordings`)).json()) as { recordings: Recording[] };
  expect(recordings).toHaveLength(1);
  const recording = recordings[0]!;
  test.info().annotations.push({ type: 'recording', description: `live ${liveSeconds.toFixed(1)} s; recorded ${JSON.stringify(recording.parts)}` });
  // Adding the Be Right Back screen while live joins the running pipeline (issue 35): the recording
  // goes on in the same part. A busy machine's encoder step-down starts a further part (at its own
  // preset and size), and the parts then follow each other without a hole. Before, the screen
  // rebuilt the pipeline: a part 2, and the restart's seconds missing (48.7 s of 60.6 s live in one
  // run on this 2-core machine).
  const described = `parts ${JSON.stringify(recording.parts)}, live ${liveSeconds.toFixed(1)} s`;
  expect(
    recording.parts.map((p) => p.number),
    described,
  ).toEqual(recording.parts.map((_, i) => i + 1));
  for (const part of recording.parts) expect(part.durationSeconds, described).toBeGreaterThan(0);
  expect(recording.durationSeconds, described).toBeGreaterThan(liveSeconds - 3);
  expect(recording.durationSeconds, described).toBeLessThan(liveSeconds + 3);
  const download = await context.request.get(`/api/v1/projects/${projectId}/recordings/${recording.id}/parts/${recording.parts[0]!.number}`);
  expect(download.status()).toBe(200);
  const file = join(dir, 'recording.mp4');
  writeFileSync(file, await download.body());
  const codecs = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', file]).toString().trim().split('\n').sort();
  expect(codecs).toEqual(['aac', 'h264']);
  await again.close();
  await context.request.delete(`/api/v1/projects/${projectId}/session`);
});

test('a countdown scene goes back to the scene it was started from when its time is up, with nobody clicking', async ({ page, context }) => {
  test.setTimeout(120_000);
  await signIn(context.request, `countdown-${randomUUID()}@example.test`);
  await grantPremium(context.request);
  const projectId = await openNewStudio(page, 'Countdown');
  await page.getByRole('button', { name: 'Screens and media' }).click();
  await page.getByRole('dialog', { name: 'Media' }).getByRole('button', { name: 'Countdown' }).click();
  const seconds = page.getByRole('spinbutton', { name: 'Seconds of Countdown' });
  await expect(seconds).toHaveValue('60');
  await seconds.fill('4');
  await seconds.press('Enter');
  await page.getByRole('button', { name: 'Countdown', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Countdown', exact: true })).toHaveAttribute('aria-pressed', 'true');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/countdown.png` });
  const shownAt = Date.now();
  // The api switches when the 4 s are up: the studio only hears of it.
  await expect(page.getByRole('button', { name: 'Scene 1', exact: true })).toHaveAttribute('aria-pressed', 'true', { timeout: 15_000 });
  expect(Date.now() - shownAt).toBeGreaterThan(3000);

  // 'Stream a video file as live': scheduled from the media library (the job itself: api/test/schedules.test.ts).
  await uploadThroughLibrary(page, 'Video with sound', join(dir, 'green-tone.mp4'), 'green-tone.mp4');
  await page.getByRole('button', { name: 'Screens and media' }).click();
  const dialog = page.getByRole('dialog', { name: 'Media' });
  await dialog.getByRole('button', { name: 'Schedule green-tone.mp4 as live' }).click();
  await dialog.getByLabel('Stream green-tone.mp4 as live at').fill('2099-01-01T20:00');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/schedule-video.png` });
  await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByText('Choose a time within the next 30 days.')).toBeVisible();
  const soon = new Date(Date.now() + 2 * 24 * 3600_000);
  const local = new Date(soon.getTime() - soon.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  await dialog.getByLabel('Stream green-tone.mp4 as live at').fill(local);
  await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByText(/^green-tone\.mp4 goes live /)).toBeVisible();
  const { scheduled } = (await (await context.request.get(`/api/v1/projects/${projectId}/scheduled-broadcasts`)).json()) as {
    scheduled: { id: string; state: string }[];
  };
  expect(scheduled.map((s) => s.state)).toEqual(['scheduled']);
  expect((await context.request.delete(`/api/v1/projects/${projectId}/scheduled-broadcasts/${scheduled[0]!.id}`)).status()).toBe(204);
});

test("a countdown's time left ticks in the studio; scheduled broadcasts are listed in the Media dialog and cancelled after a confirmation", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signIn(context.request, `countdown-left-${randomUUID()}@example.test`);
  await grantPremium(context.request);
  const projectId = await openNewStudio(page, 'Countdown left');
  await page.getByRole('button', { name: 'Screens and media' }).click();
  const dialog = page.getByRole('dialog', { name: 'Media' });
  // Nothing scheduled yet: the section says how to schedule.
  await expect(dialog.getByText('Nothing scheduled. Use the calendar button of a video above to stream it as live at a time you choose.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Countdown' }).click();
  const seconds = page.getByRole('spinbutton', { name: 'Seconds of Countdown' });
  await seconds.fill('90');
  await seconds.press('Enter');
  await expect(page.getByTestId('countdown-left')).toHaveCount(0);
  await page.getByRole('button', { name: 'Countdown', exact: true }).click();
  const left = page.getByTestId('countdown-left');
  await expect(left).toHaveText(/^01:(30|29|28)$/, { timeout: 10_000 });
  const first = await left.textContent();
  // It counts down on its own: no click, no new scene version.
  await expect(left).not.toHaveText(first!, { timeout: 5000 });
  await expect(left).toHaveText(/^01:[0-2]\d$/);
  // The canvas draws it where the program does, until the worker's preview (which has it drawn) plays.
  const canvas = page.getByTestId('program-canvas');
  if ((await canvas.getAttribute('data-preview')) === 'local') await expect(page.getByTestId('canvas-countdown')).toHaveText(/^01:[0-2]\d$/);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/countdown-left.png` });
  await page.getByRole('button', { name: 'Scene 1', exact: true }).click();
  await expect(left).toHaveCount(0);

  // Two videos scheduled (the scheduling form itself: the test above); the dialog lists them soonest first.
  const video = await context.request.post(`/api/v1/projects/${projectId}/uploads?purpose=video&name=green-tone.mp4`, {
    data: readFileSync(join(dir, 'green-tone.mp4')),
  });
  expect(video.status(), await video.text()).toBe(201);
  const uploadId = ((await video.json()) as { id: string }).id;
  const schedule = async (hoursAhead: number) => {
    const res = await context.request.post(`/api/v1/projects/${projectId}/scheduled-broadcasts`, {
      data: { uploadId, startAt: new Date(Date.now() + hoursAhead * 3600_000).toISOString() },
    });
    expect(res.status(), await res.text()).toBe(201);
  };
  await schedule(48);
  await schedule(24);
  await page.getByRole('button', { name: 'Screens and media' }).click();
  const rows = dialog.getByRole('list', { name: 'Scheduled broadcasts' }).getByTestId('scheduled-broadcast');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('green-tone.mp4');
  await rows.first().getByRole('button', { name: 'Cancel…' }).click();
  const confirm = rows.first().getByRole('alertdialog', { name: 'Cancel the broadcast of green-tone.mp4?' });
  await expect(confirm).toContainText('Cancel this broadcast? Nothing goes live at');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/scheduled-cancel.png` });
  // Kept: nothing sent.
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirm).toBeHidden();
  await expect(rows).toHaveCount(2);
  await rows.first().getByRole('button', { name: 'Cancel…' }).click();
  await rows.first().getByRole('button', { name: 'Cancel broadcast' }).click();
  await expect(page.getByText('Scheduled broadcast cancelled')).toBeVisible();
  await expect(rows).toHaveCount(1);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/scheduled-list.png` });
  const { scheduled } = (await (await context.request.get(`/api/v1/projects/${projectId}/scheduled-broadcasts`)).json()) as {
    scheduled: { id: string; state: string }[];
  };
  expect(scheduled.map((s) => s.state)).toEqual(['cancelled', 'scheduled']);
  expect((await context.request.delete(`/api/v1/projects/${projectId}/scheduled-broadcasts/${scheduled[1]!.id}`)).status()).toBe(204);
});
