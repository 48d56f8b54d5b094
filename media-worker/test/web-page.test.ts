// A web-page source end to end on real processes: a media worker places the session, asks a real
// render worker (Chromium on Xvfb) for the page, receives it as RTP, keys out its transparent
// background and composites it at the layer's place; nginx-rtmp receives the program.
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRtmpServer, waitFor, type RunningRtmpServer } from '@onair/embedded';
import { isolatedRedisUrl } from '@onair/embedded/test-services';
import { newProjectDocument, sceneToRenderPlan, sessionKeys, queues, type SceneDocument, type Source } from '@onair/protocol';
import { SecretBox } from '@onair/runtime';
import { startWorkerProcess, type WorkerUnderTest } from '@onair/runtime/testkit';
import { createInputResolver } from '../src/placement/input-resolver.ts';
import { MediaPorts } from '../src/webrtc/media-ports.ts';
import { grabFrame, near, pixel, probeStream, type Frame } from './helpers/stream-probe.ts';
import { secretKey } from './helpers/session-fixture.ts';
import { killWorkers, queueSession } from './helpers/placement-fixture.ts';

const execFileAsync = promisify(execFile);
const mediaRoot = fileURLToPath(new URL('..', import.meta.url));
const renderRoot = fileURLToPath(new URL('../../render-worker', import.meta.url));
const WIDTH = 854;
const HEIGHT = 480;
const RED = [255, 48, 48];
/** A database of this file's own: other files' workers run beside these. */
let redisUrl = '';

// No background of its own: the page is transparent, so the program's black shows around the box.
const PAGE = `<!doctype html><html><body style="margin:0">
<div style="position:absolute;top:100px;width:200px;height:200px;background:#ff3030;animation:slide 1.2s linear infinite alternate"></div>
<style>@keyframes slide{from{left:0}to{left:620px}}</style>
<script>const c = new AudioContext(); const o = c.createOscillator(); o.frequency.value = 440; o.connect(c.destination); o.start();</script>
</body></html>`;

type Box = { x: number; y: number; width: number; height: number };
const within = (b: Box, x: number, y: number) => x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height;

/** Red pixels inside the page's layer, and anywhere else but the logo (whose dot is red too). */
function redPixels(frame: Frame, box: Box, logo: Box): { inside: number[]; outside: number } {
  const inside: number[] = [];
  let outside = 0;
  for (let y = 0; y < HEIGHT; y += 2) {
    for (let x = 0; x < WIDTH; x += 2) {
      if (!near(pixel(frame, x, y), RED, 70)) continue;
      if (within(box, x, y)) inside.push(x);
      else if (!within(logo, x, y)) outside += 1;
    }
  }
  return { inside, outside };
}

describe('a web-page source in the program', () => {
  let redis: Redis;
  let dir: string;
  let rtmp: RunningRtmpServer;
  let site: Server;
  let sitePort: number;
  const workers: WorkerUnderTest[] = [];

  beforeAll(async () => {
    redisUrl = await isolatedRedisUrl();
    redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    dir = await mkdtemp(join(tmpdir(), 'onair-webpage-'));
    rtmp = await startRtmpServer({ dir: join(dir, 'nginx') });
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    sitePort = (site.address() as AddressInfo).port;
  });

  afterAll(async () => {
    killWorkers(workers);
    await rtmp?.stop();
    site?.close();
    await redis?.flushdb();
    redis?.disconnect();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  // Its waits add up to more than the default minute: each is a bound for a loaded machine.
  it('shows the page at its layer, moving, with its sound', { timeout: 240_000 }, async ({ onTestFailed }) => {
    const key = SecretBox.generateKey();
    Object.assign(process.env, { SECRETS_KEY: key, RENDER_ALLOWED_HOSTS: `127.0.0.1:${sitePort}` });
    const render = startWorkerProcess('render', 'src/main.ts', renderRoot, redisUrl);
    const media = startWorkerProcess('media', 'src/main.ts', mediaRoot, redisUrl);
    workers.push(render, media);
    onTestFailed(() => {
      for (const [name, worker] of [
        ['render', render],
        ['media', media],
      ] as const)
        process.stdout.write(`--- the ${name} worker's last lines\n${worker.output.slice(-80).join('')}`);
    });
    await Promise.all([render.waitForRegistration(30_000), media.waitForRegistration(30_000)]);

    const doc: SceneDocument = newProjectDocument({
      projectId: randomUUID(),
      sceneId: randomUUID(),
      watermarkSourceId: randomUUID(),
      watermarkLayerId: randomUUID(),
      resolution: '480p',
    });
    const page: Source = {
      id: randomUUID(),
      kind: 'webpage',
      name: 'Alerts',
      settings: { opacity: 1, config: { url: `http://127.0.0.1:${sitePort}/overlay`, title: 'Alerts', canPreviewUrl: false, mode: 'scene-loaded' } },
    };
    doc.sources.push(page);
    doc.scenes[0]!.layers.push({
      id: randomUUID(),
      sourceId: page.id,
      x: 200,
      y: 36,
      width: 852,
      height: 480,
      crop: { top: 0, right: 0, bottom: 0, left: 0 },
      zIndex: 1,
      opacity: 1,
      visible: true,
    });
    const placements = sceneToRenderPlan(doc, createInputResolver(new MediaPorts()), []).scenes[0]!.placements;
    const box = placements.find((p) => p.inputId === page.id)!;
    const logo = placements.find((p) => p.inputId === doc.sources[0]!.id)!;

    const streamKey = secretKey();
    const queue = new Queue(queues.sessions.name, { connection: redis });
    await queueSession(queue, redis, doc, {
      box: new SecretBox(key),
      outputs: [{ id: 'local', url: `rtmp://127.0.0.1:${rtmp.port}/${rtmp.application}`, key: streamKey }],
    });
    await queue.close();

    const url = rtmp.url(streamKey);
    await waitFor('the program at the destination', () => probeStream(url), 60_000, 500);
    // The page is up once red shows inside its layer; then two frames apart it has moved.
    const first = await waitFor(
      'the page in the program',
      async () => {
        const frame = await grabFrame(url, WIDTH, HEIGHT, 2);
        return redPixels(frame, box, logo).inside.length > 20 ? frame : undefined;
      },
      60_000,
      500,
    );
    const later = await grabFrame(url, WIDTH, HEIGHT, 20);
    const a = redPixels(first, box, logo);
    const b = redPixels(later, box, logo);
    expect(a.outside).toBe(0);
    expect(b.inside.length).toBeGreaterThan(20);
    expect(Math.min(...a.inside)).not.toBe(Math.min(...b.inside));
    // Keyed out: where the page draws nothing, the program's black background shows.
    expect(near(pixel(later, box.x + box.width - 4, box.y + box.height - 4), [0, 0, 0], 40)).toBe(true);

    const { stderr } = await execFileAsync(
      'ffmpeg',
      ['-v', 'info', '-rw_timeout', '8000000', '-i', url, '-t', '3', '-vn', '-af', 'volumedetect', '-f', 'null', '-'],
      { timeout: 30_000 },
    );
    const mean = Number(/mean_volume: (-?[\d.]+) dB/.exec(stderr)?.[1] ?? '-91');
    expect(mean).toBeGreaterThan(-45);
    process.stdout.write(`web page in the program: red box x ${Math.min(...a.inside)} → ${Math.min(...b.inside)}, audio mean ${mean} dB\n`);

    await redis.publish(sessionKeys.commands(doc.projectId), JSON.stringify({ type: 'stop' }));
    await waitFor('the session to end', async () => ((await redis.get(sessionKeys.owner(doc.projectId))) ? undefined : true), 20_000, 200);
    expect((await media.stop()).code).toBe(0);
    expect((await render.stop()).code).toBe(0);
  });
});
