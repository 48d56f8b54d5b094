// Issue 6 item 5 on real processes: a studio's peer signals through Redis exactly as the api
// relays it (the project's signaling channel, answers on the participant's channel) to whichever
// media worker owns the session. The owner is killed with -9; the other worker picks the session
// up, the studio re-offers (as it does on `room.ready` with a new worker) and the new owner
// answers: the camera is back in the output.
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRtmpServer, waitFor, type RunningRtmpServer } from '@onair/embedded';
import { isolatedRedisUrl } from '@onair/embedded/test-services';
import {
  newProjectDocument,
  participantSignalSchema,
  sessionKeys,
  queues,
  signalingChannels,
  type OfferedTrack,
  type ParticipantSignal,
  type SceneDocument,
  type SessionOwner,
} from '@onair/protocol';
import { SecretBox } from '@onair/runtime';
import { startWorkerProcess, type WorkerUnderTest } from '@onair/runtime/testkit';
import { grabFrame, near, pixel } from './helpers/stream-probe.ts';
import { secretKey } from './helpers/session-fixture.ts';
import { killWorkers, queueSession, readOwner } from './helpers/placement-fixture.ts';

const execFileAsync = promisify(execFile);
const workerRoot = fileURLToPath(new URL('..', import.meta.url));
/** A database of this file's own: other files' workers run beside these. */
let redisUrl = '';
const WIDTH = 854;
const HEIGHT = 480;
const ORANGE = [255, 128, 0];
/** The workers' SECRETS_KEY, to seal the session's outputs as the api does. */
let sealKey = '';

const PAGE_SCRIPT = `
window.offer = async () => {
  window.pc?.close();
  window.stream ??= await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 360, frameRate: 30 }, audio: true });
  const pc = new RTCPeerConnection();
  window.pc = pc;
  const camera = pc.addTransceiver(window.stream.getVideoTracks()[0], { direction: 'sendonly' });
  const mic = pc.addTransceiver(window.stream.getAudioTracks()[0], { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((resolve) => { if (pc.iceGatheringState === 'complete') resolve(); pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && resolve(); });
  return { sdp: pc.localDescription.sdp, tracks: [{ mid: camera.mid, type: 'camera' }, { mid: mic.mid, type: 'microphone' }], previewMid: null };
};
window.accept = (sdp) => window.pc.setRemoteDescription({ type: 'answer', sdp });
`;

describe('signaling follows a session to its new worker', () => {
  let redis: Redis;
  let listener: Redis;
  let queue: Queue;
  let dir: string;
  let rtmp: RunningRtmpServer;
  let browser: Browser;
  let pageServer: Server;
  const workers: WorkerUnderTest[] = [];

  beforeAll(async () => {
    redisUrl = await isolatedRedisUrl();
    redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    listener = new Redis(redisUrl);
    queue = new Queue(queues.sessions.name, { connection: redis });
    sealKey = SecretBox.generateKey();
    process.env.SECRETS_KEY = sealKey;
    process.env.WORKER_CORES = '2';
    dir = await mkdtemp(join(tmpdir(), 'onair-webrtc-failover-'));
    rtmp = await startRtmpServer({ dir: join(dir, 'nginx') });
    const camera = join(dir, 'camera.y4m');
    await execFileAsync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=0xFF8000:s=640x360:r=30:d=2', '-pix_fmt', 'yuv420p', camera]);
    pageServer = createServer((_req, res) => res.end('<!doctype html><html><body></body></html>'));
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    // The browser's audio client (libpulse) keeps its runtime files here, not in a pulse-* folder of /tmp.
    await mkdir(join(dir, 'run'), { mode: 0o700 });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      env: { ...process.env, HOME: dir, XDG_RUNTIME_DIR: join(dir, 'run') },
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
      ],
    });
  });

  afterAll(async () => {
    if (process.env.WEBRTC_DEBUG) for (const w of workers) process.stdout.write(`--- ${w.id}\n${w.output.join('')}\n`);
    killWorkers(workers);
    await browser?.close();
    pageServer?.close();
    await rtmp?.stop();
    await queue?.close();
    listener?.disconnect();
    await redis?.flushdb();
    redis?.disconnect();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function startWorker(): Promise<WorkerUnderTest> {
    process.env.DRAIN_GRACE_MS = '60000';
    const worker = startWorkerProcess('media', 'src/main.ts', workerRoot, redisUrl);
    workers.push(worker);
    await worker.waitForRegistration();
    return worker;
  }

  const owner = (projectId: string): Promise<SessionOwner | undefined> => readOwner(redis, projectId);

  /** Offers from the page through Redis as the api relays it, and returns the answer's worker. */
  async function signal(page: Page, doc: SceneDocument, participantId: string): Promise<string> {
    const answers: ParticipantSignal[] = [];
    const sub = listener.duplicate();
    await sub.subscribe(signalingChannels.toParticipant(participantId));
    sub.on('message', (_c: string, raw: string) => answers.push(participantSignalSchema.parse(JSON.parse(raw))));
    try {
      const offer = await page.evaluate<{ sdp: string; tracks: OfferedTrack[]; previewMid: null }>('offer()');
      const peerId = randomUUID();
      const message = JSON.stringify({ type: 'offer', projectId: doc.projectId, participantId, userId: 'owner', role: 'host', peerId, ...offer });
      await waitFor(
        'a worker listening on the project channel',
        async () => ((await redis.publish(signalingChannels.toWorker(doc.projectId), message)) > 0 ? true : undefined),
        20_000,
        200,
      );
      const answer = await waitFor('the answer', async () => answers.find((a) => a.type === 'answer' && a.peerId === peerId), 10_000, 50);
      if (answer.type !== 'answer') throw new Error('not an answer');
      await page.evaluate(`accept(${JSON.stringify(answer.sdp)})`);
      return answer.workerId;
    } finally {
      sub.disconnect();
    }
  }

  const showsCamera = async (key: string) => {
    const f = await grabFrame(rtmp.url(key), WIDTH, HEIGHT, 0, 10_000).catch(() => undefined);
    return f && near(pixel(f, Math.round(960 * (WIDTH / 1280)), Math.round(180 * (HEIGHT / 720))), ORANGE, 50) ? true : undefined;
  };

  it('re-signals to the worker that picked the session up after kill -9', async () => {
    // A retry starts clean: workers left by a failed attempt would take the new session.
    killWorkers(workers.splice(0));
    await redis.flushdb();
    const a = await startWorker();
    const b = await startWorker();
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
      x: 640,
      y: 0,
      width: 640,
      height: 360,
      crop: { top: 0, right: 0, bottom: 0, left: 0 },
      zIndex: 1,
      opacity: 1,
      visible: true,
    });
    const streamKey = secretKey();
    await queueSession(queue, redis, doc, {
      box: new SecretBox(sealKey),
      outputs: [{ id: 'local', url: `rtmp://127.0.0.1:${rtmp.port}/${rtmp.application}`, key: streamKey }],
    });
    const first = await waitFor('the session to be placed', () => owner(doc.projectId), 20_000, 50);

    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`);
    await page.addScriptTag({ content: PAGE_SCRIPT });
    const participantId = randomUUID();
    expect(await signal(page, doc, participantId)).toBe(first.workerId);
    await waitFor('the camera in the output', () => showsCamera(streamKey), 30_000, 250);

    const [victim, survivor] = first.workerId === a.id ? [a, b] : [b, a];
    victim.child.kill('SIGKILL');
    await waitFor('the other worker to own the session', async () => ((await owner(doc.projectId))?.workerId === survivor.id ? true : undefined), 30_000, 100);
    const resignalAt = Date.now();
    expect(await signal(page, doc, participantId)).toBe(survivor.id);
    await waitFor('the camera back in the output', () => showsCamera(streamKey), 30_000, 250);
    process.stdout.write(`webrtc failover: camera back in the output ${Date.now() - resignalAt} ms after the re-offer\n`);

    await page.close();
    await redis.publish(sessionKeys.commands(doc.projectId), JSON.stringify({ type: 'stop' }));
    await waitFor('the session to end', async () => ((await owner(doc.projectId)) ? undefined : true), 20_000, 100);
    expect((await survivor.stop()).code).toBe(0);
  });
});
