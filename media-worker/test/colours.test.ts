/**
 * Issue 53 item 3, true colours on every path: each input kind sends a picture of known colour
 * patches (saturated colours and greys) into a real pipeline, and the program's RTMP output, read
 * back with ffmpeg as a platform would, shows each patch within ±12 per channel. The browser
 * camera is a real headless Chromium publishing its fake camera (a y4m file as ffmpeg makes it, the
 * way the e2e's solidCameraFile does) over WebRTC in VP8 and in H.264; the studio preview that
 * the page receives back must show the same colours. The other paths: a WHIP publisher (werift,
 * VP8 from libvpx), an RTMP ingest feed pulled by the ingest relay (H.264 tagged BT.709, as OBS
 * sends), a web page as the render worker encodes it, an image and a video file.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pino from 'pino';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { freePort, waitFor, type RunningRtmpServer } from '@onair/embedded';
import { isolatedRedisUrl } from '@onair/embedded/test-services';
import {
  newProjectDocument,
  renderPlanSchema,
  sceneToRenderPlan,
  sessionKeys,
  queues,
  type OfferedTrack,
  type PlanInput,
  type RenderPlan,
  type SceneDocument,
} from '@onair/protocol';
import { SecretBox } from '@onair/runtime';
import { startWorkerProcess, type WorkerUnderTest } from '@onair/runtime/testkit';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import { IngestRelay } from '../src/ingest/ingest-relay.ts';
import { createInputResolver } from '../src/placement/input-resolver.ts';
import { readDocument } from '../src/placement/session-runner.ts';
import { MediaPorts, PIPELINE_PAYLOAD_TYPES } from '../src/webrtc/media-ports.ts';
import { WebrtcEndpoint } from '../src/webrtc/webrtc-endpoint.ts';
import { killWorkers, queueSession } from './helpers/placement-fixture.ts';
import { createFixture, secretKey, type Fixture } from './helpers/session-fixture.ts';
import { grabFrame, pixel, type Frame } from './helpers/stream-probe.ts';

const execFileAsync = promisify(execFile);
type Rgb = [number, number, number];

const WIDTH = 854;
const HEIGHT = 480;
/** The sent pictures' size: HD, where GStreamer's guess for an untagged picture is BT.709. */
const SOURCE_WIDTH = 1280;
const SOURCE_HEIGHT = 720;
const TOLERANCE = 12;

/** Four columns, two rows: saturated colours above, the greens, an orange and greys below. */
const PATCHES: Rgb[] = [
  [200, 50, 50],
  [50, 200, 50],
  [50, 50, 200],
  [230, 200, 40],
  [0, 182, 0],
  [255, 128, 0],
  [40, 40, 40],
  [180, 180, 180],
];
const COLUMNS = 4;
const ROWS = 2;

/**
 * For a web page: the render worker paints a page's transparent parts in the chroma key (pure
 * green) and the pipeline keys out everything near green: a page's two greens are replaced.
 */
const PAGE_PATCHES: Rgb[] = PATCHES.map((rgb, i) => (i === 1 ? [0, 150, 170] : i === 4 ? [120, 60, 200] : rgb));

/** The patches as one RGB24 frame of `width`×`height`. */
function patchFrame(width: number, height: number): Buffer {
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = PATCHES[Math.floor((y * ROWS) / height) * COLUMNS + Math.floor((x * COLUMNS) / width)]!;
      rgb.set(colour, (y * width + x) * 3);
    }
  }
  return rgb;
}

/** ffmpeg's input options for the patch frame (one raw RGB24 frame at the source size, looped at 30 fps); `live` reads it in real time. */
function patchInput(live = false): string[] {
  // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
  return [
    ...(live ? ['-re'] : []),
    '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${SOURCE_WIDTH}x${SOURCE_HEIGHT}`, '-r', '30', '-stream_loop', '-1', '-i', rawPatches,
  ];
}

/** A file of `seconds` of the patches, made by ffmpeg with `args` (codec, pixel format, colour tags). */
async function fileFromPatches(path: string, seconds: number, args: string[]): Promise<string> {
  await execFileAsync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...patchInput(), '-t', String(seconds), ...args, path]);
  return path;
}

/** An ffmpeg that sends the patches live until killed (killed with the file's fixture at the latest). */
function liveFromPatches(args: string[]): ChildProcess {
  const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...args], { stdio: 'ignore' });
  senders.push(child);
  return child;
}

/** The centres of the patches, as fractions of the picture. */
const CENTRES = PATCHES.map((_, i) => ({ fx: ((i % COLUMNS) + 0.5) / COLUMNS, fy: (Math.floor(i / COLUMNS) + 0.5) / ROWS }));

/** The mean colour of 9×9 pixels around each patch's centre in a frame that shows the picture over the whole canvas. */
function readPatches(frame: Frame): Rgb[] {
  return CENTRES.map(({ fx, fy }) => {
    const cx = Math.round(fx * frame.width);
    const cy = Math.round(fy * frame.height);
    const sum = [0, 0, 0];
    for (let dy = -4; dy <= 4; dy++) for (let dx = -4; dx <= 4; dx++) pixel(frame, cx + dx, cy + dy).forEach((v, c) => (sum[c]! += v));
    return sum.map((v) => Math.round(v / 81)) as Rgb;
  });
}

/** The largest difference on any channel of any patch. */
function worst(read: readonly Rgb[], sent: readonly Rgb[] = PATCHES): number {
  return Math.max(...read.flatMap((rgb, i) => rgb.map((v, c) => Math.abs(v - sent[i]![c]!))));
}

const table = (read: readonly Rgb[], sent: readonly Rgb[] = PATCHES) => read.map((rgb, i) => `(${sent[i]!.join(',')}) -> (${rgb.join(',')})`).join('; ');

let fx: Fixture;
let rtmp: RunningRtmpServer;
let rawPatches: string;
const ports = new MediaPorts();
const results: string[] = [];
const senders: ChildProcess[] = [];

/**
 * Reads the output until the picture shows (the first patch within 60 of its colour: not the
 * placeholder, not black), then the patches of a later frame. `ready` must hold too (the sender at
 * its full size, say) before a frame counts.
 */
async function outputPatches(url: string, ready: () => Promise<boolean> = async () => true, sent: readonly Rgb[] = PATCHES): Promise<Rgb[]> {
  await waitFor(
    'the picture in the output',
    async () => {
      if (!(await ready())) return undefined;
      const f = await grabFrame(url, WIDTH, HEIGHT, 0, 10_000).catch(() => undefined);
      return f && readPatches(f)[0]!.every((v, c) => Math.abs(v - sent[0]![c]!) <= 60) ? true : undefined;
    },
    60_000,
    250,
  );
  return readPatches(await grabFrame(url, WIDTH, HEIGHT, 10, 15_000));
}

function report(path: string, read: Rgb[], sent: readonly Rgb[] = PATCHES): void {
  const line = `colours ${path}: worst ${worst(read, sent)}: ${table(read, sent)}`;
  results.push(line);
  process.stdout.write(`${line}\n`);
}

/** A 480p plan that shows one input over the whole canvas. */
function planOf(input: PlanInput, key: string): RenderPlan {
  return renderPlanSchema.parse({
    profile: { width: WIDTH, height: HEIGHT, fps: 30, videoBitrateKbps: 2500, audioBitrateKbps: 128, encoderThreads: 1 },
    inputs: [input],
    scenes: [{ id: 'main', placements: [{ inputId: input.id, x: 0, y: 0, width: WIDTH, height: HEIGHT, zorder: 1 }] }],
    activeSceneId: 'main',
    outputs: [{ id: 'local', url: `rtmp://127.0.0.1:${rtmp.port}/live`, key }],
  });
}

/** Runs a plan of `input` alone, reads its patches in the output, and stops it. */
async function patchesOf(path: string, input: PlanInput): Promise<Rgb[]> {
  const sessionId = randomUUID();
  const key = secretKey();
  fx.host.startSession({ sessionId, planVersion: 1, plan: planOf(input, key) });
  try {
    await fx.waitForOutput(sessionId, 'local', 'live');
    const read = await outputPatches(rtmp.url(key));
    report(path, read);
    return read;
  } finally {
    await fx.host.stopSession(sessionId);
  }
}

beforeAll(async () => {
  fx = await createFixture({ onReport: (sessionId, r) => endpoint?.onPipelineReport(sessionId, r) });
  rtmp = await fx.rtmp();
  rawPatches = join(fx.dir, 'patches.rgb');
  await writeFile(rawPatches, patchFrame(SOURCE_WIDTH, SOURCE_HEIGHT));
  const logger = pino({ level: 'info' }, { write: (line: string) => void fx.logs.push(line.trim()) });
  endpoint = new WebrtcEndpoint({
    ports,
    logger,
    loadDocument: (id) => readDocument(fx.redis, id),
    network: { additionalHostAddresses: ['127.0.0.1'] },
    setJitterLatency: (id, ms) => fx.host.setJitterLatency(id, ms),
  });
});

afterAll(async () => {
  for (const child of senders) child.kill('SIGKILL');
  await endpoint?.close();
  process.stdout.write(`${results.join('\n')}\n`);
  await fx?.close();
});

let endpoint: WebrtcEndpoint | undefined;

/** A project whose scene shows one webcam source over the whole canvas (no watermark over the patches). */
function documentWithCamera(): { doc: SceneDocument; cameraId: string } {
  const doc = newProjectDocument({
    projectId: randomUUID(),
    sceneId: randomUUID(),
    watermarkSourceId: randomUUID(),
    watermarkLayerId: randomUUID(),
    resolution: '480p',
  });
  const cameraId = randomUUID();
  doc.sources = [
    {
      id: cameraId,
      kind: 'webcam',
      name: 'Camera',
      settings: {
        opacity: 1,
        volume: 1,
        muted: false,
        webcamDeviceId: null,
        microphoneDeviceId: 'default',
        displayName: '',
        userId: null,
        mirrorCamera: false,
      },
    },
  ];
  doc.scenes[0]!.layers = [
    {
      id: randomUUID(),
      sourceId: cameraId,
      ...{ x: 0, y: 0, width: 1280, height: 720 },
      crop: { top: 0, right: 0, bottom: 0, left: 0 },
      zIndex: 1,
      opacity: 1,
      visible: true,
    },
  ];
  return { doc, cameraId };
}

/** Starts `doc`'s session as the worker does (its document in Redis, its WebRTC media with the studio preview, its pipeline). */
async function startDocumentSession(doc: SceneDocument): Promise<{ projectId: string; key: string; stop: () => Promise<void> }> {
  const projectId = doc.projectId;
  await fx.redis.hset(sessionKeys.document(projectId), 'version', String(doc.version), 'document', JSON.stringify(doc));
  const preview = await endpoint!.openSession(projectId);
  const key = secretKey();
  const plan = { ...sceneToRenderPlan(doc, createInputResolver(ports), [{ id: 'local', url: `rtmp://127.0.0.1:${rtmp.port}/live`, key }]), preview };
  fx.host.startSession({ sessionId: projectId, planVersion: 1, plan });
  await fx.waitForOutput(projectId, 'local', 'live');
  return {
    projectId,
    key,
    stop: async () => {
      await fx.host.stopSession(projectId);
      await endpoint!.closeSession(projectId);
    },
  };
}

describe('a browser camera (real Chromium over WebRTC)', () => {
  let browser: Browser;
  let pageServer: Server;
  let pageUrl: string;

  /**
   * The studio's side: the fake camera sent in `codec`, the program preview received. `readVideo`
   * reads the mean colour around the patches' centres of the local camera ('camera') or of the
   * preview ('preview'), as the page draws them; `sendWidth` is the camera's encoded width.
   */
  const PAGE_SCRIPT = `
window.publish = async (codec) => {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { width: ${SOURCE_WIDTH}, height: ${SOURCE_HEIGHT}, frameRate: 30 }, audio: false });
  const pc = new RTCPeerConnection();
  window.pc = pc;
  const camera = pc.addTransceiver(stream.getVideoTracks()[0], { direction: 'sendonly', streams: [stream] });
  camera.setCodecPreferences(RTCRtpReceiver.getCapabilities('video').codecs.filter((c) => c.mimeType === 'video/' + codec));
  const preview = pc.addTransceiver('video', { direction: 'recvonly' });
  window.videos = { camera: document.createElement('video'), preview: document.createElement('video') };
  window.videos.camera.srcObject = stream;
  for (const v of Object.values(window.videos)) { v.muted = true; v.autoplay = true; document.body.append(v); }
  pc.ontrack = (e) => { if (e.transceiver === preview) window.videos.preview.srcObject = new MediaStream([e.track]); };
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') resolve();
    pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
  });
  return { sdp: pc.localDescription.sdp, tracks: [{ mid: camera.mid, type: 'camera' }], previewMid: preview.mid };
};
window.accept = (sdp) => window.pc.setRemoteDescription({ type: 'answer', sdp });
window.sendWidth = async () => {
  let width = 0;
  (await window.pc.getStats()).forEach((r) => { if (r.type === 'outbound-rtp' && r.kind === 'video') width = r.frameWidth || 0; });
  return width;
};
window.readVideo = (which, centres) => {
  const v = window.videos[which];
  if (!v || !v.videoWidth) return null;
  const c = document.createElement('canvas');
  c.width = v.videoWidth;
  c.height = v.videoHeight;
  const g = c.getContext('2d');
  g.drawImage(v, 0, 0);
  return centres.map(({ fx, fy }) => {
    const d = g.getImageData(Math.round(fx * c.width) - 4, Math.round(fy * c.height) - 4, 9, 9).data;
    const sum = [0, 0, 0];
    for (let i = 0; i < d.length; i += 4) for (let k = 0; k < 3; k++) sum[k] += d[i + k];
    return sum.map((s) => Math.round(s / 81));
  });
};
`;

  beforeAll(async () => {
    const camera = await fileFromPatches(join(fx.dir, 'camera.y4m'), 2, ['-pix_fmt', 'yuv420p']);
    pageServer = createServer((_req, res) => res.end('<!doctype html><html><body></body></html>'));
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`;
    await mkdir(join(fx.dir, 'run'), { mode: 0o700 });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      env: { ...process.env, HOME: fx.dir, XDG_RUNTIME_DIR: join(fx.dir, 'run') },
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--use-fake-device-for-media-stream=fps=30',
        '--use-fake-ui-for-media-stream',
        `--use-file-for-fake-video-capture=${camera}`,
        '--allow-loopback-in-peer-connection',
        '--disable-features=WebRtcHideLocalIpsWithMdns',
        '--autoplay-policy=no-user-gesture-required',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    pageServer?.close();
  });

  for (const codec of ['VP8', 'H264'] as const) {
    it(`shows a Chromium camera sent in ${codec} in its true colours, in the output and in the studio preview`, async () => {
      const { projectId, key, stop } = await startDocumentSession(documentWithCamera().doc);

      const page: Page = await browser.newPage();
      try {
        await page.goto(pageUrl);
        await page.addScriptTag({ content: PAGE_SCRIPT });
        const offer = await page.evaluate<{ sdp: string; tracks: OfferedTrack[]; previewMid: string }>(`publish(${JSON.stringify(codec)})`);
        const answer = await endpoint!.offer({
          projectId,
          participantId: randomUUID(),
          publisher: { userId: 'owner', isHost: true },
          peerId: codec,
          ...offer,
          onState: () => undefined,
        });
        await page.evaluate(`accept(${JSON.stringify(answer)})`);

        // Read once Chromium sends the camera at its full size (it may start smaller): GStreamer
        // guesses an untagged picture's colour space from its size.
        const read = await outputPatches(rtmp.url(key), async () => (await page.evaluate<number>('sendWidth()')) >= SOURCE_WIDTH);
        expect(endpoint!.stats(projectId)!.participants[0]!.tracks.find((t) => t.type === 'camera')?.encoding).toBe(codec);
        const local = await page.evaluate<Rgb[]>(`readVideo('camera', ${JSON.stringify(CENTRES)})`);
        report(`Chromium's own camera preview (${codec} run)`, local);
        report(`browser camera ${codec}, output`, read);

        // The studio preview (the program, VP8 back to the page) shows what the output shows.
        const previewRead = await waitFor(
          'the picture in the studio preview',
          async () => {
            const p = await page.evaluate<Rgb[] | null>(`readVideo('preview', ${JSON.stringify(CENTRES)})`);
            return p && p[0]!.every((v, c) => Math.abs(v - PATCHES[0]![c]!) <= 60) ? p : undefined;
          },
          20_000,
          250,
        );
        report(`browser camera ${codec}, studio preview`, previewRead);
        expect(worst(read), table(read)).toBeLessThanOrEqual(TOLERANCE);
        expect(worst(previewRead), table(previewRead)).toBeLessThanOrEqual(TOLERANCE);
      } finally {
        await page.close();
        await stop();
      }
    }, 120_000);
  }
});

describe('a WHIP publisher (werift, VP8 from libvpx)', () => {
  it('shows its picture in its true colours', async () => {
    const { doc, cameraId } = documentWithCamera();
    const { projectId, key, stop } = await startDocumentSession(doc);
    const pc = new RTCPeerConnection({
      codecs: { video: [new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90_000, payloadType: 96 })], audio: [] },
      iceAdditionalHostAddresses: ['127.0.0.1'],
    });
    const video = new MediaStreamTrack({ kind: 'video' });
    const socket = createSocket('udp4');
    let sender: ChildProcess | undefined;
    try {
      const transceiver = pc.addTransceiver(video, { direction: 'sendonly' });
      await pc.setLocalDescription(await pc.createOffer());
      await waitFor('ICE gathering', async () => (pc.iceGatheringState === 'complete' ? true : undefined), 10_000, 50);
      const answer = await endpoint!.offer({
        projectId,
        participantId: randomUUID(),
        publisher: { userId: 'encoder', isHost: false, feeds: { sourceId: cameraId } },
        peerId: 'whip',
        sdp: pc.localDescription!.sdp,
        tracks: [{ mid: transceiver.mid!, type: 'camera' }],
        previewMid: null,
        onState: () => undefined,
      });
      await pc.setRemoteDescription({ type: 'answer', sdp: answer });
      socket.on('message', (packet) => video.writeRtp(packet));
      await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
      // ffmpeg's libvpx, as a third-party WebRTC client encodes: BT.601 values, no tag (VP8 has none).
      // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
      sender = liveFromPatches([
        ...patchInput(true), '-pix_fmt', 'yuv420p',
        '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '2500k', '-g', '30',
        '-f', 'rtp', '-payload_type', '96', `rtp://127.0.0.1:${socket.address().port}?pkt_size=1200`,
      ]);
      const read = await outputPatches(rtmp.url(key));
      report('WHIP VP8 (libvpx)', read);
      expect(worst(read), table(read)).toBeLessThanOrEqual(TOLERANCE);
    } finally {
      sender?.kill('SIGKILL');
      socket.close();
      await pc.close();
      await stop();
    }
  }, 120_000);
});

describe('an RTMP ingest feed (pulled by the ingest relay)', () => {
  it('shows an H.264 feed tagged BT.709, as OBS sends it, in its true colours', async () => {
    const [videoPort, audioPort] = [await freePort(), await freePort()];
    const feedKey = secretKey();
    // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
    const publisher = liveFromPatches([
      ...patchInput(true), '-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
      '-vf', 'scale=out_color_matrix=bt709:out_range=tv', '-pix_fmt', 'yuv420p',
      '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709',
      '-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-b:v', '2500k', '-g', '30',
      '-c:a', 'aac', '-f', 'flv', rtmp.url(feedKey),
    ]);
    const relay = new IngestRelay({ pullUrl: rtmp.url(feedKey), logger: pino({ level: 'silent' }), onFeed: () => undefined });
    relay.setTargets([{ video: videoPort, audio: audioPort }]);
    await relay.start();
    try {
      const read = await patchesOf('RTMP ingest (H.264 tagged BT.709)', {
        id: 'game',
        kind: 'rtp',
        video: { codecs: [{ encoding: 'H264', port: videoPort, payloadType: PIPELINE_PAYLOAD_TYPES.H264 }] },
        audio: { port: audioPort, encoding: 'OPUS', payloadType: PIPELINE_PAYLOAD_TYPES.OPUS },
      });
      expect(worst(read), table(read)).toBeLessThanOrEqual(TOLERANCE);
    } finally {
      relay.stop();
      publisher.kill('SIGKILL');
    }
  }, 120_000);
});

describe('files', () => {
  it('shows an image (PNG) in its true colours', async () => {
    const path = await fileFromPatches(join(fx.dir, 'patches.png'), 1, ['-frames:v', '1']);
    const read = await patchesOf('image (PNG)', { id: 'image', kind: 'image', path });
    expect(worst(read), table(read)).toBeLessThanOrEqual(TOLERANCE);
  }, 60_000);

  it('shows a video file (H.264 in MP4, tagged BT.709) in its true colours', async () => {
    // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
    const path = await fileFromPatches(join(fx.dir, 'patches.mp4'), 3, [
      '-vf', 'scale=out_color_matrix=bt709:out_range=tv', '-pix_fmt', 'yuv420p',
      '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-c:v', 'libx264', '-preset', 'veryfast',
    ]);
    const read = await patchesOf('video file (H.264 tagged BT.709)', { id: 'file', kind: 'video-file', path, loop: true, restartOnShow: false });
    expect(worst(read), table(read)).toBeLessThanOrEqual(TOLERANCE);
  }, 60_000);
});

describe('a web page (a real render worker and media worker)', () => {
  let site: Server;
  const workers: WorkerUnderTest[] = [];

  afterAll(() => {
    killWorkers(workers);
    site?.close();
  });

  it('shows the page in its true colours', { timeout: 240_000 }, async ({ onTestFailed }) => {
    const cells = PAGE_PATCHES.map((rgb) => `<div style="background:rgb(${rgb.join(',')})"></div>`).join('');
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<!doctype html><html><body style="margin:0"><div style="display:grid;grid-template-columns:repeat(${COLUMNS},1fr);grid-template-rows:repeat(${ROWS},1fr);width:100vw;height:100vh">${cells}</div></body></html>`,
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const sitePort = (site.address() as AddressInfo).port;
    const redisUrl = await isolatedRedisUrl();
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    const secrets = SecretBox.generateKey();
    Object.assign(process.env, { SECRETS_KEY: secrets, RENDER_ALLOWED_HOSTS: `127.0.0.1:${sitePort}` });
    const render = startWorkerProcess('render', 'src/main.ts', fileURLToPath(new URL('../../render-worker', import.meta.url)), redisUrl);
    const media = startWorkerProcess('media', 'src/main.ts', fileURLToPath(new URL('..', import.meta.url)), redisUrl);
    workers.push(render, media);
    onTestFailed(() => {
      for (const [name, worker] of [
        ['render', render],
        ['media', media],
      ] as const)
        process.stdout.write(`--- the ${name} worker's last lines\n${worker.output.slice(-80).join('')}`);
    });
    try {
      await Promise.all([render.waitForRegistration(30_000), media.waitForRegistration(30_000)]);
      const doc = newProjectDocument({
        projectId: randomUUID(),
        sceneId: randomUUID(),
        watermarkSourceId: randomUUID(),
        watermarkLayerId: randomUUID(),
        resolution: '480p',
      });
      const pageId = randomUUID();
      doc.sources = [
        {
          id: pageId,
          kind: 'webpage',
          name: 'Patches',
          settings: { opacity: 1, config: { url: `http://127.0.0.1:${sitePort}/`, title: 'Patches', canPreviewUrl: false, mode: 'scene-loaded' } },
        },
      ];
      doc.scenes[0]!.layers = [
        {
          id: randomUUID(),
          sourceId: pageId,
          ...{ x: 0, y: 0, width: 1280, height: 720 },
          crop: { top: 0, right: 0, bottom: 0, left: 0 },
          zIndex: 1,
          opacity: 1,
          visible: true,
        },
      ];
      const key = secretKey();
      const queue = new Queue(queues.sessions.name, { connection: redis });
      await queueSession(queue, redis, doc, { box: new SecretBox(secrets), outputs: [{ id: 'local', url: `rtmp://127.0.0.1:${rtmp.port}/live`, key }] });
      await queue.close();
      const read = await outputPatches(rtmp.url(key), async () => true, PAGE_PATCHES);
      report('web page (render worker, H.264 from x264enc)', read, PAGE_PATCHES);
      expect(worst(read, PAGE_PATCHES), table(read, PAGE_PATCHES)).toBeLessThanOrEqual(TOLERANCE);
      await redis.publish(sessionKeys.commands(doc.projectId), JSON.stringify({ type: 'stop' }));
      await waitFor('the session to end', async () => ((await redis.get(sessionKeys.owner(doc.projectId))) ? undefined : true), 20_000, 200);
      expect((await media.stop()).code).toBe(0);
      expect((await render.stop()).code).toBe(0);
    } finally {
      await redis.flushdb();
      redis.disconnect();
    }
  });
});
