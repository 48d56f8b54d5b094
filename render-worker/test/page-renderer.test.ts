// One page rendered for real: Xvfb, PulseAudio, Chromium and gst-launch, received by a plain
// GStreamer RTP receiver like the session pipeline's input.
import { createSocket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTransitions } from '@onair/protocol';
import { createLogger } from '@onair/runtime';
import { readRenderConfig } from '../src/config.ts';
import { backoffMs, PageRenderer, type PageStatus } from '../src/page/page-renderer.ts';
import { KeyedFrameReader, type KeyedFrame } from './support/keyed-frames.ts';
import { freeUdpPort, pixelAt, pngSize, RtpReceiver } from './support/rtp-receiver.ts';
import { startTestSite, type TestSite } from './support/test-site.ts';

const logger = createLogger('render-worker-test', process.env.TEST_LOG_LEVEL ?? 'warn');
let site: TestSite;
/** Every status sequence must follow protocol's renderTransitions. */
const badTransitions: string[] = [];

beforeAll(async () => {
  site = await startTestSite();
});
afterAll(async () => {
  await site.close();
  expect(badTransitions).toEqual([]);
});

function renderer(
  url: string,
  videoPort: number,
  audioPort: number | null,
  opts: { transparent?: boolean; width?: number; height?: number; recycleAfterMs?: number } = {},
) {
  const statuses: PageStatus[] = [];
  const r = new PageRenderer({
    renderId: `test-${videoPort}`,
    page: { url, width: opts.width ?? 852, height: opts.height ?? 480, transparent: opts.transparent ?? false },
    video: { host: '127.0.0.1', port: videoPort, payloadType: 96 },
    audio: audioPort === null ? null : { host: '127.0.0.1', port: audioPort, payloadType: 111 },
    config: {
      ...readRenderConfig({}),
      allowedHosts: new Set([`localhost:${site.port}`]),
      ...(opts.recycleAfterMs === undefined ? {} : { recycleAfterMs: opts.recycleAfterMs }),
    },
    logger,
    onStatus: (s) => {
      const last = statuses.at(-1);
      if (last && last.state !== s.state && !renderTransitions[last.state].includes(s.state)) badTransitions.push(`${last.state} → ${s.state}`);
      statuses.push(s);
    },
  });
  return { r, statuses };
}

async function waitFor<T>(what: string, fn: () => T | undefined | false, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function near(rgb: [number, number, number], want: [number, number, number], tolerance = 60): boolean {
  return rgb.every((v, i) => Math.abs(v - (want[i] ?? 0)) <= tolerance);
}

/** The newest complete frame that satisfies `ok`, waiting for new frames until the timeout. */
async function waitForFrame(recv: RtpReceiver, ok: (frame: string) => Promise<boolean>, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let seen = (await recv.frames()).length;
  for (;;) {
    const [frame] = await recv.waitForFrames(1, Math.max(1, deadline - Date.now()), seen - 1);
    seen = (await recv.frames()).length;
    if (frame && (await ok(frame))) return frame;
    if (Date.now() > deadline) throw new Error('no frame as expected');
  }
}

describe('a rendered page', () => {
  it('streams a moving picture at the layer size and the page sound', async () => {
    const [videoPort, audioPort] = [await freeUdpPort(), await freeUdpPort()];
    const recv = await RtpReceiver.start(videoPort, audioPort);
    const { r, statuses } = renderer(`${site.base}/animated`, videoPort, audioPort);
    try {
      r.start();
      await waitFor('live', () => statuses.some((s) => s.state === 'live'), 30_000);
      // Wait for the page's own background (#202040) to reach the receiver, then watch the box slide.
      const painted = await waitForFrame(recv, async (f) => near(await pixelAt(f, 5, 400), [0x20, 0x20, 0x40]), 20_000);
      expect(await pngSize(painted)).toEqual({ width: 852, height: 480 });
      const [next, later] = (await recv.waitForFrames(2, 10_000, (await recv.frames()).indexOf(painted) + 1)) as [string, string];
      expect((await readFile(painted)).equals(await readFile(next)) && (await readFile(next)).equals(await readFile(later))).toBe(false);
      // The tone reaches the receiver (silence would be ~0; the tone is ~10 000).
      const deadline = Date.now() + 10_000;
      let level = 0;
      while (Date.now() < deadline && level < 500) {
        level = await recv.audioRms(1);
        await new Promise((res) => setTimeout(res, 300));
      }
      expect(level).toBeGreaterThan(500);
    } finally {
      await r.stop();
      await recv.stop();
    }
  });

  it('draws a transparent page over the chroma key, which the session keys out', async () => {
    const videoPort = await freeUdpPort();
    // Received as the session's compositor does it: key removed (alpha method=green), over a red background.
    const recv = await RtpReceiver.start(videoPort, null, { width: 852, height: 480, argb: 0xffff0000 });
    const { r, statuses } = renderer(`${site.base}/transparent`, videoPort, null, { transparent: true });
    try {
      r.start();
      await waitFor('live', () => statuses.some((s) => s.state === 'live'), 30_000);
      // The page's own blue box is kept…
      const last = await waitForFrame(recv, async (f) => near(await pixelAt(f, 100, 100), [0, 0, 255]), 20_000);
      // …and where the page has no background the scene below shows, up to the last row and column.
      expect(near(await pixelAt(last, 600, 400), [255, 0, 0])).toBe(true);
      expect(near(await pixelAt(last, 851, 479), [255, 0, 0])).toBe(true);
    } finally {
      await r.stop();
      await recv.stop();
    }
  });

  // Issue 35: a page added to a live show, or given a new url, covers nothing under its layer
  // until it has loaded and painted. Every frame sent is read, keyed over red as the session
  // composites it: before the page's box shows, nothing of the layer may show (no black display,
  // no white window or document being loaded), only the red beneath.
  it.each([
    { transparent: true, what: 'a transparent page' },
    { transparent: false, what: 'an opaque page' },
  ])('covers nothing under its layer before $what has loaded and painted, also on a new url', async ({ transparent }) => {
    const size = { width: 852, height: 480 };
    const videoPort = await freeUdpPort();
    const reader = KeyedFrameReader.start(videoPort, size, 0xff0000);
    const RED: [number, number, number] = [255, 0, 0];
    const BLUE: [number, number, number] = [0, 0, 255];
    const YELLOW: [number, number, number] = [255, 255, 0];
    // Where the page has no background: the key (red here), or Chromium's white for an opaque page.
    const empty: [number, number, number] = transparent ? RED : [255, 255, 255];
    const points = { box: { x: 100, y: 100 }, middle: { x: 600, y: 300 }, corner: { x: 840, y: 470 } };
    const at = (f: KeyedFrame, p: { x: number; y: number }) => reader.colourAt(f, p.x, p.y, size);
    const seen = (f: KeyedFrame) =>
      Object.entries(points)
        .map(([name, p]) => `${name} ${at(f, p).join(',')}`)
        .join(', ');
    const keyed = (f: KeyedFrame) => Object.values(points).every((p) => near(at(f, p), RED));
    const painted = (box: [number, number, number]) => (f: KeyedFrame) =>
      near(at(f, points.box), box) && near(at(f, points.middle), empty) && near(at(f, points.corner), empty);
    const firstAfter = async (from: number, what: string, ok: (f: KeyedFrame) => boolean) =>
      waitFor(
        what,
        () => {
          const i = reader.frames.findIndex((f, n) => n >= from && ok(f));
          return i === -1 ? undefined : i;
        },
        30_000,
      );
    // Both pages take 3 s to arrive; the first also waits for its Chromium to start.
    const { r, statuses } = renderer(`${site.base}/slow?color=0000ff`, videoPort, null, { transparent, ...size });
    try {
      r.start();
      const shown = await firstAfter(0, 'the blue page', painted(BLUE));
      const before = reader.frames.slice(0, shown);
      const covering = before.filter((f) => !keyed(f));
      expect(
        { frames: covering.length, first: covering.slice(0, 3).map(seen) },
        `frames that covered the layer before the page showed, of ${before.length}`,
      ).toEqual({ frames: 0, first: [] });
      expect(statuses.some((s) => s.state === 'live')).toBe(true);
      // A new url: the old page or the key while the new one loads, then the new page.
      const changedAt = reader.frames.length;
      r.update({ url: `${site.base}/slow?color=ffff00`, transparent, ...size });
      const shownAgain = await firstAfter(changedAt, 'the yellow page', painted(YELLOW));
      const between = reader.frames.slice(changedAt, shownAgain);
      const loading = between.filter((f) => !keyed(f) && !painted(BLUE)(f));
      expect(
        { frames: loading.length, first: loading.slice(0, 3).map(seen) },
        `frames neither the old page nor the key while the new url loaded, of ${between.length}`,
      ).toEqual({ frames: 0, first: [] });
    } finally {
      await r.stop();
      await reader.stop();
    }
  });

  it('comes back within 10 s after its Chromium is killed, and the stream never stops', async () => {
    const videoPort = await freeUdpPort();
    const recv = await RtpReceiver.start(videoPort, null);
    const { r, statuses } = renderer(`${site.base}/animated`, videoPort, null);
    try {
      r.start();
      await waitFor('live', () => statuses.some((s) => s.state === 'live'), 30_000);
      await recv.waitForFrames(2, 20_000);
      const pid = r.chromiumPid;
      expect(pid).toBeDefined();
      const killedAt = Date.now();
      const before = statuses.length;
      process.kill(pid as number, 'SIGKILL');
      const framesAtKill = (await recv.frames()).length;
      await waitFor('crash reported', () => statuses.slice(before).find((s) => s.state === 'unavailable' && s.problem?.code === 'PAGE_CRASHED'), 5_000);
      await waitFor('live again', () => statuses.slice(before).some((s) => s.state === 'live'), 10_000);
      expect(Date.now() - killedAt).toBeLessThan(10_000);
      expect(r.chromiumPid).not.toBe(pid);
      // Frames kept coming through the restart (the relay sent the cover while Chromium was gone).
      await recv.waitForFrames(2, 5_000, framesAtKill);
    } finally {
      await r.stop();
      await recv.stop();
    }
  });

  it('refuses private, loopback and metadata addresses, directly and through redirects, with a reason', async () => {
    const videoPort = await freeUdpPort();
    const { r, statuses } = renderer('http://10.0.0.1/', videoPort, null);
    const refusedAfter = async (from: number) => waitFor('refused', () => statuses.slice(from).find((s) => s.state === 'refused'), 20_000);
    try {
      r.start();
      expect((await refusedAfter(0)).problem).toMatchObject({
        code: 'ADDRESS_REFUSED',
        fault: 'user',
        reason: expect.stringContaining('private network address (10.0.0.1)'),
      });

      const cases: [string, RegExp][] = [
        [`http://127.0.0.1:${site.port}/direct`, /loopback address \(127\.0\.0\.1\)/],
        ['http://169.254.169.254/latest/meta-data/', /cloud metadata service/],
        [`${site.base}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${site.port}/via-redirect`)}`, /loopback address \(127\.0\.0\.1\)/],
        [`${site.base}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`, /cloud metadata service/],
        [`${site.base}/redirect?to=${encodeURIComponent('http://10.0.0.1/admin')}`, /private network address \(10\.0\.0\.1\)/],
      ];
      for (const [url, reason] of cases) {
        const from = statuses.length;
        r.update({ url, width: 852, height: 480, transparent: false });
        const refused = await refusedAfter(from);
        expect(refused.problem?.reason).toMatch(reason);
      }
      // The redirects were followed to our proxy and stopped there: the site saw them, never their targets.
      expect(site.requests.filter((p) => p === '/redirect').length).toBeGreaterThanOrEqual(3);
      expect(site.requests).not.toContain('/direct');
      expect(site.requests).not.toContain('/via-redirect');
    } finally {
      await r.stop();
    }
  });

  it("runs each page in its own browser: a page cannot read another page's data or reach private addresses by fetch, WebSocket, WebRTC or WebTransport", async () => {
    const a = renderer(`${site.base}/write-secret`, await freeUdpPort(), null);
    // A UDP socket standing in for an internal service that a STUN request could reach.
    const udp = createSocket('udp4');
    const datagrams: Buffer[] = [];
    udp.on('message', (m: Buffer) => datagrams.push(m));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', () => resolve()));
    const b = renderer(`${site.base}/read-secret?stun=${udp.address().port}`, await freeUdpPort(), null);
    try {
      a.r.start();
      await waitFor('page A stored its secret', () => site.reports.find((p) => p.get('from') === 'a'), 30_000);
      b.r.start();
      const found = await waitFor('page B looked', () => site.reports.find((p) => p.get('from') === 'b' && p.has('found')), 30_000);
      // Nothing of page A: no localStorage entry, no cookie, no IndexedDB database.
      expect(found.get('found')).toBe('||');
      const ws = await waitFor('page B tried a WebSocket', () => site.reports.find((p) => p.get('from') === 'b' && p.has('ws')), 15_000);
      expect(ws.get('ws')).toBe('blocked');
      await waitFor('page B tried every private address', () => site.reports.filter((p) => p.get('from') === 'b' && p.has('url')).length === 3, 15_000);
      expect(site.requests).not.toContain('/secret-direct');
      expect(site.requests).not.toContain('/secret-ws');
      await waitFor('page B tried WebRTC', () => site.reports.find((p) => p.get('from') === 'b' && p.has('stun')), 15_000);
      expect(datagrams).toHaveLength(0);
    } finally {
      await Promise.all([a.r.stop(), b.r.stop()]);
      udp.close();
    }
  });

  it('shows the placeholder while a page fails to load, and retries with growing delays', async () => {
    const videoPort = await freeUdpPort();
    const recv = await RtpReceiver.start(videoPort, null);
    const { r, statuses } = renderer(`${site.base}/missing`, videoPort, null);
    try {
      r.start();
      const first = await waitFor('unavailable', () => statuses.find((s) => s.state === 'unavailable'), 30_000);
      expect(first.problem).toMatchObject({ code: 'HTTP_ERROR', fault: 'user', reason: 'The page answered with an error (HTTP 404).' });
      const second = await waitFor('retried', () => statuses.find((s) => s.state === 'unavailable' && s.attempt === first.attempt + 1), 10_000);
      // Each retry waits longer than the one before.
      expect(backoffMs(second.attempt)).toBeGreaterThan(backoffMs(first.attempt));
      expect(site.requests.filter((p) => p === '/missing').length).toBeGreaterThanOrEqual(2);
      // The program shows the placeholder card (its dark background), never Chromium's error page.
      // While a retry loads, the layer is keyed out (the cover), so the card is looked for among the
      // frames that follow, not taken from the newest one alone.
      const seen: [number, number, number][] = [];
      const isCard = ([r, g, b]: [number, number, number]) => Math.abs(r - 0x1f) + Math.abs(g - 0x21) + Math.abs(b - 0x27) < 30;
      let after = (await recv.frames()).length;
      const lookUntil = Date.now() + 15_000;
      while (!seen.some(isCard) && Date.now() < lookUntil) {
        const frames = await recv.waitForFrames(1, 10_000, after);
        after += frames.length;
        for (const frame of frames) seen.push(await pixelAt(frame, 20, 20));
      }
      expect(seen.some(isCard), `frames at 20,20: ${seen.map((p) => p.join(',')).join(' ')}`).toBe(true);
      expect(seen.filter(([r, g, b]) => r > 200 && g > 200 && b > 200)).toEqual([]);
    } finally {
      await r.stop();
      await recv.stop();
    }
  });

  it('kills and restarts a page that stops responding', async () => {
    const { r, statuses } = renderer(`${site.base}/hang`, await freeUdpPort(), null);
    try {
      r.start();
      await waitFor('live', () => statuses.some((s) => s.state === 'live'), 30_000);
      const pid = r.chromiumPid;
      const hung = await waitFor('hang detected', () => statuses.find((s) => s.state === 'unavailable' && s.problem?.code === 'PAGE_HUNG'), 15_000);
      expect(hung.problem?.fault).toBe('service');
      const liveCount = statuses.filter((s) => s.state === 'live').length;
      await waitFor('live again', () => statuses.filter((s) => s.state === 'live').length > liveCount, 15_000);
      expect(r.chromiumPid).not.toBe(pid);
    } finally {
      await r.stop();
    }
  });

  it('recycles Chromium on schedule without reporting the page unavailable', async () => {
    const { r, statuses } = renderer(`${site.base}/animated`, await freeUdpPort(), null, { recycleAfterMs: 3_000 });
    try {
      r.start();
      await waitFor('live', () => statuses.some((s) => s.state === 'live'), 30_000);
      const pid = r.chromiumPid;
      await waitFor('a new Chromium', () => r.chromiumPid !== undefined && r.chromiumPid !== pid && r.status?.state === 'live', 20_000);
      expect(statuses.filter((s) => s.state === 'unavailable')).toEqual([]);
    } finally {
      await r.stop();
    }
  });

  it('re-creates the page at a new layer size, even-sized', async () => {
    const videoPort = await freeUdpPort();
    const recv = await RtpReceiver.start(videoPort, null);
    const { r, statuses } = renderer(`${site.base}/animated`, videoPort, null);
    try {
      r.start();
      await waitFor('live', () => statuses.some((s) => s.state === 'live'), 30_000);
      const from = statuses.length;
      // An odd size (a layer dragged to 1279×719) is rendered one pixel larger: H.264 4:2:0 needs even sizes.
      r.update({ url: `${site.base}/animated`, width: 1279, height: 719, transparent: false });
      await waitFor('live at the new size', () => statuses.slice(from).some((s) => s.state === 'live'), 30_000);
      const frames = await recv.waitForFrames(2, 15_000, (await recv.frames()).length);
      expect(await pngSize(frames.at(-1) as string)).toEqual({ width: 1280, height: 720 });
    } finally {
      await r.stop();
      await recv.stop();
    }
  });
});
