/**
 * Issue 53 item 4, lip sync: `npx tsx bench/lipsync-bench.ts` from media-worker/
 * (BENCH_PATHS=webrtc,ingest; BENCH_SECONDS per path, default 600: the drift check; BENCH_SIZE=720p|480p).
 *
 * A flash and a beep made together every 2 s (test/helpers/av-sync.ts) go through each input path
 * (test/helpers/flash-beep-senders.ts: a browser-like WebRTC sender through the worker's
 * RtpForwarder and LipSync; an encoder publishing to the RTMP ingest, pulled by the worker's
 * IngestRelay) into a real session pipeline (the source full frame, its sound on the mixer) that
 * pushes to a private nginx-rtmp. The destination's stream is read for the whole run and every
 * flash paired with its beep in the stream's own timestamps: audio minus video (positive: sound
 * late), its median, stddev, range, and the drift (least-squares slope over the run, and the median
 * of the last minute against the first).
 *
 * Figures here (2 cores shared with other sessions' work; `load` is the 1-minute load average):
 *   before the sound's lead and the ingest's sender reports (60 s per path, load 3.6-4.4): WebRTC
 *   +49.3 ms (stddev 4.4), ingest +37.0 ms (0.1); at 480p, 24 s: +40.8 and +29.8.
 *   with the lead only (60 s, load 4-7): WebRTC -16.7 ms (stddev 62.3: three flashes 100-250 ms
 *   off) and -4.7 ms (11.7); ingest +47.7 ms (0.1) and -11.7 ms (57.7): the ingest's offset moved
 *   with each pull.
 *   with both (40 s, load 11-23, not a fair machine): WebRTC +9.3 ms (eight flashes in a row at +9,
 *   then -458…+196 while the load rose past 11) and -36.0 ms (load 23, stddev 247); ingest -14.7 ms
 *   (fifteen of nineteen at -15, the rest -48 to -328) and -24.6 ms (twelve at -26…-24). Under such
 *   load the program drops frames (the pacer) and the outliers are whole frames; at load 3-5 every
 *   run read stddev 0.1 ms (lip-sync.test: WebRTC +9.0, +11.0, +12.6, +13.9; ingest -22.7, -9.3,
 *   -18.0, -0.3, +15.3 ms). The 10-minute drift run is still to be done on a quiet machine.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Registry } from 'prom-client';
import { freePort, startRedisServer, startRtmpServer, waitFor } from '@onair/embedded';
import { renderPlanSchema } from '@onair/protocol';
import { SessionHost } from '../src/session/session-host.ts';
import { describeSync, readSync, syncFigures } from '../test/helpers/av-sync.ts';
import { sendIngest, sendWebrtc, type FlashBeepSender } from '../test/helpers/flash-beep-senders.ts';
import { loadAverage } from './proc-cpu.ts';

const PATHS = (process.env.BENCH_PATHS ?? 'webrtc,ingest').split(',') as ('webrtc' | 'ingest')[];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 600);
const SIZE = process.env.BENCH_SIZE === '480p' ? { width: 854, height: 480 } : { width: 1280, height: 720 };
const print = (line: string): void => void process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'onair-lipsync-bench-'));
  const redisService = await startRedisServer(join(dir, 'redis'), await freePort());
  const redis = new Redis(redisService.url, { maxRetriesPerRequest: null });
  const rtmp = await startRtmpServer({ dir: join(dir, 'nginx') });
  const host = new SessionHost({ logger: pino({ level: 'warn' }), redis, metrics: new Registry(), supervisor: { onLogLine: () => {} } });
  try {
    for (const path of PATHS) {
      const ports = { vp8: await freePort(), h264: await freePort(), audio: await freePort() };
      const sessionId = `lipsync-${path}-${randomUUID()}`;
      const key = `out-${path}`;
      const plan = renderPlanSchema.parse({
        profile: { ...SIZE, fps: 30, videoBitrateKbps: 2500, audioBitrateKbps: 128, encoderThreads: 1 },
        inputs: [
          {
            id: 'source',
            kind: 'rtp',
            video: {
              codecs: [
                { encoding: 'VP8', port: ports.vp8, payloadType: 96 },
                { encoding: 'H264', port: ports.h264, payloadType: 102 },
              ],
            },
            audio: { port: ports.audio, encoding: 'OPUS', payloadType: 111 },
          },
        ],
        scenes: [{ id: 'main', placements: [{ inputId: 'source', x: 0, y: 0, width: 1280, height: 720, zorder: 1 }] }],
        activeSceneId: 'main',
        audio: [{ inputId: 'source', volume: 1 }],
        outputs: [{ id: 'out', url: `rtmp://127.0.0.1:${rtmp.port}/live`, key, allowPrivate: true }],
      });
      const session = host.startSession({ sessionId, planVersion: 1, plan });
      await waitFor('output live', async () => (session.stats?.outputs[0]?.state === 'live' ? true : undefined), 30_000);
      let sender: FlashBeepSender | undefined;
      try {
        sender = path === 'webrtc' ? await sendWebrtc(ports) : await sendIngest(ports, rtmp.url(`in-${path}`), rtmp.url(`in-${path}`));
        // The feed joins, its jitter buffer and the lip-sync hold settle (as in test/lip-sync.test.ts).
        await new Promise((resolve) => setTimeout(resolve, 8000));
        const reading = await readSync(rtmp.url(key), SECONDS);
        const figures = syncFigures(reading.pairs);
        const minute = (pairs: typeof reading.pairs) => (pairs.length ? syncFigures(pairs).medianMs.toFixed(1) : 'n/a');
        const t0 = reading.pairs[0]?.at ?? 0;
        const tEnd = reading.pairs.at(-1)?.at ?? 0;
        print(`${path} → ${SIZE.height}p30 program, ${SECONDS} s read (load ${await loadAverage()}): ${describeSync(figures)}`);
        print(
          `  first minute median ${minute(reading.pairs.filter((p) => p.at < t0 + 60))} ms, last minute ${minute(reading.pairs.filter((p) => p.at > tEnd - 60))} ms; ${reading.flashes} flashes and ${reading.beeps} beeps seen`,
        );
        if (process.env.BENCH_VERBOSE) print(`  offsets: ${reading.pairs.map((p) => p.offsetMs.toFixed(0)).join(' ')}`);
      } finally {
        sender?.stop();
        await host.stopSession(sessionId);
      }
    }
  } finally {
    await host.stopAll();
    await rtmp.stop();
    redis.disconnect();
    await redisService.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
