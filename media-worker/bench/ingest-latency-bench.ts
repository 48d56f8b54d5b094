/**
 * Ingest frame → output frame, end to end: `npx tsx bench/ingest-latency-bench.ts` from
 * media-worker/ (BENCH_CHANGES, default 30). It starts the one-machine stack in a temporary folder,
 * makes a project whose scene is the game source over the whole canvas with the local destination
 * and Auto Live, and publishes to the RTMP ingest as an encoder does: ffmpeg (x264 ultrafast,
 * zerolatency, 1 s GOP, no B-frames) encoding raw frames this process writes to it. The picture
 * flips between black and white; each figure runs from the moment the first frame of the new colour
 * is written to the encoder to the first frame of that colour decoded from the local destination
 * (test/helpers/output-reader.ts). The path in between: the publisher's encoder → nginx-rtmp (ingest) →
 * the worker's ffmpeg pull (copy, RTP) → the relay → the pipeline (jitter buffer, decode,
 * compositor, x264) → nginx-rtmp (local destination) → the reader's decode. So the figure includes
 * the publisher's own encode and the reader's decode, which a real encoder and player add too.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack } from '@onair/embedded';
import { StackClient } from '@onair/embedded/test-services';
import type { DestinationView, IngestView, LocalStream, SceneDocument } from '@onair/protocol';
import { CENTRE_PIXEL, readOutput } from '../test/helpers/output-reader.ts';

const CHANGES = Number(process.env.BENCH_CHANGES ?? 30);
const WIDTH = 640;
const HEIGHT = 360;
const FPS = 30;
const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'onair-ingest-bench-'));
  // Auto Live needs an enabled Twitch destination, offered only with an OAuth client; nothing here calls Twitch.
  const stack = await startStack({
    dataDir,
    port: 0,
    env: { LOG_LEVEL: 'warn', INGEST_GRACE_SECONDS: '5', TWITCH_CLIENT_ID: 'bench-client', TWITCH_CLIENT_SECRET: 'bench-secret' },
  });
  const stops: (() => void)[] = [];
  try {
    const client = new StackClient(stack.url);
    await client.signIn(`bench-${Date.now()}@example.test`);
    const { id } = await client.must<{ id: string }>('POST', '/api/v1/projects', { name: 'Ingest latency' });
    const base = `/api/v1/projects/${id}`;
    const doc = await client.must<SceneDocument>('GET', `${base}/scene`);
    const gameId = randomUUID();
    await client.must('PATCH', `${base}/scene`, {
      baseVersion: doc.version,
      ops: [
        { op: 'addSource', source: { id: gameId, kind: 'game', name: 'Game Source' } },
        { op: 'addLayer', sceneId: doc.activeSceneId, layer: { id: randomUUID(), sourceId: gameId, x: 0, y: 0, width: 1280, height: 720 } },
      ],
    });
    const local = await client.must<DestinationView>('POST', `${base}/destinations`, { type: 'Local' });
    // The project's own Local stream.
    const { playUrl: localUrl } = await client.must<LocalStream>('GET', `${base}/destinations/${local.id}/local-stream`);
    await client.must('POST', `${base}/destinations`, { type: 'Twitch', settings: { title: 'Bench' } });
    const ingest = await client.must<IngestView>('PUT', `${base}/auto-live`, { enabled: true });

    // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
    const encoder = spawn('ffmpeg', [
      '-hide_banner', '-loglevel', 'error',
      '-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${WIDTH}x${HEIGHT}`, '-r', String(FPS), '-i', 'pipe:0',
      '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', String(FPS), '-bf', '0', '-pix_fmt', 'yuv420p', '-b:v', '1500k',
      '-c:a', 'aac', '-shortest', '-f', 'flv', `${stack.ingest.pullUrl}/ingest/${ingest.streamKey}`,
    ], { stdio: ['pipe', 'ignore', 'inherit'] });
    stops.push(() => encoder.kill('SIGKILL'));
    let white = false;
    let changedAt = 0;
    const frames = { black: Buffer.alloc(WIDTH * HEIGHT, 16), white: Buffer.alloc(WIDTH * HEIGHT, 235) };
    const ticker = setInterval(() => {
      encoder.stdin.write(white ? frames.white : frames.black);
    }, 1000 / FPS);
    stops.push(() => clearInterval(ticker));

    let onFrame: ((bright: boolean, at: number) => void) | undefined;
    let seen = 0;
    const waitForOutput = async () => {
      for (let i = 0; i < 300 && seen === 0; i++) await new Promise((r) => setTimeout(r, 100));
      if (seen === 0) throw new Error('the local destination never showed a frame');
    };
    // The broadcast starts by itself (Auto Live); the reader connects once the destination has it.
    await new Promise((r) => setTimeout(r, 5000));
    stops.push(
      readOutput(localUrl, (frame, at) => {
        seen += 1;
        onFrame?.(frame[CENTRE_PIXEL]! > 128, at);
      }),
    );
    await waitForOutput();
    await new Promise((r) => setTimeout(r, 3000));

    const latencies: number[] = [];
    for (let n = 0; n < CHANGES; n++) {
      const target: boolean = !white;
      const shown = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the change never reached the output')), 10_000);
        onFrame = (bright, at) => {
          if (bright !== target || at < changedAt) return;
          clearTimeout(timer);
          onFrame = undefined;
          resolve(at - changedAt);
        };
      });
      white = target;
      changedAt = performance.now();
      latencies.push(await shown);
      await new Promise((r) => setTimeout(r, 500 + Math.random() * 300));
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    print(
      `ingest frame → output frame (RTMP ingest, game source full canvas, 720p30 program, ${sorted.length} changes): median ${percentile(sorted, 50).toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(0)} ms, min ${sorted[0]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
    );
  } finally {
    for (const stop of stops) stop();
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
