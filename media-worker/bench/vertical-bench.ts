/**
 * What the vertical canvas costs (issue 20): `npx tsx bench/vertical-bench.ts` in media-worker
 * (under the heavy lock on a shared machine). Real pipeline processes as the worker runs them push
 * to a private nginx-rtmp; CPU is read from /proc for the pipeline process only, over a fixed
 * window after a warm-up.
 *   A. a 720p30 session with one horizontal destination;
 *   B. the same session with a vertical destination added (its own compositor and x264, fed by the
 *      inputs A already decodes, and A's AAC);
 * and prints the cores of each and (B − A) / A, the target being ≤ 0.6. The scene is a moving
 * full-canvas picture with a tone (the "game"), a camera-sized picture and the logo; the test
 * pictures stand in for decoders and cost far less than decoding a WebRTC track (0.25–0.3 cores
 * each, bench/webrtc-bench.ts), which the vertical canvas shares rather than repeats, so a real
 * session's ratio is lower than this one's. BENCH_RUNS (default 2) alternates A and B that many
 * times and prints every run and the medians. BENCH_PROFILE=1080p30 measures at 1080p.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Registry } from 'prom-client';
import { freePort, startRedisServer, startRtmpServer, waitFor } from '@onair/embedded';
import {
  applyScenePatch,
  newProjectDocument,
  planEntitlements,
  sceneToRenderPlan,
  type PlanInput,
  type PlanOutput,
  type RenderPlan,
  type SceneDocument,
  type Source,
} from '@onair/protocol';
import { SessionHost } from '../src/session/session-host.ts';
import { cpuSeconds, threadCpuSeconds } from './proc-cpu.ts';

const WARMUP_MS = 4000;
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const PROFILE = process.env.BENCH_PROFILE === '1080p30' ? '1080p' : '720p';
const LOGO = new URL('../assets/onair-logo.png', import.meta.url).pathname;
const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** A project at PROFILE: the host's camera at its default place over a full-canvas game, and the logo. */
function document(): SceneDocument {
  const ids = { projectId: randomUUID(), sceneId: randomUUID(), watermarkSourceId: randomUUID(), watermarkLayerId: randomUUID() };
  const gameSourceId = randomUUID();
  const result = applyScenePatch(
    newProjectDocument({ ...ids, resolution: PROFILE, camera: { sourceId: randomUUID(), layerId: randomUUID(), userId: 'host' } }),
    {
      baseVersion: 0,
      ops: [
        { op: 'addSource', source: { id: gameSourceId, kind: 'game' } },
        { op: 'addLayer', sceneId: ids.sceneId, layer: { id: randomUUID(), sourceId: gameSourceId, x: 0, y: 0, width: 1280, height: 720, zIndex: 0 } },
      ],
    },
    planEntitlements.Free,
  );
  if (!result.ok) throw new Error(result.rejection.message);
  return result.document;
}

/**
 * BENCH_SOURCES=rtp (the default): the camera (640×360) and the game (1280×720) arrive as VP8 over
 * RTP from a gst-launch sender per source (another process, as a browser or an ingest would be,
 * not counted) and are decoded in the pipeline, as in a real session. BENCH_SOURCES=test: test
 * pictures made in the pipeline, no decoding.
 */
const RTP_SOURCES = process.env.BENCH_SOURCES !== 'test';
const SIZES = { game: { width: 1280, height: 720, port: 0 }, webcam: { width: 640, height: 360, port: 0 } };

function resolver(): (source: Source) => PlanInput | undefined {
  return (source) => {
    if (source.kind === 'watermark') return { id: source.id, kind: 'image', path: LOGO };
    if (source.kind !== 'game' && source.kind !== 'webcam') return undefined;
    const size = SIZES[source.kind];
    if (RTP_SOURCES) return { id: source.id, kind: 'rtp', video: { codecs: [{ encoding: 'VP8', port: size.port, payloadType: 96 }] } };
    return source.kind === 'game'
      ? { id: source.id, kind: 'test-pattern', pattern: 'ball', color: 0, width: size.width, height: size.height, toneHz: 440 }
      : { id: source.id, kind: 'test-pattern', pattern: 'smpte', color: 0, width: size.width, height: size.height };
  };
}

/** A live VP8 sender to a loopback port, as a WebRTC endpoint forwards a browser's track. */
function startSender(size: { width: number; height: number; port: number }, pattern: string): ChildProcess {
  const args = [
    '-q',
    'videotestsrc',
    'is-live=true',
    `pattern=${pattern}`,
    '!',
    `video/x-raw,width=${size.width},height=${size.height},framerate=30/1`,
    '!',
    'vp8enc',
    'deadline=1',
    'cpu-used=8',
    'end-usage=cbr',
    'target-bitrate=2500000',
    'keyframe-max-dist=30',
    'threads=1',
    '!',
    'rtpvp8pay',
    'pt=96',
    'mtu=1200',
    '!',
    'udpsink',
    'host=127.0.0.1',
    `port=${size.port}`,
    'sync=false',
  ];
  return spawn('gst-launch-1.0', args, { stdio: 'ignore' });
}

interface Measured {
  cores: number;
  fps: number;
  /** Cores of the threads of the vertical canvas's own elements (named `vertical-…`, cut to 15 characters). */
  verticalThreads: number;
}

async function measure(host: SessionHost, id: string, plan: RenderPlan): Promise<Measured> {
  const session = host.startSession({ sessionId: id, planVersion: 1, plan });
  await waitFor(`${id} live`, async () => (session.stats?.outputs.filter((o) => o.state === 'live').length === plan.outputs.length ? true : undefined), 30_000);
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  const pid = session.pid!;
  const [cpu0, threads0, frames0, t0] = [await cpuSeconds(pid), await threadCpuSeconds(pid), session.stats?.framesOut ?? 0, Date.now()];
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const seconds = (Date.now() - t0) / 1000;
  const [cpu1, threads1, frames1] = [await cpuSeconds(pid), await threadCpuSeconds(pid), session.stats?.framesOut ?? 0];
  await host.stopSession(id);
  const byThread = [...threads1]
    .map(([name, s]) => [name, (s - (threads0.get(name) ?? 0)) / seconds] as const)
    .filter(([, c]) => c >= 0.01)
    .sort((x, y) => y[1] - x[1]);
  const verticalThreads = [...threads1]
    .filter(([name]) => name.startsWith('vertical'))
    .reduce((n, [name, s]) => n + (s - (threads0.get(name) ?? 0)) / seconds, 0);
  const measured = { cores: (cpu1 - cpu0) / seconds, fps: (frames1 - frames0) / seconds, verticalThreads };
  const starved = measured.fps < 29 ? '  STARVED: not a valid figure, run again on an idle machine' : '';
  print(
    `${id.padEnd(16)} outputs=${plan.outputs
      .map((o) => o.canvas ?? 'horizontal')
      .join('+')
      .padEnd(20)} cores=${measured.cores.toFixed(3)}  fps=${measured.fps.toFixed(1)}  vertical-* threads=${verticalThreads.toFixed(3)}${starved}`,
  );
  print(`${''.padEnd(16)} threads: ${byThread.map(([name, c]) => `${name} ${c.toFixed(2)}`).join(', ')}`);
  return measured;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'onair-vertical-bench-'));
  const redisService = await startRedisServer(join(dir, 'redis'), await freePort());
  const redis = new Redis(redisService.url, { maxRetriesPerRequest: null });
  const server = await startRtmpServer({ dir: join(dir, 'nginx') });
  const host = new SessionHost({ logger: pino({ level: 'warn' }), redis, metrics: new Registry(), supervisor: { onLogLine: () => {} }, onReport: () => {} });
  const doc = document();
  const senders: ChildProcess[] = [];
  if (RTP_SOURCES) {
    SIZES.game.port = await freePort();
    SIZES.webcam.port = await freePort();
    senders.push(startSender(SIZES.game, 'ball'), startSender(SIZES.webcam, 'smpte'));
  }
  const resolve = resolver();
  const url = `rtmp://127.0.0.1:${server.port}/live`;
  const wide: PlanOutput = { id: 'wide', url, key: 'wide', allowPrivate: true, canvas: 'horizontal' };
  const tall: PlanOutput = { id: 'tall', url, key: 'tall', allowPrivate: true, canvas: 'vertical' };
  try {
    print(
      `${PROFILE}30, ${RTP_SOURCES ? 'camera + game decoded from VP8 over RTP (senders not counted)' : 'test pictures, no decoding'}, window ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up, ${RUNS} runs each; pipeline process CPU only (nginx excluded)`,
    );
    const alone: number[] = [];
    const both: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const a = await measure(host, `horizontal-${run}`, sceneToRenderPlan(doc, resolve, [wide]));
      const b = await measure(host, `both-${run}`, sceneToRenderPlan(doc, resolve, [wide, tall]));
      if (a.fps >= 29) alone.push(a.cores);
      if (b.fps >= 29) both.push(b.cores);
    }
    if (alone.length === 0 || both.length === 0) {
      print('vertical canvas cost: n/a (starved)');
      return;
    }
    const [h, hv] = [median(alone), median(both)];
    print(
      `cores, median: horizontal alone ${h.toFixed(3)}, horizontal + vertical ${hv.toFixed(3)}; the vertical canvas adds ${(hv - h).toFixed(3)} cores = ${((hv - h) / h).toFixed(2)}× the horizontal session (target ≤ 0.60)`,
    );
  } finally {
    for (const sender of senders) sender.kill('SIGTERM');
    await host.stopAll();
    await server.stop();
    redis.disconnect();
    await redisService.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
