/**
 * Issue 6 figures, on real parts: `npx tsx bench/webrtc-bench.ts` (from media-worker/);
 * `BENCH_CODEC=H264` has the browser send H.264 instead of VP8; `BENCH_CAMERA=640x360` sends a smaller
 * picture, for a machine where Chromium cannot draw and encode 720p at 30 fps beside the pipeline.
 * A headless system Chromium publishes a 1280×720 30 fps canvas track (a moving picture, so the
 * encoder works as for a camera) and a tone over WebRTC to this process's werift endpoint, which
 * forwards to a real session pipeline pushing 720p30 to a private nginx-rtmp.
 *   1. CPU per ingested 720p track: the pipeline process (depay + VP8 decode + scaling into the
 *      compositor) and this Node process (werift: SRTP, forwarding) with the track minus without.
 *   2. Latency from a frame captured in the browser to the same frame leaving in the RTMP output:
 *      the page turns the canvas white and notes the time; an ffmpeg reading the output notes when
 *      the first white frame decodes (both on this machine's clock). Includes the RTMP leg and
 *      ffmpeg's decode, so it is an upper bound of the worker's part.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pino from 'pino';
import { chromium } from 'playwright-core';
import { Registry } from 'prom-client';
import { freePort, startRedisServer, startRtmpServer, waitFor } from '@onair/embedded';
import { JITTER_LATENCY_DEFAULT_MS, newProjectDocument, sceneToRenderPlan, sessionKeys } from '@onair/protocol';
import { createInputResolver } from '../src/placement/input-resolver.ts';
import { readDocument } from '../src/placement/session-runner.ts';
import { SessionHost } from '../src/session/session-host.ts';
import { MediaPorts } from '../src/webrtc/media-ports.ts';
import { WebrtcEndpoint } from '../src/webrtc/webrtc-endpoint.ts';
import { CENTRE_PIXEL, readOutput } from '../test/helpers/output-reader.ts';
import { coresOver, loadAverage } from './proc-cpu.ts';

const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 10_000);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 10_000);
const CODEC = process.env.BENCH_CODEC === 'H264' ? 'H264' : 'VP8';
const [CAMERA_WIDTH, CAMERA_HEIGHT] = (process.env.BENCH_CAMERA ?? '1280x720').split('x').map(Number) as [number, number];
const print = (line: string): void => void process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Cores used by the pipeline process and by this process over the window. */
async function measure(pipelinePid: number): Promise<{ pipeline: number; node: number }> {
  const [pipeline, node] = await coresOver([pipelinePid, process.pid], WINDOW_MS);
  return { pipeline: pipeline!, node: node! };
}

const PAGE = `<!doctype html><html><body><canvas id="c" width="${CAMERA_WIDTH}" height="${CAMERA_HEIGHT}"></canvas><script>
const c = document.getElementById('c');
const g = c.getContext('2d');
let white = false;
let n = 0;
setInterval(() => {
  n += 1;
  const W = c.width, H = c.height;
  if (white) { g.fillStyle = '#fff'; g.fillRect(0, 0, W, H); return; }
  for (let i = 0; i < 16; i++) { g.fillStyle = 'hsl(' + ((n * 3 + i * 20) % 360) + ',60%,' + (20 + (i % 4) * 5) + '%)'; g.fillRect(i * W / 16, 0, W / 16, H); }
  g.fillStyle = '#888'; g.font = Math.round(H / 7.5) + 'px sans-serif'; g.fillText(String(n), W / 12 + (n * 7) % (W * 0.7), H * 0.55);
}, 33);
window.flash = (on) => { white = on; return Date.now(); };
window.publish = async (codec) => {
  const video = c.captureStream(30).getVideoTracks()[0];
  const ac = new AudioContext({ sampleRate: 48000 });
  const osc = ac.createOscillator(); const dest = ac.createMediaStreamDestination(); osc.connect(dest); osc.start();
  const pc = new RTCPeerConnection(); window.pc = pc;
  const v = pc.addTransceiver(video, { direction: 'sendonly' });
  v.setCodecPreferences(RTCRtpReceiver.getCapabilities('video').codecs.filter((k) => k.mimeType === 'video/' + codec));
  const a = pc.addTransceiver(dest.stream.getAudioTracks()[0], { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((r) => { if (pc.iceGatheringState === 'complete') r(); pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && r(); });
  return { sdp: pc.localDescription.sdp, tracks: [{ mid: v.mid, type: 'camera' }, { mid: a.mid, type: 'microphone' }], previewMid: null };
};
window.sent = async () => {
  let out = {};
  (await window.pc.getStats()).forEach((r) => { if (r.type === 'outbound-rtp' && r.kind === 'video') out = { width: r.frameWidth, height: r.frameHeight, fps: r.framesPerSecond, bytes: r.bytesSent, encoder: r.encoderImplementation }; });
  return out;
};
</script></body></html>`;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'onair-webrtc-bench-'));
  const redisService = await startRedisServer(join(dir, 'redis'), await freePort());
  const redis = new Redis(redisService.url, { maxRetriesPerRequest: null });
  const rtmp = await startRtmpServer({ dir: join(dir, 'nginx') });
  const logger = pino({ level: 'warn' });
  const ports = new MediaPorts();
  // The session host is made next; the endpoint reaches it once tracks flow.
  const endpoint = new WebrtcEndpoint({
    ports,
    logger,
    loadDocument: (id) => readDocument(redis, id),
    network: { additionalHostAddresses: ['127.0.0.1'] },
    setJitterLatency: (id, ms) => host.setJitterLatency(id, ms),
  });
  const host = new SessionHost({
    logger,
    redis,
    metrics: new Registry(),
    supervisor: { onLogLine: () => {} },
    onReport: (sessionId, report) => endpoint.onPipelineReport(sessionId, report),
  });
  const pageServer = createServer((_req, res) => res.setHeader('content-type', 'text/html').end(PAGE));
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    env: { ...process.env, HOME: dir },
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--allow-loopback-in-peer-connection',
      '--disable-features=WebRtcHideLocalIpsWithMdns',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  const reader = { kill: () => {} };
  try {
    // A camera layer over the whole 720p picture, hidden for the baseline (a shown layer without a
    // track draws its 'Camera Offline' picture, which would count as the track's cost).
    const doc = newProjectDocument({
      projectId: randomUUID(),
      sceneId: randomUUID(),
      watermarkSourceId: randomUUID(),
      watermarkLayerId: randomUUID(),
      resolution: '720p',
    });
    const cameraId = randomUUID();
    doc.sources.push({
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
    });
    doc.scenes[0]!.layers.push({
      id: randomUUID(),
      sourceId: cameraId,
      x: 0,
      y: 0,
      width: 1280,
      height: 720,
      crop: { top: 0, right: 0, bottom: 0, left: 0 },
      zIndex: 1,
      opacity: 1,
      visible: false,
    });
    await redis.hset(sessionKeys.document(doc.projectId), 'version', '0', 'document', JSON.stringify(doc));
    const preview = await endpoint.openSession(doc.projectId);
    const key = 'bench';
    const planOf = () => ({
      ...sceneToRenderPlan(doc, createInputResolver(ports), [{ id: 'out', url: `rtmp://127.0.0.1:${rtmp.port}/live`, key, allowPrivate: true }]),
      preview,
    });
    const session = host.startSession({ sessionId: doc.projectId, planVersion: 1, plan: planOf() });
    await waitFor('output live', async () => (session.stats?.outputs[0]?.state === 'live' ? true : undefined), 30_000);
    await sleep(4000);
    const idle = await measure(session.pid!);
    print(`window ${WINDOW_MS / 1000} s; no track, layer hidden: pipeline ${idle.pipeline.toFixed(2)} cores, worker node ${idle.node.toFixed(2)} cores`);
    doc.scenes[0]!.layers[doc.scenes[0]!.layers.length - 1]!.visible = true;
    host.applyPlan(doc.projectId, 2, planOf());

    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`);
    const offer = await page.evaluate<{ sdp: string; tracks: { mid: string; type: 'camera' | 'microphone' }[]; previewMid: null }>(
      `publish(${JSON.stringify(CODEC)})`,
    );
    const answer = await endpoint.offer({
      projectId: doc.projectId,
      participantId: randomUUID(),
      publisher: { userId: 'owner', isHost: true },
      peerId: 'bench',
      ...offer,
      onState: () => undefined,
    });
    await page.evaluate(`pc.setRemoteDescription({ type: 'answer', sdp: ${JSON.stringify(answer)} })`);
    await sleep(WARMUP_MS);
    const bytes0 = (await page.evaluate<{ bytes: number }>('sent()')).bytes;
    const busy = await measure(session.pid!);
    const sent = await page.evaluate<{ width: number; height: number; fps: number; bytes: number; encoder?: string }>('sent()');
    const kbps = ((sent.bytes - bytes0) * 8) / WINDOW_MS;
    // Chromium lowers the frame rate when its encoder is short of CPU: then the figures are for less than 30 fps.
    const starved = sent.fps < 25 ? '  (browser CPU-starved: below 30 fps, machine load ' + (await loadAverage()) + ')' : '';
    print(
      `browser sends ${CODEC}${sent.encoder ? ` (${sent.encoder})` : ''} ${sent.width}x${sent.height} at ${sent.fps} fps, ${kbps.toFixed(0)} kbit/s${starved}`,
    );
    print(`one ingested track: pipeline ${busy.pipeline.toFixed(2)} cores, worker node ${busy.node.toFixed(2)} cores`);
    print(
      `CPU per ingested ${sent.height}p track: +${(busy.pipeline - idle.pipeline).toFixed(2)} pipeline, +${(busy.node - idle.node).toFixed(2)} werift/forwarding = +${(busy.pipeline - idle.pipeline + busy.node - idle.node).toFixed(2)} cores`,
    );

    // Latency: browser frame → RTMP output frame.
    let onFrame: ((white: boolean, at: number) => void) | undefined;
    // Stamped with Date.now(): the flash's time comes from the page's clock.
    reader.kill = readOutput(rtmp.url(key), (frame) => {
      const [r, g, b] = [frame[CENTRE_PIXEL]!, frame[CENTRE_PIXEL + 1]!, frame[CENTRE_PIXEL + 2]!];
      onFrame?.(r > 220 && g > 220 && b > 220, Date.now());
    });
    await sleep(3000);
    const latencies: number[] = [];
    for (let n = 0; n < 7; n++) {
      const seen = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the flash never reached the output')), 10_000);
        onFrame = (white, at) => {
          if (white) {
            clearTimeout(timer);
            onFrame = undefined;
            resolve(at);
          }
        };
      });
      const flashedAt = await page.evaluate<number>('flash(true)');
      latencies.push((await seen) - flashedAt);
      await sleep(500);
      await page.evaluate('flash(false)');
      await sleep(1500);
    }
    latencies.sort((a, b) => a - b);
    const tracks = endpoint.stats(doc.projectId);
    const peak = Math.max(0, ...(tracks?.participants.flatMap((p) => p.tracks.map((t) => t.peakLatenessMs)) ?? []));
    print(
      `browser frame → RTMP output frame (${latencies.length} flashes): median ${latencies[Math.floor(latencies.length / 2)]} ms, min ${latencies[0]} ms, max ${latencies[latencies.length - 1]} ms`,
    );
    print(
      `  jitter buffers at ${tracks?.jitterLatencyMs} ms, set from the tracks' peak lateness ${peak} ms (the default before measuring: ${JITTER_LATENCY_DEFAULT_MS} ms)`,
    );
  } finally {
    reader.kill();
    await browser.close();
    await endpoint.close();
    await host.stopAll();
    pageServer.close();
    await rtmp.stop();
    redis.disconnect();
    await redisService.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
