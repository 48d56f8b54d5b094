/**
 * Issue 6, worker side, end to end on real parts: a headless system Chromium with a fake camera
 * (a known orange picture) and a fake microphone (a 440 Hz tone) publishes over WebRTC to the
 * worker's werift endpoint; the tracks are forwarded to the session's real GStreamer pipeline,
 * which pushes to a real nginx-rtmp; the output is read back with ffmpeg. The page also receives
 * the program preview and must decode frames of it.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, type RunningRtmpServer } from '@onair/embedded';
import {
  JITTER_LATENCY_DEFAULT_MS,
  JITTER_LATENCY_MAX_MS,
  JITTER_LATENCY_MIN_MS,
  newProjectDocument,
  sceneToRenderPlan,
  sessionKeys,
  type GuestTile,
  type OfferedTrack,
  type SceneDocument,
} from '@onair/protocol';
import { createInputResolver } from '../src/placement/input-resolver.ts';
import { readDocument } from '../src/placement/session-runner.ts';
import { MediaPorts } from '../src/webrtc/media-ports.ts';
import { WebrtcEndpoint } from '../src/webrtc/webrtc-endpoint.ts';
import { createFixture, secretKey, type Fixture } from './helpers/session-fixture.ts';
import { grabFrame, near, pixel, type Frame } from './helpers/stream-probe.ts';
import { startTurnServer, type RunningTurnServer } from './helpers/turn-server.ts';

const execFileAsync = promisify(execFile);
const WIDTH = 854;
const HEIGHT = 480;
const ORANGE = [255, 128, 0];

/** The camera layer: right half of the 1280×720 scene canvas, top. */
const CAMERA_BOX = { x: 640, y: 0, width: 640, height: 360 };
/** A guest's layer: bottom left. */
const GUEST_BOX = { x: 0, y: 360, width: 640, height: 360 };
const BLUE = [0, 64, 255];

let fx: Fixture;
let rtmp: RunningRtmpServer;
let browser: Browser;
let endpoint: WebrtcEndpoint;
/** A second worker endpoint that reaches browsers only through TURN (the last test). */
let relayEndpoint: WebrtcEndpoint | undefined;
let turn: RunningTurnServer | undefined;
/** getUserMedia needs a secure context: http://127.0.0.1 is one. */
let pageServer: Server;
let pageUrl: string;
const ports = new MediaPorts();

function documentWithCamera(): { doc: SceneDocument; cameraId: string } {
  const doc = newProjectDocument({
    projectId: randomUUID(),
    sceneId: randomUUID(),
    watermarkSourceId: randomUUID(),
    watermarkLayerId: randomUUID(),
    resolution: '480p',
  });
  const cameraId = randomUUID();
  doc.sources.push({
    id: cameraId,
    kind: 'webcam',
    name: 'Camera',
    settings: { opacity: 1, volume: 1, muted: false, webcamDeviceId: null, microphoneDeviceId: 'default', displayName: '', userId: null, mirrorCamera: false },
  });
  doc.scenes[0]!.layers.push({
    id: randomUUID(),
    sourceId: cameraId,
    ...CAMERA_BOX,
    crop: { top: 0, right: 0, bottom: 0, left: 0 },
    zIndex: 1,
    opacity: 1,
    visible: true,
  });
  return { doc, cameraId };
}

/**
 * The browser side of a studio peer (what the studio page does): camera + mic sent, the program
 * preview received into a <video>. Plain JavaScript run in the page (this package has no DOM types).
 */
const PAGE_SCRIPT = `
window.publish = async (color, tileCount, codec, rtcConfig) => {
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { width: 1280, height: 720, frameRate: 30 },
    // Music mode (spec §9): no processing, or noise suppression eats the steady test tone.
    audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: 2 },
  });
  const pc = new RTCPeerConnection(rtcConfig || undefined);
  window.pc = pc;
  let cameraTrack = stream.getVideoTracks()[0];
  if (color) {
    // Another participant's camera: a canvas of one colour, so the output tells the two apart.
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 360;
    const g = canvas.getContext('2d');
    setInterval(() => { g.fillStyle = color; g.fillRect(0, 0, 640, 360); }, 33);
    cameraTrack = canvas.captureStream(30).getVideoTracks()[0];
  }
  const camera = pc.addTransceiver(cameraTrack, { direction: 'sendonly', streams: [stream] });
  // A browser that sends only one codec (H.264 from a phone's hardware encoder, say).
  if (codec) camera.setCodecPreferences(RTCRtpReceiver.getCapabilities('video').codecs.filter((c) => c.mimeType === 'video/' + codec));
  const mic = pc.addTransceiver(stream.getAudioTracks()[0], { direction: 'sendonly', streams: [stream] });
  const preview = pc.addTransceiver('video', { direction: 'recvonly' });
  // A host's tiles for guests' cameras.
  const tiles = Array.from({ length: tileCount || 0 }, () => pc.addTransceiver('video', { direction: 'recvonly' }));
  window.tileVideos = {};
  const video = document.createElement('video');
  video.muted = true;
  video.autoplay = true;
  document.body.append(video);
  pc.ontrack = (e) => {
    if (e.transceiver === preview) video.srcObject = new MediaStream([e.track]);
    if (tiles.includes(e.transceiver)) {
      const tile = document.createElement('video');
      tile.muted = true;
      tile.autoplay = true;
      tile.srcObject = new MediaStream([e.track]);
      document.body.append(tile);
      window.tileVideos[e.transceiver.mid] = tile;
    }
  };
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') resolve();
    pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
  });
  return {
    sdp: pc.localDescription.sdp,
    tracks: [{ mid: camera.mid, type: 'camera' }, { mid: mic.mid, type: 'microphone' }],
    previewMid: preview.mid,
    guestMids: tiles.map((t) => t.mid),
  };
};
window.tilePixel = (mid) => {
  const v = window.tileVideos[mid];
  if (!v || !v.videoWidth) return null;
  const c = document.createElement('canvas');
  c.width = v.videoWidth;
  c.height = v.videoHeight;
  const g = c.getContext('2d');
  g.drawImage(v, 0, 0);
  return [...g.getImageData(c.width / 2, c.height / 2, 1, 1).data].slice(0, 3);
};
window.setCamera = async (on) => {
  const t = window.pc.getTransceivers()[0];
  if (on) await t.sender.replaceTrack(window.cameraTrack);
  else { window.cameraTrack = t.sender.track; await t.sender.replaceTrack(null); }
};
window.accept = (sdp) => window.pc.setRemoteDescription({ type: 'answer', sdp });
window.selectedCandidateTypes = async () => {
  const stats = await window.pc.getStats();
  let pair;
  stats.forEach((r) => { if (r.type === 'transport' && r.selectedCandidatePairId) pair = stats.get(r.selectedCandidatePairId); });
  return pair ? [stats.get(pair.localCandidateId).candidateType, stats.get(pair.remoteCandidateId).candidateType] : null;
};
window.previewFramesDecoded = async () => {
  let frames = 0;
  (await window.pc.getStats()).forEach((r) => { if (r.type === 'inbound-rtp' && r.kind === 'video') frames = r.framesDecoded || 0; });
  return frames;
};
`;

interface PageOffer {
  sdp: string;
  tracks: OfferedTrack[];
  previewMid: string | null;
  guestMids: string[];
}

async function publish(page: Page, color?: string, tiles = 0, codec?: 'H264' | 'VP8', rtcConfig?: object): Promise<PageOffer> {
  await page.addScriptTag({ content: PAGE_SCRIPT });
  return page.evaluate<PageOffer>(
    `publish(${JSON.stringify(color ?? null)}, ${tiles}, ${JSON.stringify(codec ?? null)}, ${JSON.stringify(rtcConfig ?? null)})`,
  );
}

/** Starts `doc`'s session as the worker does (snapshot in Redis, WebRTC media, pipeline) and waits for its output. */
async function startSession(doc: SceneDocument, via: WebrtcEndpoint = endpoint): Promise<{ projectId: string; key: string }> {
  const projectId = doc.projectId;
  await fx.redis.hset(sessionKeys.document(projectId), 'version', String(doc.version), 'document', JSON.stringify(doc));
  const preview = await via.openSession(projectId);
  const key = secretKey();
  const plan = { ...sceneToRenderPlan(doc, createInputResolver(ports), [{ id: 'local', url: `rtmp://127.0.0.1:${rtmp.port}/live`, key }]), preview };
  // The watermark is an image; the camera (and any guest) listen for RTP from the start.
  expect(new Set(plan.inputs.map((i) => i.kind))).toEqual(new Set(['image', 'rtp']));
  fx.host.startSession({ sessionId: projectId, planVersion: 1, plan });
  await fx.waitForOutput(projectId, 'local', 'live');
  return { projectId, key };
}

function centreOf(box: { x: number; y: number; width: number; height: number }): { x: number; y: number } {
  const s = WIDTH / 1280;
  return { x: Math.round((box.x + box.width / 2) * s), y: Math.round((box.y + box.height / 2) * s) };
}
const cameraCentre = () => centreOf(CAMERA_BOX);

/** The background of the offline pictures (assets/placeholder-*.png), away from their icon and words. */
const PLACEHOLDER_BACKGROUND = [28, 32, 43];
function showsPlaceholder(frame: Frame, box: { x: number; y: number; width: number; height: number }): boolean {
  const s = WIDTH / 1280;
  return near(pixel(frame, Math.round((box.x + box.width * 0.1) * s), Math.round((box.y + box.height * 0.12) * s)), PLACEHOLDER_BACKGROUND, 14);
}

/** The camera's orange where the layer is, the black background in the empty bottom-right corner. */
function showsCamera(frame: Frame): boolean {
  const c = cameraCentre();
  return near(pixel(frame, c.x, c.y), ORANGE, 50) && near(pixel(frame, WIDTH - 40, HEIGHT - 40), [0, 0, 0], 30);
}

/** Mean volume of a few seconds of the stream's audio, in dBFS. */
async function meanVolume(url: string): Promise<number> {
  const { stderr } = await execFileAsync(
    'ffmpeg',
    ['-hide_banner', '-rw_timeout', '8000000', '-i', url, '-t', '3', '-vn', '-af', 'volumedetect', '-f', 'null', '-'],
    { timeout: 20_000, killSignal: 'SIGKILL' },
  );
  const match = /mean_volume: (-?[\d.]+) dB/.exec(stderr);
  return match ? Number(match[1]) : -Infinity;
}

beforeAll(async () => {
  fx = await createFixture({
    onReport: (sessionId, report) => {
      endpoint.onPipelineReport(sessionId, report);
      relayEndpoint?.onPipelineReport(sessionId, report);
    },
  });
  rtmp = await fx.rtmp();
  const camera = join(fx.dir, 'camera.y4m');
  const tone = join(fx.dir, 'tone.wav');
  await execFileAsync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=0xFF8000:s=1280x720:r=30:d=2', '-pix_fmt', 'yuv420p', camera]);
  await execFileAsync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=5', '-ac', '1', tone]);
  pageServer = createServer((_req, res) => res.end('<!doctype html><html><body></body></html>'));
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`;
  // The browser's audio client (libpulse) keeps its runtime files here, not in a pulse-* folder of /tmp.
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
      `--use-file-for-fake-audio-capture=${tone}`,
      '--allow-loopback-in-peer-connection',
      '--disable-features=WebRtcHideLocalIpsWithMdns',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
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
  if (process.env.DEBUG_LOGS) console.warn(fx.logs.filter((l) => l.includes(process.env.DEBUG_LOGS!)).join('\n'));
  await browser?.close();
  pageServer?.close();
  await endpoint?.close();
  await relayEndpoint?.close();
  await turn?.stop();
  await fx?.close();
});

describe('WebRTC tracks into the program', () => {
  it('puts a browser camera where the scene places it, with its sound, and sends the program back', async () => {
    const { doc, cameraId } = documentWithCamera();
    const { projectId, key } = await startSession(doc);

    const page = await browser.newPage();
    await page.goto(pageUrl);
    const offer = await publish(page);
    const startedAt = Date.now();
    const states: string[] = [];
    const answer = await endpoint.offer({
      projectId,
      participantId: randomUUID(),
      publisher: { userId: 'owner', isHost: true },
      peerId: 'p1',
      ...offer,
      onState: (_peer, state) => states.push(state),
    });
    expect(answer).toMatch(/x-google-start-bitrate=2500/);
    await page.evaluate(`accept(${JSON.stringify(answer)})`);

    // The output shows the camera in its layer within seconds of the answer.
    const frame = await waitFor(
      'the camera in the output',
      async () => {
        const f = await grabFrame(rtmp.url(key), WIDTH, HEIGHT, 0, 10_000).catch(() => undefined);
        return f && showsCamera(f) ? f : undefined;
      },
      20_000,
      250,
    );
    const firstFrameMs = Date.now() - startedAt;
    expect(showsCamera(frame)).toBe(true);
    expect(await meanVolume(rtmp.url(key))).toBeGreaterThan(-35);

    // The page decodes the program preview.
    const decoded = await waitFor(
      'preview frames decoded in the page',
      async () => {
        const n = await page.evaluate<number>('previewFramesDecoded()');
        return n > 30 ? n : undefined;
      },
      15_000,
      250,
    );
    expect(decoded).toBeGreaterThan(30);
    const stats = endpoint.stats(projectId)!;
    const camera = stats.participants[0]!.tracks.find((t) => t.type === 'camera')!;
    expect(camera.plis).toBeGreaterThanOrEqual(1);
    // The pipeline says the camera's decoder lost packets: the browser is asked for a keyframe.
    endpoint.onPipelineReport(projectId, { type: 'keyframeWanted', inputId: cameraId });
    expect(endpoint.stats(projectId)!.participants[0]!.tracks.find((t) => t.type === 'camera')!.plis).toBe(camera.plis + 1);
    expect(camera.packets).toBeGreaterThan(100);
    process.stdout.write(
      `webrtc: first camera frame in the RTMP output ${firstFrameMs} ms after the answer; preview packets ${stats.previewPackets}; lip-sync hold camera ${camera.syncDelayMs} ms, microphone ${stats.participants[0]!.tracks.find((t) => t.type === 'microphone')?.syncDelayMs} ms\n`,
    );

    // The camera stops: its layer shows 'Camera Offline'; the camera comes back by itself when
    // the track returns, and the pipeline never restarted.
    await page.evaluate('setCamera(false)');
    await waitFor(
      'the placeholder in the output',
      async () => {
        const f = await grabFrame(rtmp.url(key), WIDTH, HEIGHT, 0, 10_000).catch(() => undefined);
        return f && showsPlaceholder(f, CAMERA_BOX) ? f : undefined;
      },
      15_000,
      250,
    );
    await page.evaluate('setCamera(true)');
    await waitFor(
      'the camera back in the output',
      async () => {
        const f = await grabFrame(rtmp.url(key), WIDTH, HEIGHT, 0, 10_000).catch(() => undefined);
        return f && showsCamera(f) ? f : undefined;
      },
      15_000,
      250,
    );

    // The jitter buffers are set to what these tracks need (their highest lateness plus a margin;
    // on an idle machine's loopback below the default), live: the camera stays in the program and
    // nothing restarts. A changed latency reached the pipeline (its own log line).
    await waitFor('a measured jitter buffer latency', async () => (endpoint.stats(projectId)!.jitterMeasured ? true : undefined), 20_000, 250);
    const jitterMs = endpoint.stats(projectId)!.jitterLatencyMs;
    const peak = Math.max(...endpoint.stats(projectId)!.participants[0]!.tracks.map((t) => t.peakLatenessMs));
    expect(jitterMs).toBeGreaterThanOrEqual(JITTER_LATENCY_MIN_MS);
    expect(jitterMs).toBeLessThanOrEqual(JITTER_LATENCY_MAX_MS);
    if (jitterMs !== JITTER_LATENCY_DEFAULT_MS) {
      await waitFor(
        'the pipeline at the new latency',
        async () => (fx.logs.some((l) => l.includes('"msg":"jitter buffer latency"') && l.includes(`"to":${jitterMs}`)) ? true : undefined),
        5000,
        100,
      );
    }
    await waitFor(
      'the camera in the output at the new latency',
      async () => {
        const f = await grabFrame(rtmp.url(key), WIDTH, HEIGHT, 0, 10_000).catch(() => undefined);
        return f && showsCamera(f) ? f : undefined;
      },
      15_000,
      250,
    );
    process.stdout.write(`webrtc: jitter buffers at ${jitterMs} ms (tracks' peak lateness ${peak} ms)\n`);
    expect(fx.host.session(projectId)?.restarts ?? 0).toBe(0);
    expect(fx.reports.filter((r) => r.sessionId === projectId && r.report.type === 'state' && r.report.state === 'playing')).toHaveLength(1);

    expect(states).toContain('connected');
    // The session leaves this worker: the page is told at once, so it re-offers to the next owner.
    await fx.host.stopSession(projectId);
    await endpoint.closeSession(projectId);
    expect(states.at(-1)).toBe('closed');
    await page.close();
  });

  it('takes the camera back, for good, when the host reopens the studio on a new peer (its own SSRC, sequence and timestamps on the same port)', async () => {
    const { doc } = documentWithCamera();
    const { projectId, key } = await startSession(doc);
    const join = async (participantId: string) => {
      const page = await browser.newPage();
      await page.goto(pageUrl);
      const offer = await publish(page);
      const answer = await endpoint.offer({
        projectId,
        participantId,
        publisher: { userId: 'owner', isHost: true },
        peerId: participantId,
        ...offer,
        onState: () => undefined,
      });
      await page.evaluate(`accept(${JSON.stringify(answer)})`);
      return page;
    };
    const output = async (what: string, shows: (f: Frame) => boolean) =>
      waitFor(
        what,
        async () => {
          const f = await grabFrame(rtmp.url(key), WIDTH, HEIGHT, 0, 10_000).catch(() => undefined);
          return f && shows(f) ? f : undefined;
        },
        20_000,
        250,
      );
    const first = await join('studio-first');
    await output('the camera in the output', showsCamera);
    // The studio closes (its room membership ends: the api tells the worker the participant left).
    await first.close();
    await endpoint.leave(projectId, 'studio-first');
    await output('the placeholder in the output', (f) => showsPlaceholder(f, CAMERA_BOX));
    const second = await join('studio-again');
    await output('the camera back in the output', showsCamera);
    // And it stays. (The studio e2e's version of this, under the holding slate, still does not: see
    // the fixme flow in control-ui/e2e/production.spec.ts.)
    const seen: string[] = [];
    for (let i = 0; i < 8; i++) {
      const f = await grabFrame(rtmp.url(key), WIDTH, HEIGHT, 0, 10_000).catch(() => undefined);
      seen.push(f === undefined ? 'no frame' : showsCamera(f) ? 'camera' : showsPlaceholder(f, CAMERA_BOX) ? 'placeholder' : 'other');
    }
    expect(seen).toEqual(Array(8).fill('camera'));
    expect(fx.host.session(projectId)?.restarts ?? 0).toBe(0);
    await second.close();
    await fx.host.stopSession(projectId);
    await endpoint.closeSession(projectId);
  }, 150_000);

  it('takes a camera that only sends H.264 into the same layer', async () => {
    const { projectId, key } = await startSession(documentWithCamera().doc);
    const page = await browser.newPage();
    await page.goto(pageUrl);
    const offer = await publish(page, undefined, 0, 'H264');
    // The camera's m-line (the first video one) offers H.264 alone; the preview's still takes VP8.
    const cameraSection = offer.sdp.split('\r\nm=').find((section) => section.startsWith('video'))!;
    expect(cameraSection).toMatch(/a=rtpmap:\d+ H264/);
    expect(cameraSection).not.toMatch(/a=rtpmap:\d+ VP8/);
    const answer = await endpoint.offer({
      projectId,
      participantId: randomUUID(),
      publisher: { userId: 'owner', isHost: true },
      peerId: 'h264',
      ...offer,
      onState: () => undefined,
    });
    await page.evaluate(`accept(${JSON.stringify(answer)})`);
    await waitFor(
      'the H.264 camera in the output',
      async () => {
        const f = await grabFrame(rtmp.url(key), WIDTH, HEIGHT, 0, 10_000).catch(() => undefined);
        return f && showsCamera(f) ? f : undefined;
      },
      20_000,
      250,
    );
    expect(endpoint.stats(projectId)!.participants[0]!.tracks.find((t) => t.type === 'camera')?.encoding).toBe('H264');
    await page.close();
    await fx.host.stopSession(projectId);
    await endpoint.closeSession(projectId);
  });

  it('shows two participants at once, the guest also on the host tile; one leaves: the output continues, and with who is there planned, no card for them', async () => {
    const { doc } = documentWithCamera();
    const guestId = randomUUID();
    doc.sources.push({
      id: guestId,
      kind: 'participant',
      name: 'Guest',
      settings: { opacity: 1, volume: 1, muted: false, userId: 'guest-1', displayName: 'Guest' },
    });
    doc.scenes[0]!.layers.push({
      id: randomUUID(),
      sourceId: guestId,
      ...GUEST_BOX,
      crop: { top: 0, right: 0, bottom: 0, left: 0 },
      zIndex: 2,
      opacity: 1,
      visible: true,
    });
    const { projectId, key } = await startSession(doc);

    const told: { peer: string; tiles: GuestTile[] }[] = [];
    const lastTiles = (peer: string) => told.filter((t) => t.peer === peer).at(-1)?.tiles;
    const join = async (userId: string, role: 'host' | 'cohost' | 'guest', color?: string) => {
      const page = await browser.newPage();
      await page.goto(pageUrl);
      const participantId = randomUUID();
      const offer = await publish(page, color, role === 'guest' ? 0 : 2);
      const answer = await endpoint.offer({
        projectId,
        participantId,
        publisher: { userId, isHost: role === 'host', guest: role === 'guest' },
        peerId: userId,
        ...offer,
        onState: () => undefined,
        onTiles: (peer, t) => told.push({ peer, tiles: t }),
      });
      await page.evaluate(`accept(${JSON.stringify(answer)})`);
      return { page, participantId };
    };
    const host = await join('owner', 'host');
    // A co-host with a camera of their own is not a guest (issue 39): on no one's tiles, and their studio shows the guests too.
    const cohost = await join('cohost-1', 'cohost', '#ff0000');
    const guest = await join('guest-1', 'guest', '#0040ff');

    const guestCentre = centreOf(GUEST_BOX);
    await waitFor(
      'both participants in the output',
      async () => {
        const f = await grabFrame(rtmp.url(key), WIDTH, HEIGHT, 0, 10_000).catch(() => undefined);
        return f && showsCamera(f) && near(pixel(f, guestCentre.x, guestCentre.y), BLUE, 60) ? f : undefined;
      },
      30_000,
      250,
    );

    // The guest's camera also plays on the host's first guest tile (the Guests tab), and on the co-host's; the co-host's on none.
    expect(lastTiles('owner')).toEqual([expect.objectContaining({ participantId: guest.participantId, userId: 'guest-1' })]);
    expect(lastTiles('cohost-1')).toEqual([expect.objectContaining({ participantId: guest.participantId, userId: 'guest-1' })]);
    expect(told.some((t) => t.tiles.some((tile) => tile.userId === 'cohost-1'))).toBe(false);
    const tileMid = lastTiles('owner')![0]!.mid;
    await waitFor(
      'the guest on the host tile',
      async () => {
        const rgb = await host.page.evaluate<number[] | null>(`tilePixel(${JSON.stringify(tileMid)})`);
        return rgb && near(rgb, BLUE, 60) ? rgb : undefined;
      },
      15_000,
      250,
    );

    // Everyone is there (issue 51): the three are present, none of their inputs is absent.
    const hostCamera = doc.sources.find((s) => s.kind === 'webcam')!.id;
    expect([...endpoint.presentSources(projectId, doc)]).toEqual(expect.arrayContaining([hostCamera, guestId]));

    // The guest leaves (what the api relays when their page closes): their layer shows 'Camera Offline', the host stays.
    await endpoint.leave(projectId, guest.participantId);
    await guest.page.close();
    await waitFor(
      'the guest placeholder next to the host',
      async () => {
        const f = await grabFrame(rtmp.url(key), WIDTH, HEIGHT, 0, 10_000).catch(() => undefined);
        return f && showsCamera(f) && showsPlaceholder(f, GUEST_BOX) ? f : undefined;
      },
      15_000,
      250,
    );
    // Planned with who is there (as the session runner does, issue 51): the guest is away, so no card for them; the host stays.
    const present = endpoint.presentSources(projectId, doc);
    expect(present.has(guestId)).toBe(false);
    expect(present.has(hostCamera)).toBe(true);
    const replanned = {
      ...sceneToRenderPlan(doc, createInputResolver(ports), [{ id: 'local', url: `rtmp://127.0.0.1:${rtmp.port}/live`, key }], { present }),
      preview: await endpoint.openSession(projectId),
    };
    expect(replanned.absentInputs).toEqual([guestId]);
    fx.host.replan(projectId, replanned);
    await waitFor(
      'no card where the guest was',
      async () => {
        const f = await grabFrame(rtmp.url(key), WIDTH, HEIGHT, 0, 10_000).catch(() => undefined);
        const c = centreOf(GUEST_BOX);
        return f && showsCamera(f) && !showsPlaceholder(f, GUEST_BOX) && near(pixel(f, c.x, c.y), [0, 0, 0], 30) ? f : undefined;
      },
      15_000,
      250,
    );
    expect(fx.host.session(projectId)?.restarts ?? 0).toBe(0);
    expect(
      fx.reports.some((r) => r.sessionId === projectId && r.report.type === 'outputStatus' && r.report.state !== 'live' && r.report.state !== 'connecting'),
    ).toBe(false);
    expect(endpoint.stats(projectId)!.participants.map((p) => p.participantId)).toEqual([host.participantId, cohost.participantId]);
    expect(lastTiles('owner')).toEqual([]);
    expect(lastTiles('cohost-1')).toEqual([]);

    await cohost.page.close();
    await host.page.close();
    await fx.host.stopSession(projectId);
    await endpoint.closeSession(projectId);
  });
  it('reaches a browser through a TURN server when neither side may use its own addresses', async () => {
    turn = await startTurnServer(join(fx.dir, 'turn'));
    const logger = pino({ level: 'info' }, { write: (line: string) => void fx.logs.push(line.trim()) });
    // A worker whose addresses browsers cannot reach: relay candidates only (WEBRTC_ICE_TRANSPORT_POLICY=relay).
    relayEndpoint = new WebrtcEndpoint({
      ports,
      logger,
      loadDocument: (id) => readDocument(fx.redis, id),
      network: { iceServers: [turn.iceServer], iceTransportPolicy: 'relay' },
      setJitterLatency: (id, ms) => fx.host.setJitterLatency(id, ms),
    });
    const { projectId, key } = await startSession(documentWithCamera().doc, relayEndpoint);
    const page = await browser.newPage();
    await page.goto(pageUrl);
    // The page too, with the servers the api tells it in room.joined.
    const offer = await publish(page, undefined, 0, undefined, { iceServers: [turn.iceServer], iceTransportPolicy: 'relay' });
    expect(offer.sdp).toMatch(/typ relay/);
    expect(offer.sdp).not.toMatch(/typ host/);
    const answer = await relayEndpoint.offer({
      projectId,
      participantId: randomUUID(),
      publisher: { userId: 'owner', isHost: true },
      peerId: 'relay',
      ...offer,
      onState: () => undefined,
    });
    expect(answer).toMatch(/typ relay/);
    expect(answer).not.toMatch(/typ host/);
    await page.evaluate(`accept(${JSON.stringify(answer)})`);
    await waitFor(
      'the relayed camera in the output',
      async () => {
        const f = await grabFrame(rtmp.url(key), WIDTH, HEIGHT, 0, 10_000).catch(() => undefined);
        return f && showsCamera(f) ? f : undefined;
      },
      30_000,
      250,
    );
    expect(await page.evaluate<string[] | null>('selectedCandidateTypes()')).toEqual(['relay', 'relay']);
    await page.close();
    await fx.host.stopSession(projectId);
    await relayEndpoint.closeSession(projectId);
  });
});
