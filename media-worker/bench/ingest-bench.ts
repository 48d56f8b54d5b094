/**
 * The pipeline's cost of one ingested 720p30 camera track, per codec, without a browser on the
 * same cores: `npx tsx bench/ingest-bench.ts` (from media-worker/). A moving 720p30 picture is
 * encoded once beforehand (VP8 as Chromium's libvpx sends it, H.264 Constrained Baseline as a
 * hardware encoder does) and replayed as RTP in real time by a gst-launch that only parses and
 * packetizes (a few percent of a core). The session's pipeline process is measured with the
 * camera's layer hidden and no packets, then with the layer shown and the track arriving: the
 * difference is depacketizing, decoding and scaling the track into the program. werift's part
 * (SRTP, forwarding) is measured by webrtc-bench.ts.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Registry } from 'prom-client';
import { freePort, startRedisServer, startRtmpServer, waitFor } from '@onair/embedded';
import { outputProfiles, renderPlanSchema, type RenderPlan } from '@onair/protocol';
import { SessionHost } from '../src/session/session-host.ts';
import { coresOver, loadAverage } from './proc-cpu.ts';

const execFileAsync = promisify(execFile);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 15_000);
const SETTLE_MS = 4000;
const print = (line: string): void => void process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const SOURCE = 'videotestsrc is-live=false pattern=smpte horizontal-speed=4 num-buffers=1800 ! video/x-raw,width=1280,height=720,framerate=30/1';
const codecs = {
  VP8: {
    encode: (file: string) => `${SOURCE} ! vp8enc deadline=1 cpu-used=4 target-bitrate=2500000 keyframe-max-dist=3000 ! webmmux ! filesink location=${file}`,
    replay: (file: string, port: number) =>
      `filesrc location=${file} ! matroskademux ! identity sync=true ! rtpvp8pay pt=96 mtu=1200 ! udpsink host=127.0.0.1 port=${port}`,
    payloadType: 96,
  },
  H264: {
    encode: (file: string) =>
      `${SOURCE} ! x264enc speed-preset=veryfast tune=zerolatency bitrate=2500 key-int-max=3000 ! video/x-h264,profile=constrained-baseline ! h264parse ! mp4mux ! filesink location=${file}`,
    replay: (file: string, port: number) =>
      `filesrc location=${file} ! qtdemux ! h264parse config-interval=-1 ! identity sync=true ! rtph264pay pt=102 mtu=1200 config-interval=-1 ! udpsink host=127.0.0.1 port=${port}`,
    payloadType: 102,
  },
} as const;

function plan(encoding: keyof typeof codecs, port: number, shown: boolean, outputUrl: string): RenderPlan {
  const p = outputProfiles['720p30'];
  return renderPlanSchema.parse({
    profile: p,
    inputs: [{ id: 'camera', kind: 'rtp', video: { codecs: [{ encoding, port, payloadType: codecs[encoding].payloadType }] } }],
    scenes: [{ id: 'main', placements: [{ inputId: 'camera', x: 0, y: 0, width: p.width, height: p.height, zorder: 1, visible: shown }] }],
    activeSceneId: 'main',
    outputs: [{ id: 'out', url: outputUrl, key: 'ingest', allowPrivate: true }],
  });
}

/** Whether the output's picture is the test card (bright, coloured), not the black background. */
async function showsPicture(url: string): Promise<boolean> {
  const { stdout } = await execFileAsync(
    'ffmpeg',
    ['-v', 'error', '-rw_timeout', '8000000', '-i', url, '-vf', 'scale=16:9', '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', timeout: 20_000 },
  );
  return [...stdout].reduce((sum, v) => sum + v, 0) / stdout.length > 60;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'onair-ingest-bench-'));
  const redisService = await startRedisServer(join(dir, 'redis'), await freePort());
  const redis = new Redis(redisService.url, { maxRetriesPerRequest: null });
  const rtmp = await startRtmpServer({ dir: join(dir, 'nginx') });
  const host = new SessionHost({ logger: pino({ level: 'warn' }), redis, metrics: new Registry(), supervisor: { onLogLine: () => {} } });
  let sender: ChildProcess | undefined;
  try {
    print(`window ${WINDOW_MS / 1000} s, 720p30 program, one 1280x720 30 fps track at ~2.5 Mbit/s`);
    for (const encoding of Object.keys(codecs) as (keyof typeof codecs)[]) {
      const file = join(dir, `camera-${encoding}`);
      await execFileAsync('gst-launch-1.0', ['-q', ...codecs[encoding].encode(file).split(' ')], { maxBuffer: 1 << 20 });
      const port = await freePort();
      const sessionId = `ingest-${encoding}`;
      const outputUrl = `rtmp://127.0.0.1:${rtmp.port}/live`;
      const session = host.startSession({ sessionId, planVersion: 1, plan: plan(encoding, port, false, outputUrl) });
      await waitFor('output live', async () => (session.stats?.outputs[0]?.state === 'live' ? true : undefined), 30_000);
      await sleep(SETTLE_MS);
      const [idle] = await coresOver([session.pid!], WINDOW_MS);
      host.applyPlan(sessionId, 2, plan(encoding, port, true, outputUrl));
      sender = spawn('gst-launch-1.0', ['-q', ...codecs[encoding].replay(file, port).split(' ')], { stdio: 'ignore' });
      await sleep(SETTLE_MS);
      const [busy, replay] = await coresOver([session.pid!, sender.pid!], WINDOW_MS);
      const shown = await showsPicture(rtmp.url('ingest'));
      const fps = session.stats?.fps ?? 0;
      print(
        `${encoding}: pipeline ${idle!.toFixed(2)} cores without the track, ${busy!.toFixed(2)} with it (program at ${fps} fps): +${(busy! - idle!).toFixed(2)} cores per ingested track${shown ? '' : ' (THE TRACK NEVER SHOWED: figures invalid)'}; the replay itself ${replay!.toFixed(2)} cores; load ${await loadAverage()}`,
      );
      sender.kill('SIGKILL');
      sender = undefined;
      await host.stopSession(sessionId);
    }
  } finally {
    sender?.kill('SIGKILL');
    await host.stopAll();
    await rtmp.stop();
    redis.disconnect();
    await redisService.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
