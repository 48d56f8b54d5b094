/**
 * Issue 41 item 1: a host camera and ten guests in one session. `npx tsx bench/guests-bench.ts`
 * from media-worker/ (`BENCH_GUESTS=n` for another count, `BENCH_GUEST_SIZE=320x180` for the picture the
 * studio now asks of a guest in such a grid, `BENCH_WINDOW_MS`, `BENCH_WARMUP_MS`, `BENCH_FLASHES`).
 *
 * Eleven werift publishers in a child process (guest-publishers.ts: the host and guests 1–5 send
 * VP8, guests 6–10 H.264, 640×360 at 30 fps, each with Opus) publish over real WebRTC to this
 * process's WebrtcEndpoint, which forwards to a real session pipeline compositing them as a grid at
 * 720p30 and pushing to one RTMP destination (a private nginx-rtmp). This process is the media
 * worker as in production (the endpoint and the session host in one Node process, the pipeline in
 * its own); the publishers are measured apart.
 *
 * Prints, over a window after a warm-up: cores of the worker's Node process (werift: SRTP,
 * forwarding) and of the pipeline process, the pipeline's threads grouped by what they do, the
 * program's frame rate, and each guest's glass-to-output latency: the publishers' pictures turn
 * white at once, and a reader of the RTMP output notes when each tile does (both on this
 * machine's clock; the reader's decode is included, so the figures are an upper bound).
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Registry } from 'prom-client';
import { freePort, startRedisServer, startRtmpServer, waitFor } from '@onair/embedded';
import { newProjectDocument, sceneToRenderPlan, sessionCost, sessionKeys, type SceneDocument } from '@onair/protocol';
import { createInputResolver } from '../src/placement/input-resolver.ts';
import { readDocument } from '../src/placement/session-runner.ts';
import { SessionHost } from '../src/session/session-host.ts';
import { MediaPorts } from '../src/webrtc/media-ports.ts';
import { WebrtcEndpoint } from '../src/webrtc/webrtc-endpoint.ts';
import { READER_WIDTH, readOutput } from '../test/helpers/output-reader.ts';
import type { GuestCodec, PublisherOffer, PublisherReply, PublisherRequest } from './guest-publishers.ts';
import { coresOver, loadAverage, threadCoresOver } from './proc-cpu.ts';

const GUESTS = Number(process.env.BENCH_GUESTS ?? 10);
// Longer than the jitter buffers' peak hold (30 s): eleven peers' handshakes at once delay every
// track's packets in the worker's one JS thread, and the buffers would still be sized for that.
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 35_000);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 15_000);
const FLASHES = Number(process.env.BENCH_FLASHES ?? 7);
const GUEST_SIZE = process.env.BENCH_GUEST_SIZE ?? '640x360';
const print = (line: string): void => void process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The grid: 4 columns × 3 rows of 320×240 cells at 720p, each tile 320×180 in its cell's middle. */
const COLUMNS = 4;
const tileBox = (i: number) => ({ x: (i % COLUMNS) * 320, y: Math.floor(i / COLUMNS) * 240 + 30, width: 320, height: 180 });
/** The output reader's pixel (16×9 picture) inside tile i: its red byte's offset. */
const tilePixel = (i: number) => ((Math.floor(i / COLUMNS) * 3 + 1) * READER_WIDTH + (i % COLUMNS) * 4 + 2) * 3;

/**
 * What the pipeline's threads do, from their names (GStreamer names a pad's streaming thread after
 * it, cut to 15 characters). Each input's depayloader and decoder run on its jitter buffer's thread
 * (sources/rtp.ts); the compositor scales and converts its inputs on a pool of worker threads.
 */
function threadGroup(name: string): string {
  if (/-a?jitter/.test(name) && !name.includes('ajitter')) return 'video receive + decode (per input)';
  if (name.includes('ajitter') || /^mixer/.test(name)) return 'audio (Opus decode + mix)';
  if (/^pool-/.test(name)) return 'compositor workers (scale + convert each input)';
  if (/^compositor/.test(name)) return 'compositor';
  if (/^(encoder|x264|mux|out|tee|flv|rtmp)/.test(name)) return 'encoder + output';
  if (/^preview/.test(name)) return 'studio preview feed';
  return 'other';
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'onair-guests-bench-'));
  const redisService = await startRedisServer(join(dir, 'redis'), await freePort());
  const redis = new Redis(redisService.url, { maxRetriesPerRequest: null });
  const rtmp = await startRtmpServer({ dir: join(dir, 'nginx') });
  const logger = pino({ level: 'warn' });
  const ports = new MediaPorts();
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
  const publishers = fork(fileURLToPath(new URL('./guest-publishers.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies: PublisherReply[] = [];
  let wake: (() => void) | undefined;
  publishers.on('message', (reply: PublisherReply) => {
    if (reply.type === 'error') print(`publishers: ${reply.message}`);
    replies.push(reply);
    wake?.();
  });
  const ask = async <T extends PublisherReply['type']>(request: PublisherRequest, type: T): Promise<Extract<PublisherReply, { type: T }>> => {
    publishers.send(request);
    for (;;) {
      const i = replies.findIndex((r) => r.type === type);
      if (i >= 0) return replies.splice(i, 1)[0] as Extract<PublisherReply, { type: T }>;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  const stopReader = { kill: () => {} };
  try {
    const doc: SceneDocument = newProjectDocument({
      projectId: randomUUID(),
      sceneId: randomUUID(),
      watermarkSourceId: randomUUID(),
      watermarkLayerId: randomUUID(),
      resolution: '720p',
    });
    const scene = doc.scenes[0]!;
    // The watermark is hidden so that no tile is covered by it.
    for (const layer of scene.layers) layer.visible = false;
    const codecs: GuestCodec[] = ['VP8', ...Array.from({ length: GUESTS }, (_, i): GuestCodec => (i < Math.ceil(GUESTS / 2) ? 'VP8' : 'H264'))];
    const userIds = codecs.map((_, i) => (i === 0 ? 'host' : `guest-${i}`));
    codecs.forEach((_, i) => {
      const id = randomUUID();
      const common = { opacity: 1, volume: 1, muted: false, displayName: userIds[i]! };
      doc.sources.push(
        i === 0
          ? {
              id,
              kind: 'webcam',
              name: 'Camera',
              settings: { ...common, webcamDeviceId: null, microphoneDeviceId: 'default', userId: null, mirrorCamera: false },
            }
          : { id, kind: 'participant', name: userIds[i]!, settings: { ...common, userId: userIds[i]! } },
      );
      scene.layers.push({
        id: randomUUID(),
        sourceId: id,
        ...tileBox(i),
        crop: { top: 0, right: 0, bottom: 0, left: 0 },
        zIndex: i + 1,
        opacity: 1,
        visible: true,
      });
    });
    await redis.hset(sessionKeys.document(doc.projectId), 'version', '0', 'document', JSON.stringify(doc));
    const preview = await endpoint.openSession(doc.projectId);
    const plan = {
      ...sceneToRenderPlan(doc, createInputResolver(ports), [{ id: 'out', url: `rtmp://127.0.0.1:${rtmp.port}/live`, key: 'guests', allowPrivate: true }]),
      preview,
    };
    const session = host.startSession({ sessionId: doc.projectId, planVersion: 1, plan });
    await waitFor('output live', async () => (session.stats?.outputs[0]?.state === 'live' ? true : undefined), 30_000);

    const { offers } = await ask({ type: 'offer', codecs }, 'offers');
    const answers = await Promise.all(
      offers.map((offer: PublisherOffer, i) =>
        endpoint.offer({
          projectId: doc.projectId,
          participantId: randomUUID(),
          publisher: { userId: userIds[i]!, isHost: i === 0 },
          peerId: `peer-${i}`,
          sdp: offer.sdp,
          tracks: offer.tracks,
          previewMid: null,
          onState: () => undefined,
        }),
      ),
    );
    await ask({ type: 'answers', answers }, 'connected');
    await sleep(WARMUP_MS);

    const pipelinePid = session.pid!;
    const frames0 = session.stats?.framesOut ?? 0;
    const t0 = Date.now();
    const [[worker, pipeline, pubs], threads] = await Promise.all([
      coresOver([process.pid, pipelinePid, publishers.pid!], WINDOW_MS),
      threadCoresOver(pipelinePid, WINDOW_MS),
    ]);
    const fps = ((session.stats?.framesOut ?? 0) - frames0) / ((Date.now() - t0) / 1000);
    const groups = new Map<string, number>();
    for (const [name, cores] of threads) groups.set(threadGroup(name), (groups.get(threadGroup(name)) ?? 0) + cores);

    const cost = sessionCost(doc);
    print(
      `${GUESTS} guests + host camera (${codecs.filter((c) => c === 'VP8').length} VP8, ${codecs.filter((c) => c === 'H264').length} H.264, ${GUEST_SIZE} 30 fps + Opus each), grid at 720p30, one destination; window ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s, load ${await loadAverage()}`,
    );
    print(
      `media worker: ${(worker! + pipeline!).toFixed(2)} cores = worker process (werift, forwarding) ${worker!.toFixed(2)} + pipeline process ${pipeline!.toFixed(2)}; admission model charges ${cost.toFixed(2)}`,
    );
    print(`program ${fps.toFixed(1)} fps; publishers (apart, not the worker's) ${pubs!.toFixed(2)} cores`);
    print(
      `pipeline by group: ${[...groups]
        .sort((a, b) => b[1] - a[1])
        .map(([g, c]) => `${g} ${c.toFixed(2)}`)
        .join(', ')}`,
    );
    print(
      `pipeline's busiest threads: ${threads
        .slice(0, 14)
        .map(([n, c]) => `${n} ${c.toFixed(2)}`)
        .join(', ')}`,
    );

    // Glass to output: every picture turns white at once; when does each tile?
    let onFrame: ((frame: Buffer, at: number) => void) | undefined;
    stopReader.kill = readOutput(rtmp.url('guests'), (frame, at) => onFrame?.(frame, performance.timeOrigin + at));
    await sleep(3000);
    const latencies: number[][] = codecs.map(() => []);
    const white = (frame: Buffer, i: number) => frame[tilePixel(i)]! > 220 && frame[tilePixel(i) + 1]! > 220 && frame[tilePixel(i) + 2]! > 220;
    for (let n = 0; n < FLASHES; n++) {
      const seenAt: (number | undefined)[] = codecs.map(() => undefined);
      onFrame = (frame, at) => codecs.forEach((_, i) => (seenAt[i] ??= white(frame, i) ? at : undefined));
      const { at: flashedAt } = await ask({ type: 'flash', on: true }, 'flashed');
      await waitFor('every tile white', async () => (seenAt.every((s) => s !== undefined) ? true : undefined), 10_000, 10).catch(() => undefined);
      seenAt.forEach((s, i) => s !== undefined && latencies[i]!.push(s - flashedAt));
      onFrame = undefined;
      await ask({ type: 'flash', on: false }, 'flashed');
      await sleep(1500);
    }
    const all = latencies.flat().sort((a, b) => a - b);
    print(`guest frame → RTMP output frame, ${FLASHES} flashes × ${codecs.length} tiles (${all.length} seen):`);
    print(`  all tiles: median ${percentile(all, 0.5).toFixed(0)} ms, p95 ${percentile(all, 0.95).toFixed(0)} ms`);
    latencies.forEach((l, i) => {
      const s = [...l].sort((a, b) => a - b);
      if (s.length === 0) return print(`  ${userIds[i]} (${codecs[i]}): never seen white`);
      print(`  ${userIds[i]} (${codecs[i]}): median ${percentile(s, 0.5).toFixed(0)} ms, p95 ${percentile(s, 0.95).toFixed(0)} ms`);
    });
    const tracks = endpoint.stats(doc.projectId);
    const peaks = tracks?.participants.flatMap((p) => p.tracks.map((t) => t.peakLatenessMs)) ?? [];
    print(`  jitter buffers at ${tracks?.jitterLatencyMs} ms, set from the tracks' peak lateness (now ${Math.min(...peaks)}–${Math.max(...peaks)} ms)`);
    const all2 = tracks?.participants.flatMap((p) => p.tracks) ?? [];
    for (const type of ['camera', 'microphone'] as const) {
      const of = all2.filter((t) => t.type === type);
      const range = (xs: number[]) => `${Math.min(...xs)}–${Math.max(...xs)}`;
      print(
        `  ${type}: peak lateness ${range(of.map((t) => t.peakLatenessMs))} ms, lip-sync hold ${range(of.map((t) => t.syncDelayMs))} ms, lost ${of.reduce((n, t) => n + t.lost, 0)} packets`,
      );
    }
  } finally {
    stopReader.kill();
    publishers.send({ type: 'stop' } satisfies PublisherRequest);
    await endpoint.close();
    await host.stopAll();
    await rtmp.stop();
    redis.disconnect();
    await redisService.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
