// Issue 51: every persona's whole show, with two creators at once on one stack. Each creator has a
// browser of their own whose fake camera plays a colour nobody else's has, and reads their own
// output (their project's own Local stream) from the first publish to the end: a probe of pixels in
// one creator's output never finds the other creator's colour. The flows run side by side, as
// creators on a shared server do, and every wait is on what a viewer of the output sees.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chromium, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { fakeMediaLaunchOptions } from './support/fake-media.ts';
import { localStreamUrl } from './support/local-stream.ts';
import { READER_HEIGHT, READER_WIDTH, readStream, type ReadFrame, type StreamReader } from './support/stream-reader.ts';
import { grantPremium, makeAdmin, openNewStudio, publicOrigin, signIn, confirmEndBroadcast } from './support/studio.ts';

const SHOTS = process.env.ONAIR_E2E_SHOTS;

/** Each person's camera or feed: colours far apart from each other and from the placeholders and backgrounds. */
const COLOURS = {
  creatorCamera: { hex: '0xDC1EC8', rgb: [220, 30, 200] },
  consoleFeed: { hex: '0x14C8DC', rgb: [20, 200, 220] },
  consoleCamera: { hex: '0xF0DC14', rgb: [240, 220, 20] },
  hostCamera: { hex: '0xFF8000', rgb: [255, 128, 0] },
  guestCamera: { hex: '0x0040FF', rgb: [0, 64, 255] },
} as const;
type Colour = (typeof COLOURS)[keyof typeof COLOURS];
const TOLERANCE = 45;

test.use({ permissions: ['camera', 'microphone', 'clipboard-read', 'clipboard-write'], viewport: { width: 1280, height: 720 } });

const browsers: Browser[] = [];
const encoders: ChildProcess[] = [];
const readers: StreamReader[] = [];
/** Every project a flow made, with a request context of its owner: its session is ended after the test, live or not. */
const projects: { request: APIRequestContext; projectId: string }[] = [];
test.afterEach(async () => {
  for (const e of encoders.splice(0)) e.kill('SIGKILL');
  for (const r of readers.splice(0)) r.stop();
  // A live session outlives its studio: the next flow's sessions need the worker's room.
  await Promise.all(projects.splice(0).map(({ request, projectId }) => request.delete(`/api/v1/projects/${projectId}/session`).catch(() => undefined)));
  await Promise.all(browsers.splice(0).map((b) => b.close()));
});

/** A browser whose fake camera plays one colour (its microphone the shared tone). */
async function browserWithCamera(colour: Colour): Promise<Browser> {
  const file = test.info().outputPath(`camera-${colour.hex}.y4m`);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colour.hex}:s=640x360:r=30:d=2`, '-pix_fmt', 'yuv420p', file]);
  const options = fakeMediaLaunchOptions(file);
  const browser = await chromium.launch(options);
  browsers.push(browser);
  return browser;
}

async function creatorContext(browser: Browser, who: string, options: { premium?: boolean } = {}): Promise<BrowserContext> {
  // The public origin throughout: the test-mode platforms' consent pages send the browser back there.
  const context = await browser.newContext({
    baseURL: publicOrigin(),
    permissions: ['camera', 'microphone', 'clipboard-read', 'clipboard-write'],
    viewport: { width: 1280, height: 720 },
  });
  await signIn(context.request, `${who}-${randomUUID()}@example.test`);
  if (options.premium) await grantPremium(context.request);
  return context;
}

/** Share of the frame's pixels near `rgb` (a reader frame, READER_WIDTH×READER_HEIGHT). */
function coverage(frame: Buffer, rgb: readonly number[], tolerance = TOLERANCE): number {
  let hits = 0;
  const n = READER_WIDTH * READER_HEIGHT;
  for (let i = 0; i < n; i++) {
    const o = i * 3;
    if (Math.abs(frame[o]! - rgb[0]!) <= tolerance && Math.abs(frame[o + 1]! - rgb[1]!) <= tolerance && Math.abs(frame[o + 2]! - rgb[2]!) <= tolerance) hits++;
  }
  return hits / n;
}

/** Share of the given canvas rectangle (1280×720 coordinates) near `rgb`. */
function coverageIn(frame: Buffer, rgb: readonly number[], box: { x: number; y: number; width: number; height: number }): number {
  let hits = 0;
  let n = 0;
  const x0 = Math.floor((box.x * READER_WIDTH) / 1280);
  const x1 = Math.ceil(((box.x + box.width) * READER_WIDTH) / 1280);
  const y0 = Math.floor((box.y * READER_HEIGHT) / 720);
  const y1 = Math.ceil(((box.y + box.height) * READER_HEIGHT) / 720);
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const o = (y * READER_WIDTH + x) * 3;
      n++;
      if ([0, 1, 2].every((c) => Math.abs(frame[o + c]! - rgb[c]!) <= TOLERANCE)) hits++;
    }
  return n === 0 ? 0 : hits / n;
}

const describeFrame = (frame: Buffer) =>
  Object.entries(COLOURS)
    .map(([name, c]) => `${name} ${(coverage(frame, c.rgb) * 100).toFixed(1)}%`)
    .join(', ');

/** Frames of the whole read that show `rgb` anywhere (more than two reader pixels, so not a stray edge). */
function framesShowing(reader: StreamReader, rgb: readonly number[]): ReadFrame[] {
  return reader.frames.filter((f) => coverage(f.rgb, rgb) * READER_WIDTH * READER_HEIGHT > 2);
}

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  await page.screenshot({ path: `${SHOTS}/journey-${name}.png` });
}

async function goLive(page: Page): Promise<void> {
  const destinations = page.getByRole('region', { name: 'Destinations' });
  await destinations.getByRole('button', { name: 'Go Live' }).click();
  await expect(destinations.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 45_000 });
}

async function endBroadcast(page: Page): Promise<void> {
  const destinations = page.getByRole('region', { name: 'Destinations' });
  await destinations.getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(page);
  // The studio may ask to confirm (issue 52); either way the broadcast ends.
  const confirm = page.getByRole('alertdialog').getByRole('button', { name: /End broadcast/i });
  if (await confirm.isVisible({ timeout: 1000 }).catch(() => false)) await confirm.click();
  await expect(destinations.getByRole('button', { name: 'Go Live' })).toBeVisible({ timeout: 45_000 });
}

async function addLocal(request: APIRequestContext, projectId: string): Promise<void> {
  const added = await request.post(`/api/v1/projects/${projectId}/destinations`, { data: { type: 'Local' } });
  expect(added.status(), await added.text()).toBe(201);
}

/** The low-powered creator: default template, Local and Twitch in test mode, live, the camera in both outputs, a viewer's chat message on screen, end. */
async function lowPoweredCreator(browser: Browser): Promise<{ projectId: string; local: StreamReader; done: () => Promise<void> }> {
  const context = await creatorContext(browser, 'journey-creator');
  const page = await context.newPage();
  const projectId = await openNewStudio(page, 'Low-powered show', '', { template: 'Beam' });
  projects.push({ request: context.request, projectId });
  await addLocal(context.request, projectId);
  // Twitch in test mode, connected through the double's consent page as a newcomer does it.
  const destinations = page.getByRole('region', { name: 'Destinations' });
  await page.reload();
  await destinations.getByRole('button', { name: 'Add Destination' }).click();
  await page.getByTestId('destination-tile-Twitch').click();
  const form = page.getByRole('dialog');
  await form.getByLabel('Title').fill('Two creators, one server');
  const [popup] = await Promise.all([context.waitForEvent('page'), form.getByRole('button', { name: 'Add Destination' }).click()]);
  const channel = `journey_${randomUUID().slice(0, 6)}`;
  await popup.getByLabel('Test account name').fill(channel);
  const closed = popup.waitForEvent('close', { timeout: 30_000 });
  await popup.getByRole('button', { name: 'Authorize' }).click();
  await closed;
  await expect(destinations.getByTestId('destination-row')).toHaveCount(2);

  await goLive(page);
  const local = readStream(await localStreamUrl(context.request, projectId));
  readers.push(local);
  const since = performance.now();
  // The camera in the output (the default template shows it full frame).
  await local.frameWhere('the creator camera over most of the Local output', (f) => coverage(f, COLOURS.creatorCamera.rgb) > 0.6, since, 60_000, describeFrame);
  await shot(page, 'creator-live');

  // A viewer's chat message from the audience panel, put on screen by a click.
  const [panel] = await Promise.all([context.waitForEvent('page'), destinations.getByRole('link', { name: 'Act as the audience' }).click()]);
  await panel.getByLabel('Viewer name').fill('kind_viewer');
  await panel.getByLabel('Message (chat, comment, sub, cheer, Super Chat)').fill('Hello from the journey!');
  const card = panel.getByRole('listitem', { name: `Twitch: ${channel}` });
  await page.getByRole('tab', { name: 'Platform Chat' }).click();
  const chat = page.getByRole('region', { name: 'Platform chat' });
  const message = chat.getByTestId('chat-message').filter({ hasText: 'Hello from the journey!' });
  await expect(async () => {
    await card.getByRole('button', { name: 'Chat message' }).click();
    await expect(message).toBeVisible({ timeout: 5000 });
  }).toPass({ timeout: 45_000 });
  await panel.close();
  await message.click();
  await expect(message.getByTestId('on-screen-badge')).toHaveText('On screen', { timeout: 15_000 });
  // The lower third covers the bottom of the camera: less of the camera colour in the band it takes.
  const band = { x: 0, y: 560, width: 1280, height: 120 };
  const onScreenSince = performance.now();
  await local.frameWhere(
    'the chat message on screen in the Local output',
    (f) => coverageIn(f, COLOURS.creatorCamera.rgb, band) < 0.5,
    onScreenSince,
    60_000,
    describeFrame,
  );
  await shot(page, 'creator-chat-on-screen');

  return {
    projectId,
    local,
    done: async () => {
      await endBroadcast(page);
    },
  };
}

/** The console streamer: Auto Live on with a test-mode Twitch channel, no studio open; a colour feed with a tone to the ingest; then the studio with a camera. */
async function consoleStreamer(browser: Browser): Promise<{ projectId: string; local: StreamReader; done: () => Promise<void> }> {
  const context = await creatorContext(browser, 'journey-console');
  const request = context.request;
  const created = await request.post('/api/v1/projects', { data: { name: 'Console show' } });
  expect(created.status(), await created.text()).toBe(201);
  const projectId = ((await created.json()) as { id: string }).id;
  projects.push({ request, projectId });
  await addLocal(request, projectId);
  // A Twitch channel in test mode (Auto Live needs one): its consent page, in a tab of its own, no studio.
  const twitch = await request.post(`/api/v1/projects/${projectId}/destinations`, { data: { type: 'Twitch', settings: { title: 'Console night' } } });
  expect(twitch.status(), await twitch.text()).toBe(201);
  const twitchId = ((await twitch.json()) as { id: string }).id;
  const consent = await context.newPage();
  await consent.goto(`/api/v1/destinations/auth/twitch?projectId=${projectId}&destinationId=${twitchId}`);
  await consent.getByLabel('Test account name').fill(`console_${randomUUID().slice(0, 6)}`);
  await consent.getByRole('button', { name: 'Authorize' }).click();
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/api/v1/projects/${projectId}/destinations`)).json()) as { destinations: { authenticated: boolean }[] }).destinations.every(
          (d) => d.authenticated,
        ),
      {
        timeout: 20_000,
      },
    )
    .toBe(true);
  await consent.close();
  const autoLive = await request.put(`/api/v1/projects/${projectId}/auto-live`, { data: { enabled: true } });
  expect(autoLive.ok(), await autoLive.text()).toBe(true);
  const { streamKey } = (await (await request.get(`/api/v1/projects/${projectId}/ingest`)).json()) as { streamKey: string };

  // The console: a colour picture with a tone, published to the ingest under the project's key.
  // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
  const encoder = spawn('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-re',
    '-f', 'lavfi', '-i', `color=c=${COLOURS.consoleFeed.hex}:s=1280x720:r=30`, '-f', 'lavfi', '-i', 'sine=frequency=660:sample_rate=48000',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '30', '-bf', '0', '-pix_fmt', 'yuv420p', '-b:v', '800k',
    '-c:a', 'aac', '-ar', '48000', '-f', 'flv', `${process.env.ONAIR_E2E_INGEST}/ingest/${streamKey}`,
  ], { stdio: 'ignore' });
  encoders.push(encoder);
  const feedSince = performance.now();
  // Auto Live starts the broadcast by itself; the Local output then carries the feed over the whole frame.
  const localUrl = await localStreamUrl(request, projectId);
  const local = readStream(localUrl);
  readers.push(local);
  const fed = await local.frameWhere(
    'the console feed over 90 % of the Local output',
    (f) => coverage(f, COLOURS.consoleFeed.rgb) >= 0.9,
    feedSince,
    60_000,
    describeFrame,
  );
  const feedMs = Math.round(fed.at - feedSince);
  test.info().annotations.push({ type: 'console feed on air', description: `≥ 90 % of the Local output ${feedMs} ms after the encoder started` });
  console.warn(`console journey: the feed covered ≥ 90 % of the Local output ${feedMs} ms after the encoder started`);

  // The host opens the studio with a camera: it appears in a corner and the feed stays.
  const page = await context.newPage();
  await page.goto(`/studio/${projectId}`);
  await expect(page.getByRole('region', { name: 'Destinations' })).toBeVisible();
  const cameraSince = performance.now();
  await local.frameWhere(
    'the camera in a corner over the console feed',
    (f) => {
      const camera = coverage(f, COLOURS.consoleCamera.rgb);
      return camera > 0.02 && camera < 0.4 && coverage(f, COLOURS.consoleFeed.rgb) > 0.5;
    },
    cameraSince,
    60_000,
    describeFrame,
  );
  await shot(page, 'console-studio');
  return {
    projectId,
    local,
    done: async () => {
      encoder.kill('SIGKILL');
      await endBroadcast(page);
    },
  };
}

test('two creators at once: a low-powered creator live to Local and Twitch with chat on screen, beside a console streamer on Auto Live; each output shows only its own pictures; the operator sees both sessions', async () => {
  test.setTimeout(290_000);
  const [creatorBrowser, consoleBrowser] = await Promise.all([browserWithCamera(COLOURS.creatorCamera), browserWithCamera(COLOURS.consoleCamera)]);
  const [creator, console_] = await Promise.all([lowPoweredCreator(creatorBrowser), consoleStreamer(consoleBrowser)]);

  // The operator: the fleet dashboard lists both sessions with their measured cost.
  const opsContext = await creatorBrowser.newContext({ baseURL: publicOrigin(), viewport: { width: 1280, height: 720 } });
  const email = `journey-ops-${randomUUID()}@example.test`;
  await signIn(opsContext.request, email);
  await makeAdmin(email);
  const ops = await opsContext.newPage();
  await ops.goto('/admin');
  const costs = ops.getByRole('region', { name: 'Sessions: model and measured' });
  for (const projectId of [creator.projectId, console_.projectId])
    await expect(costs.locator(`[data-session-id="${projectId}"]`)).toContainText(/\d\.\d\d cores.*\d\.\d\d cores/, { timeout: 30_000 });
  await costs.scrollIntoViewIfNeeded();
  await shot(ops, 'operator-two-sessions');
  await opsContext.close();

  // Neither output ever showed the other creator's colours.
  for (const [reader, others] of [
    [creator.local, [COLOURS.consoleFeed, COLOURS.consoleCamera]],
    [console_.local, [COLOURS.creatorCamera]],
  ] as const) {
    expect(reader.frames.length).toBeGreaterThan(30);
    for (const other of others) expect(framesShowing(reader, other.rgb).length, `frames showing ${other.hex}`).toBe(0);
  }
  await Promise.all([creator.done(), console_.done()]);
});

test('two creators at once: a guest joins a host live by link, is seen in the output, leaves, and the layout re-flows; the other creator is live all along', async () => {
  test.setTimeout(290_000);
  const [hostBrowser, guestBrowser, otherBrowser] = await Promise.all([
    browserWithCamera(COLOURS.hostCamera),
    browserWithCamera(COLOURS.guestCamera),
    browserWithCamera(COLOURS.creatorCamera),
  ]);

  // The other creator: live to Local with their own camera, from the first minute to the last.
  const otherContext = await creatorContext(otherBrowser, 'journey-other');
  const otherPage = await otherContext.newPage();
  const otherProject = await openNewStudio(otherPage, 'The other show', '', { template: 'Beam' });
  projects.push({ request: otherContext.request, projectId: otherProject });
  await addLocal(otherContext.request, otherProject);
  await otherPage.reload();

  const hostContext = await creatorContext(hostBrowser, 'journey-host', { premium: true });
  const host = await hostContext.newPage();
  const projectId = await openNewStudio(host, 'Guest show', '', { template: 'Beam' });
  projects.push({ request: hostContext.request, projectId });
  // Premium's 1080p, taken down to 720p: four browsers, two sessions and their encoders share two cores.
  const doc = (await (await hostContext.request.get(`/api/v1/projects/${projectId}/scene`)).json()) as { version: number };
  const resolution = await hostContext.request.patch(`/api/v1/projects/${projectId}/scene`, {
    data: { baseVersion: doc.version, ops: [{ op: 'setResolution', resolution: '720p' }] },
  });
  expect(resolution.status(), await resolution.text()).toBe(200);
  await addLocal(hostContext.request, projectId);
  await host.reload();
  await Promise.all([goLive(host), goLive(otherPage)]);
  const [hostOut, otherOut] = [
    readStream(await localStreamUrl(hostContext.request, projectId)),
    readStream(await localStreamUrl(otherContext.request, otherProject)),
  ];
  readers.push(hostOut, otherOut);
  await hostOut.frameWhere('the host camera in the host output', (f) => coverage(f, COLOURS.hostCamera.rgb) > 0.3, performance.now(), 60_000, describeFrame);

  // The guest joins by the copied link and is added to the show.
  await host.getByRole('tab', { name: 'Guests' }).click();
  await host.getByRole('region', { name: 'Invite Guests' }).getByRole('button', { name: 'Copy Guest Link' }).click();
  const link = await host.evaluate(() => navigator.clipboard.readText());
  const guestContext = await guestBrowser.newContext({ permissions: ['camera', 'microphone'], viewport: { width: 1280, height: 720 } });
  const guest = await guestContext.newPage();
  await guest.goto(link);
  await guest.getByLabel('Display name (optional)').fill('Grace');
  await guest.getByRole('button', { name: 'Join Studio' }).click();
  await expect(guest.getByTestId('media-connection')).toHaveText('Connected', { timeout: 60_000 });
  const guestTile = host.getByTestId('guest-tile').filter({ hasText: 'Grace' });
  await expect(guestTile).toHaveAttribute('data-camera', 'on', { timeout: 45_000 });
  await guestTile.hover();
  await guestTile.getByRole('button', { name: 'Add to scene' }).click();
  const guestSince = performance.now();
  await hostOut.frameWhere('the guest in the host output', (f) => coverage(f, COLOURS.guestCamera.rgb) > 0.05, guestSince, 60_000, describeFrame);
  const withGuest = hostOut.latestFrame()!;
  const hostShareWithGuest = coverage(withGuest.rgb, COLOURS.hostCamera.rgb);
  await shot(host, 'host-with-guest');

  // The guest leaves: the layout re-flows, the host's camera takes the room the guest had.
  await guestContext.close();
  const leftSince = performance.now();
  await hostOut.frameWhere(
    'the layout re-flowed without the guest',
    (f) => coverage(f, COLOURS.guestCamera.rgb) === 0 && coverage(f, COLOURS.hostCamera.rgb) > hostShareWithGuest + 0.05,
    leftSince,
    60_000,
    describeFrame,
  );
  await shot(host, 'host-guest-left');

  for (const [reader, others] of [
    [hostOut, [COLOURS.creatorCamera]],
    [otherOut, [COLOURS.hostCamera, COLOURS.guestCamera]],
  ] as const) {
    expect(reader.frames.length).toBeGreaterThan(30);
    for (const other of others) expect(framesShowing(reader, other.rgb).length, `frames showing ${other.hex}`).toBe(0);
  }
  expect(framesShowing(otherOut, COLOURS.creatorCamera.rgb).length).toBeGreaterThan(0);
  await Promise.all([endBroadcast(host), endBroadcast(otherPage)]);
});
