// Issue 35 acceptance: changing the show while live never interrupts what viewers receive. The host
// (Premium) is live to the local destination, read by a viewer that never looks away (every video
// packet and a small decode of every frame, from before the first change to the end). A guest whose
// camera is blue joins by link and is added to the scene, then dragged aside; the host adds a Screen
// Share layer and shares their screen (Chromium's fake screen: green); then adds a web page (one of
// their OnAir overlays: a magenta block). Around each change the longest gap between consecutive
// video packets, in stream time, stays under a restart's freeze (see MAX_STREAM_GAP_MS); the colours show at their layers; the destination
// never reconnects. A pipeline restarted for a new input (as before issue 35) leaves ~2 s of stream
// time missing, or the reader's connection broken, at that change: this flow fails on it.
// Printed beside the gaps, not asserted: the longest gap on arrival (the reader's wake-ups jitter
// with the load of the shared machine), and how long the layers already in the output were out of
// view after each change (on a loaded machine a browser's feed comes and goes by itself).
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type Locator } from '@playwright/test';
import type { BroadcastView, SceneDocument } from '@onair/protocol';
import { expect, test } from './support/fixtures.ts';
import { fakeMediaLaunchOptions, near, solidCameraFile } from './support/fake-media.ts';
import { completeOnboarding } from './support/partner.ts';
import { colourAt, readStream, type StreamReader } from './support/stream-reader.ts';
import { grantPremium, openNewStudio, signIn, confirmEndBroadcast } from './support/studio.ts';
import { localStreamUrl } from './support/local-stream.ts';

const SHOTS = process.env.ONAIR_E2E_SHOTS;
/** Half of the window read around each change (the media worker's own live-edit test reads the same). */
const AROUND_MS = 2500;
/**
 * At the viewer, not at the program: the RTMP server drops frames to a subscriber that falls behind
 * (this reader, on a shared 2-core machine), so only a freeze such as a pipeline restart's (~2.2 s)
 * fails here. That the encoded program itself has no gap over 100 ms around each change is
 * media-worker/test/live-edit.test.ts's (read from the recording, teed from the same encode).
 * 1 s was too close to what a loaded machine gives this reader: 1 088 and 1 173 ms in one CI run
 * (load 15), at a web page's addition and at a drag, with no restart.
 */
const MAX_STREAM_GAP_MS = 1500;

/** The guest's camera, the overlay's block: colours nothing else in the program has (the host's camera is orange). */
const GUEST_BLUE = [0, 64, 255];
const PAGE_MAGENTA = [255, 0, 255];
/**
 * Chromium's fake screen: dark green (a black picture drawn in its Y plane only) with a light green
 * pie sweeping round from its centre, which is this flow's probe point, so the point shows either
 * green depending on the pie's angle: read here as 0,72..168,0 and 47,255,6. Green well above red
 * and blue tells both from black, white, the guest's blue, the page's magenta and the grey
 * placeholders (26,31,48).
 */
const isScreenGreen = ([r, g, b]: number[]) => g! > 50 && g! - r! > 40 && g! - b! > 40;

/** Canvas points (1280×720) where each picture is alone once everything is in place. */
const FIRST_LAYER_CENTRE = { x: 360, y: 220 }; // every new camera-like layer starts at 40,40 640×360
const PAGE_BLOCK = { x: 860, y: 125 }; // the overlay's block, at 720,60 520×140 of a full-canvas page

test.use({ launchOptions: fakeMediaLaunchOptions(), permissions: ['camera', 'microphone'], viewport: { width: 1440, height: 900 } });

let guestBrowser: Browser;
test.beforeAll(async () => {
  // 640×360, the size of the guest's layer: a second 720p camera encode is more than two shared cores spare.
  const camera = solidCameraFile(test.info().outputPath('guest-camera.y4m'), '0x0040FF', '640x360');
  guestBrowser = await chromium.launch(fakeMediaLaunchOptions(camera));
});
test.afterAll(async () => {
  await guestBrowser?.close();
});

interface Probe {
  what: string;
  x: number;
  y: number;
  seen: (colour: number[]) => boolean;
}

interface Change {
  name: string;
  /** performance.now() of the click (or of the frame that showed it, for the page's first frames). */
  at: number;
  /** Layers already in the output that must stay in view through this change, */
  kept?: Probe[];
  /** until then (performance.now(); AROUND_MS after the change unless set). */
  keptUntil?: number;
}

/** Drags a layer of the studio canvas by (dx, dy) canvas units with the mouse; returns its box afterwards. */
async function dragLayer(layer: Locator, dx: number, dy: number): Promise<number[]> {
  const page = layer.page();
  const canvasWidth = Number(((await layer.getAttribute('data-box')) ?? '').split(',')[2]);
  const box = await layer.boundingBox();
  if (!box || !canvasWidth) throw new Error('the layer is not laid out');
  const scale = box.width / canvasWidth;
  const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await layer.click({ position: { x: box.width / 2, y: box.height / 2 } });
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + (dx * scale) / 2, from.y + (dy * scale) / 2, { steps: 5 });
  await page.mouse.move(from.x + dx * scale, from.y + dy * scale, { steps: 5 });
  await page.mouse.up();
  return ((await layer.getAttribute('data-box')) ?? '').split(',').map(Number);
}

/** Longest step between consecutive values. */
const longestGap = (values: number[]) => values.slice(1).reduce((gap, v, i) => Math.max(gap, Math.abs(v - values[i]!)), 0);

test('live: a guest joins by link and is added to the scene, a screen share and a web page are added, and the output never stops', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const request = context.request;
  await signIn(request, `live-edit-${randomUUID()}@example.test`);
  await grantPremium(request);

  // The web page: an OnAir overlay (a page the render worker can load on this offline machine) with
  // one text widget drawn as a solid magenta block.
  await completeOnboarding(request, `le_${randomUUID().slice(0, 8)}`);
  const { channels } = (await (await request.get('/api/v1/partner/channels')).json()) as { channels: { id: string; owner: boolean }[] };
  const channelId = channels.find((c) => c.owner)!.id;
  const created = await request.post(`/api/v1/partner/channels/${channelId}/overlays`, { data: { name: 'Magenta block' } });
  expect(created.status(), await created.text()).toBe(201);
  const overlay = (await created.json()) as { id: string; triggerAccess: unknown };
  const block = {
    kind: 'text',
    id: randomUUID(),
    x: 720,
    y: 60,
    width: 520,
    height: 140,
    color: '#ff00ff',
    fontSize: 96,
    text: '\u2588\u2588\u2588\u2588\u2588\u2588',
  };
  const saved = await request.put(`/api/v1/partner/channels/${channelId}/overlays/${overlay.id}`, {
    data: { name: 'Magenta block', widgets: [block], triggerAccess: overlay.triggerAccess },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  const projectId = await openNewStudio(page, 'Live edit');
  // 720p30 keeps two browsers, a page renderer, the worker and the encoder within this machine's two cores.
  const doc = (await (await request.get(`/api/v1/projects/${projectId}/scene`)).json()) as SceneDocument;
  expect(
    (
      await request.patch(`/api/v1/projects/${projectId}/scene`, { data: { baseVersion: doc.version, ops: [{ op: 'setResolution', resolution: '720p' }] } })
    ).status(),
  ).toBe(200);
  await expect(page.getByTestId('media-connection').first()).toHaveText('Connected', { timeout: 60_000 });
  expect((await request.post(`/api/v1/projects/${projectId}/destinations`, { data: { type: 'Local' } })).status()).toBe(201);
  // This project's own Local stream.
  const localUrl = await localStreamUrl(request, projectId);
  await page.getByRole('button', { name: 'Go Live' }).click();
  await expect(page.getByRole('button', { name: 'End Broadcast' })).toBeVisible({ timeout: 30_000 });

  let reader: StreamReader | undefined;
  try {
    // The viewer starts before the first change and reads until the last window is closed.
    reader = readStream(localUrl);
    const readStart = performance.now();
    await reader.packetAfter(readStart, 60_000);
    const liveReadFrom = reader.packets.at(-1)!.at;
    const changes: Change[] = [];
    /** The window after a change is closed once a packet arrived AROUND_MS after it. */
    const windowClosed = (change: Change) => reader!.packetAfter(change.at + AROUND_MS, 15_000);
    const shows = (what: string, seen: (rgb: Buffer) => boolean, since: number, at: { x: number; y: number }, timeoutMs = 30_000) =>
      reader!.frameWhere(what, seen, since, timeoutMs, (rgb) => `${colourAt(rgb, at.x, at.y).join(',')} at ${at.x},${at.y}`);
    // The gaps, per window: in the stream's own time (a hole in what viewers receive, or a restart
    // of the timestamps) and on arrival here. Arrival gaps are printed, not asserted: this machine's
    // two cores are shared with other suites, and the reader's own wake-ups jitter with their load.
    const gapRows = () => {
      const windows = [
        { name: 'before the first change (baseline)', from: changes[0]!.at - AROUND_MS, to: changes[0]!.at, kept: undefined, keptUntil: undefined },
        ...changes.map((c) => ({ name: c.name, from: c.at - AROUND_MS, to: c.at + AROUND_MS, kept: c.kept, keptUntil: c.keptUntil ?? c.at + AROUND_MS })),
      ];
      return windows.map(({ name, from, to, kept, keptUntil }) => {
        const inWindow = reader!.packets.filter((p) => p.at >= from && p.at <= to);
        return {
          name,
          streamGapMs: Math.round(longestGap(inWindow.map((p) => p.ts))),
          arrivalGapMs: Math.round(longestGap(inWindow.map((p) => p.at))),
          packets: inWindow.length,
          breaks: reader!.breaks.filter((at) => at >= from && at <= to).length,
          hidden: kept && keptUntil ? hiddenAfter(from + AROUND_MS, keptUntil, kept) : undefined,
        };
      });
    };
    /**
     * The longest time from `from` to `to` during which a layer that was in the output before the
     * change was not seen at its place (from the first frame without it to the next frame with it),
     * and what showed there instead.
     */
    const hiddenAfter = (from: number, to: number, kept: Probe[]) => {
      const frames = reader!.frames.filter((f) => f.at >= from && f.at <= to);
      let longest = { ms: 0, instead: '' };
      let since: { at: number; instead: string } | undefined;
      const close = (at: number) => {
        if (since && at - since.at > longest.ms) longest = { ms: Math.round(at - since.at), instead: since.instead };
        since = undefined;
      };
      for (const frame of frames) {
        const missing = kept.filter((p) => !p.seen(colourAt(frame.rgb, p.x, p.y)));
        if (missing.length === 0) close(frame.at);
        else since ??= { at: frame.at, instead: missing.map((p) => `${p.what} ${colourAt(frame.rgb, p.x, p.y).join(',')}`).join(', ') };
      }
      // Still out of view when the window ends.
      close(to);
      return longest;
    };
    let printed = false;
    const printGaps = (rows: ReturnType<typeof gapRows>) => {
      printed = true;
      const table =
        `live edit: longest gap between video packets at the viewer within ${AROUND_MS} ms of each change (stream time / arrival):\n` +
        rows
          .map((r) => {
            const hidden = r.hidden ? `; layers before it out of view ${r.hidden.ms} ms${r.hidden.ms > 0 ? ` (${r.hidden.instead})` : ''}` : '';
            return `  ${r.name.padEnd(40)} ${String(r.streamGapMs).padStart(5)} / ${String(r.arrivalGapMs).padStart(5)} ms  (${r.packets} packets${r.breaks ? `, ${r.breaks} breaks` : ''}${hidden})`;
          })
          .join('\n');
      process.stdout.write(`${table}\n`);
      test.info().annotations.push({ type: 'gaps', description: table });
    };

    // The guest opens the link and gets ready while the viewer reads the program unchanged.
    const guestLink = (await (await request.get(`/api/v1/projects/${projectId}/guest-link`)).json()) as { linkUrl: string };
    const guestContext = await guestBrowser.newContext({
      baseURL: process.env.ONAIR_E2E_URL,
      permissions: ['camera', 'microphone'],
      viewport: { width: 1280, height: 800 },
    });
    const guest = await guestContext.newPage();
    try {
      await guest.goto(guestLink.linkUrl);
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
      await guest.getByLabel('Display name (optional)').fill('Grace');
      // The host's Guests tab, where the guest's tile will show.
      await page.getByRole('tab', { name: 'Guests' }).click();
      await reader.packetAfter(liveReadFrom + AROUND_MS, 15_000);

      // 1. The guest joins the studio.
      const joined = { name: 'guest joins by link', at: performance.now() };
      await guest.getByRole('button', { name: 'Join Studio' }).click();
      changes.push(joined);
      await expect(guest.getByTestId('media-connection')).toHaveText('Connected', { timeout: 60_000 });
      const tile = page.getByTestId('guest-tile').filter({ hasText: 'Grace' });
      await expect(tile).toHaveAttribute('data-camera', 'on', { timeout: 30_000 });
      await windowClosed(joined);

      // 2. The host adds the guest to the scene: their blue camera at the new layer (40,40 640×360).
      await tile.hover();
      const added = { name: 'guest added to the scene', at: performance.now() };
      await tile.getByRole('button', { name: 'Add to scene' }).click();
      changes.push(added);
      const guestLayer = page.locator('[data-testid="canvas-layer"][data-kind="participant"]');
      await expect(guestLayer).toHaveAttribute('data-box', '40,40,640,360');
      await shows(
        'the guest at their layer',
        (rgb) => near(colourAt(rgb, FIRST_LAYER_CENTRE.x, FIRST_LAYER_CENTRE.y), GUEST_BLUE, 60),
        added.at,
        FIRST_LAYER_CENTRE,
      );
      await windowClosed(added);

      // 3. The host drags the guest to the lower right, out of the way of the screen share to come.
      const moved = { name: 'guest layer dragged aside', at: performance.now() };
      const [gx, gy, gw, gh] = await dragLayer(guestLayer, 600, 280);
      changes.push(moved);
      const guestCentre = { x: gx! + gw! / 2, y: gy! + gh! / 2 };
      expect(guestCentre.x > 680 || guestCentre.y > 400, `the guest layer (${gx},${gy} ${gw}×${gh}) has its centre clear of 40,40 640×360`).toBe(true);
      await shows('the guest at their moved layer', (rgb) => near(colourAt(rgb, guestCentre.x, guestCentre.y), GUEST_BLUE, 60), moved.at, guestCentre);
      await windowClosed(moved);

      // 4. A Screen Share layer (its placeholder until something is shared), then 5. the share itself.
      await page.getByRole('button', { name: 'Add source' }).click();
      const guestKept: Probe = { what: 'guest', ...guestCentre, seen: (c) => near(c, GUEST_BLUE, 60) };
      const screenLayerAdded: Change = { name: 'screen share layer added', at: performance.now(), kept: [guestKept] };
      await page.getByRole('menuitem', { name: 'Screen Share' }).click();
      changes.push(screenLayerAdded);
      await expect(page.locator('[data-testid="canvas-layer"][data-kind="screenshare"]')).toHaveAttribute('data-box', '40,40,640,360');
      await windowClosed(screenLayerAdded);
      const shared: Change = { name: 'screen share started', at: performance.now(), kept: [guestKept] };
      await page.getByRole('button', { name: 'Share your screen' }).click();
      changes.push(shared);
      await expect(page.getByRole('button', { name: 'Stop sharing your screen' })).toBeVisible();
      await shows('the screen at its layer', (rgb) => isScreenGreen(colourAt(rgb, FIRST_LAYER_CENTRE.x, FIRST_LAYER_CENTRE.y)), shared.at, FIRST_LAYER_CENTRE);
      await windowClosed(shared);

      // 6. The web page, over the whole canvas; 7. its first frames reach the program when the render
      // worker has loaded it (seconds later): that moment is measured as well.
      await page.getByRole('button', { name: 'Add source' }).click();
      await page.getByRole('menuitem', { name: 'OnAir overlay' }).click();
      const overlays = page.getByRole('dialog', { name: 'Overlays' });
      const screenKept: Probe = { what: 'screen', ...FIRST_LAYER_CENTRE, seen: isScreenGreen };
      const pageAdded: Change = { name: 'web page added', at: performance.now(), kept: [guestKept, screenKept] };
      await overlays.getByRole('button', { name: 'Add Magenta block to the scene' }).click();
      changes.push(pageAdded);
      // The dialog closes once the api took the new source (seconds on this loaded machine).
      await expect(overlays).toBeHidden({ timeout: 30_000 });
      const pageShown = await shows(
        'the web page at its layer',
        (rgb) => near(colourAt(rgb, PAGE_BLOCK.x, PAGE_BLOCK.y), PAGE_MAGENTA, 60),
        pageAdded.at,
        PAGE_BLOCK,
        60_000,
      );
      const pageFrames: Change = { name: "web page's first frame in the output", at: pageShown.at, kept: [guestKept, screenKept] };
      // While the page loads, the layers under it must stay in view too.
      pageAdded.keptUntil = pageShown.at + AROUND_MS;
      await windowClosed(pageAdded);
      changes.push(pageFrames);
      await windowClosed(pageFrames);

      // The studio as the creator sees it now, and the gaps the viewer saw.
      await page.screenshot({ path: test.info().outputPath('studio-live-edit.png') });
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/live-edit-studio.png` });
      const rows = gapRows();
      printGaps(rows);

      // Everything at its layer in one frame of what viewers receive, once the page is in. Not
      // necessarily the latest frame: on this shared machine a browser's feed stalls now and then by
      // itself (a layer black or at its placeholder for a moment, printed above as out of view).
      const colours = (rgb: Buffer) =>
        `guest ${colourAt(rgb, guestCentre.x, guestCentre.y).join(',')}, screen ${colourAt(rgb, FIRST_LAYER_CENTRE.x, FIRST_LAYER_CENTRE.y).join(',')}, page ${colourAt(rgb, PAGE_BLOCK.x, PAGE_BLOCK.y).join(',')}`;
      const together = await reader.frameWhere(
        'the guest, the screen and the page, each at its layer',
        (rgb) =>
          near(colourAt(rgb, guestCentre.x, guestCentre.y), GUEST_BLUE, 60) &&
          isScreenGreen(colourAt(rgb, FIRST_LAYER_CENTRE.x, FIRST_LAYER_CENTRE.y)) &&
          near(colourAt(rgb, PAGE_BLOCK.x, PAGE_BLOCK.y), PAGE_MAGENTA, 60),
        pageShown.at,
        30_000,
        colours,
      );
      test.info().annotations.push({
        type: 'output colours',
        description: `${colours(together.rgb)}, ${Math.round(together.at - pageShown.at)} ms after the page's first frame; at the end: ${colours(reader.latestFrame()!.rgb)}`,
      });

      // The destination was never reconnected.
      const { broadcast } = (await (await request.get(`/api/v1/projects/${projectId}/broadcast`)).json()) as { broadcast: BroadcastView };
      expect(broadcast.outputs.map((o) => [o.state, o.reconnects])).toEqual([['live', 0]]);
      // Packets per second of each window against the baseline's, read in the same run: a stall
      // shows as a stream-time gap (below); a machine loaded by the other suites only lowers the
      // rate (once in CI, 80 packets in the 5 s around the web page's addition: 16 fps).
      const rate = (row: (typeof rows)[number]) => row.packets / ((row.name.includes('baseline') ? 1 : 2) * AROUND_MS);
      for (const row of rows) {
        expect(row.breaks, `${row.name}: the viewer's connection broke off`).toBe(0);
        expect(row.packets, `${row.name}: packets read`).toBeGreaterThan(0);
        expect(rate(row), `${row.name}: ${row.packets} packets read, ${rows[0]!.packets} in the baseline's half-size window`).toBeGreaterThan(
          rate(rows[0]!) / 3,
        );
        expect(
          row.streamGapMs,
          `${row.name}: ${row.streamGapMs} ms of stream time missing between two packets (${rows[0]!.streamGapMs} ms before any change)`,
        ).toBeLessThanOrEqual(MAX_STREAM_GAP_MS);
      }
    } catch (err) {
      // What the viewer received up to the failure, for the change that broke it.
      if (changes.length > 0 && !printed) printGaps(gapRows());
      throw err;
    } finally {
      await guestContext.close();
    }
  } finally {
    reader?.stop();
  }

  await page.getByRole('button', { name: 'End Broadcast' }).click();
  await confirmEndBroadcast(page);
  await expect(page.getByRole('button', { name: 'Go Live' })).toBeVisible({ timeout: 30_000 });
  // Free the stack's media worker for the flows after this one.
  await page.close();
  expect((await request.delete(`/api/v1/projects/${projectId}/session`)).ok()).toBe(true);
});
