// Issue 6 acceptance in the system Chromium with fake devices: the host's studio publishes its
// camera and microphone to the session's media worker, the local RTMP destination receives a
// stream whose frames show the camera where its layer is and whose audio is not silent, the
// studio plays the program preview, and a peer connection closed by the page comes back by itself.
import { randomUUID } from 'node:crypto';
import { expect, test } from './support/fixtures.ts';
import { fakeMediaLaunchOptions, grabFrame as grab, meanVolume, near, ORANGE, pixel } from './support/fake-media.ts';
import { openNewStudio, signIn, confirmEndBroadcast } from './support/studio.ts';
import { localStreamUrl } from './support/local-stream.ts';

// A known picture (orange) and a steady tone, so the output can be checked pixel by pixel and by level.
test.use({ launchOptions: fakeMediaLaunchOptions(), permissions: ['camera', 'microphone'] });

test('the host publishes camera and microphone, the output shows them, the preview plays, a closed connection comes back, and a shared screen reaches its layer', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  // Lets the test close the page's peer connection the way a network drop or a browser would.
  await page.addInitScript(() => {
    const Native = window.RTCPeerConnection;
    const made: RTCPeerConnection[] = [];
    (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections = made;
    window.RTCPeerConnection = class extends Native {
      constructor(config?: RTCConfiguration) {
        super(config);
        made.push(this);
      }
    };
  });
  await signIn(context.request, `webrtc-${randomUUID()}@example.test`);
  const projectId = await openNewStudio(page, 'On camera');

  // A new project's first scene holds the camera layer, at 40,40 640×360 of the canvas.
  await expect(page.locator('[data-testid="canvas-layer"][data-kind="webcam"]')).toHaveAttribute('data-box', '40,40,640,360');

  // The host joined the room by itself and is connected to the session's worker.
  const state = page.getByTestId('media-connection');
  await expect(state).toHaveText('Connected', { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Turn camera off' })).toBeEnabled();
  // Chromium names the default microphone 'default', a pseudo-device in no list: it is resolved, not reported missing.
  await expect(page.getByText('The selected device is unavailable.')).toHaveCount(0);

  expect((await context.request.post(`/api/v1/projects/${projectId}/destinations`, { data: { type: 'Local' } })).status()).toBe(201);
  // This project's own Local stream.
  const localUrl = await localStreamUrl(context.request, projectId);
  await page.getByRole('button', { name: 'Go Live' }).click();
  await expect(page.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 30_000 });

  // The output: orange in the camera's layer, black where nothing is, and sound.
  await expect
    .poll(
      async () => {
        const rgb = await grab(localUrl);
        return rgb !== undefined && near(pixel(rgb, 360, 220), ORANGE, 50) && near(pixel(rgb, 1100, 600), [0, 0, 0], 30);
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe(true);
  expect(await meanVolume(localUrl)).toBeGreaterThan(-35);

  // The studio plays the program preview in the editor canvas: the layers become frames over it.
  await expect(page.getByTestId('program-canvas')).toHaveAttribute('data-preview', 'live', { timeout: 15_000 });
  const preview = page.getByTestId('program-preview');
  await expect.poll(() => preview.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 15_000 }).toBeGreaterThan(0);
  const t0 = await preview.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect.poll(() => preview.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 5000 }).toBeGreaterThan(t0);

  // The Guests tab: the host's own camera plays on its tile, with its buttons; no guest yet.
  await page.getByRole('tab', { name: 'Guests' }).click();
  const ownTile = page.getByRole('region', { name: 'Your camera' });
  await expect.poll(() => ownTile.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 10_000 }).toBeGreaterThan(0);
  await expect(ownTile.getByRole('button', { name: 'Camera settings' })).toBeEnabled();
  await expect(page.getByRole('region', { name: 'Invite Guests' })).toBeVisible();

  // The page's peer connection is closed: it comes back by itself within 5 s.
  const closedAt = Date.now();
  await page.evaluate(() => (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections.at(-1)?.close());
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections.at(-1)?.connectionState), {
      timeout: 5000,
      intervals: [100],
    })
    .toBe('connected');
  const backMs = Date.now() - closedAt;
  await expect(state).toHaveText('Connected');
  expect(backMs).toBeLessThan(5000);
  test.info().annotations.push({ type: 'reconnect-ms', description: String(backMs) });

  // A screen share: Chromium's fake screen (green) reaches the Screen Share layer, drawn over the camera.
  await page.getByRole('button', { name: 'Add source' }).click();
  await page.getByRole('menuitem', { name: 'Screen Share' }).click();
  await page.getByRole('button', { name: 'Share your screen' }).click();
  await expect(page.getByRole('button', { name: 'Stop sharing your screen' })).toBeVisible();
  await expect
    .poll(
      async () => {
        const rgb = await grab(localUrl);
        if (!rgb) return false;
        const [r, g, b] = pixel(rgb, 360, 220);
        return g! > 180 && r! < 150 && b! < 120;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe(true);

  await page.getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(page);
  // An open studio holds a session on the stack's one media worker: free it for the flows after this one.
  await page.close();
  expect((await context.request.delete(`/api/v1/projects/${projectId}/session`)).ok()).toBe(true);
});

// Issue 41: the media worker tells each page the size its camera is shown at, and the page sends
// no more than that, so a guest in a small tile is not encoded, sent and decoded at full size.
test('the camera is sent at the size the program shows it, and at full size again when its layer grows', async ({ page, context }) => {
  test.setTimeout(120_000);
  await page.addInitScript(() => {
    const Native = window.RTCPeerConnection;
    const made: RTCPeerConnection[] = [];
    (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections = made;
    window.RTCPeerConnection = class extends Native {
      constructor(config?: RTCConfiguration) {
        super(config);
        made.push(this);
      }
    };
  });
  await signIn(context.request, `send-size-${randomUUID()}@example.test`);
  const projectId = await openNewStudio(page, 'Small camera');
  await expect(page.getByTestId('media-connection')).toHaveText('Connected', { timeout: 60_000 });
  // The width of the picture the page's camera sends now (the fake camera captures 1280×720).
  const sentWidth = () =>
    page.evaluate(async () => {
      const pc = (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections.at(-1);
      let width = 0;
      (await pc?.getStats())?.forEach((r: { type: string; kind?: string; frameWidth?: number }) => {
        if (r.type === 'outbound-rtp' && r.kind === 'video' && r.frameWidth) width = Math.max(width, r.frameWidth);
      });
      return width;
    });
  const scene = async () =>
    (await (await context.request.get(`/api/v1/projects/${projectId}/scene`)).json()) as {
      version: number;
      activeSceneId: string;
      sources: { id: string; kind: string }[];
      scenes: { id: string; layers: { id: string; sourceId: string }[] }[];
    };
  const resize = async (box: { x: number; y: number; width: number; height: number }) => {
    const doc = await scene();
    const camera = doc.sources.find((s) => s.kind === 'webcam')!;
    const layer = doc.scenes.find((s) => s.id === doc.activeSceneId)!.layers.find((l) => l.sourceId === camera.id)!;
    const ops = [
      { op: 'updateLayer', sceneId: doc.activeSceneId, layerId: layer.id, changes: box },
      { op: 'updateLayerVertical', sceneId: doc.activeSceneId, layerId: layer.id, changes: box },
    ];
    expect((await context.request.patch(`/api/v1/projects/${projectId}/scene`, { data: { baseVersion: doc.version, ops } })).ok()).toBe(true);
  };

  // Full frame: sent at the camera's full 1280.
  await resize({ x: 0, y: 0, width: 1280, height: 720 });
  await expect.poll(sentWidth, { timeout: 30_000, intervals: [500] }).toBe(1280);
  // A 320×180 tile on both canvases: sent at a quarter.
  await resize({ x: 40, y: 40, width: 320, height: 180 });
  await expect.poll(sentWidth, { timeout: 30_000, intervals: [500] }).toBe(320);
  // Full frame again: back to 1280.
  await resize({ x: 0, y: 0, width: 1280, height: 720 });
  await expect.poll(sentWidth, { timeout: 30_000, intervals: [500] }).toBe(1280);

  await page.close();
  expect((await context.request.delete(`/api/v1/projects/${projectId}/session`)).ok()).toBe(true);
});
