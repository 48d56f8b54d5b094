/**
 * Scene patch accepted by the api → changed frame in the output, end to end: `npx tsx
 * bench/patch-api-bench.ts` from media-worker/ (BENCH_PATCHES, default 50). It starts the whole
 * one-machine stack (`startStack`, as `./onair start` does) in a temporary folder, signs in
 * through the development inbox, creates a project, goes live to the local destination and then
 * shows and hides the camera layer with PATCH /scene. Each figure runs from the moment the api's
 * response to the PATCH arrives (the patch is accepted and published) to the first frame decoded
 * from the local RTMP output that shows the new state. The path in between: Redis → the media
 * worker's session consumer → a new plan → the pipeline process → compositor → x264 → nginx-rtmp →
 * the reader (test/helpers/output-reader.ts: decodes each packet as it arrives), so the figure includes the
 * encoder's, the RTMP server's and the reader's delays.
 * Each frame is classed by comparing it (downscaled to 16×9) with reference frames of both states.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack } from '@onair/embedded';
import { StackClient } from '@onair/embedded/test-services';
import type { DestinationView, LocalStream, SceneDocument } from '@onair/protocol';
import { readOutput } from '../test/helpers/output-reader.ts';

const PATCHES = Number(process.env.BENCH_PATCHES ?? 50);
const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

const distance = (a: Buffer, b: Buffer): number => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += Math.abs(a[i]! - b[i]!);
  return d;
};

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'onair-patch-bench-'));
  const stack = await startStack({ dataDir, port: 0, env: { LOG_LEVEL: 'warn' } });
  let stopReader: (() => void) | undefined;
  try {
    const client = new StackClient(stack.url);
    await client.signIn(`bench-${Date.now()}@example.test`);
    const project = await client.must<{ id: string }>('POST', '/api/v1/projects', { name: 'Patch latency' });
    const base = `/api/v1/projects/${project.id}`;
    const local = await client.must<DestinationView>('POST', `${base}/destinations`, { type: 'Local' });
    // The project's own Local stream.
    const { playUrl: localUrl } = await client.must<LocalStream>('GET', `${base}/destinations/${local.id}/local-stream`);
    await client.must('POST', `${base}/broadcast`);
    let doc = await client.must<SceneDocument>('GET', `${base}/scene`);
    const scene = doc.scenes.find((s) => s.id === doc.activeSceneId)!;
    const camera = scene.layers.find((l) => doc.sources.find((s) => s.id === l.sourceId)?.kind === 'webcam');
    if (!camera) throw new Error('the new project has no camera layer');

    let latest: Buffer | undefined;
    let onFrame: ((frame: Buffer, at: number) => void) | undefined;
    stopReader = readOutput(localUrl, (frame, at) => {
      latest = frame;
      onFrame?.(frame, at);
    });
    const patch = async (visible: boolean) => {
      const res = await client.must<{ version: number }>('PATCH', `${base}/scene`, {
        baseVersion: doc.version,
        ops: [{ op: 'updateLayer', sceneId: scene.id, layerId: camera.id, changes: { visible } }],
      });
      doc = { ...doc, version: res.version };
      return performance.now();
    };
    const settle = async (ms: number) => new Promise((r) => setTimeout(r, ms));
    // Reference frames of both states, each taken once the output has long shown it.
    await settle(6000);
    await patch(false);
    await settle(3000);
    const hidden = latest;
    await patch(true);
    await settle(3000);
    const shown = latest;
    if (!hidden || !shown) throw new Error('no frames from the local destination');
    const apart = distance(hidden, shown);
    print(`reference frames differ by ${apart} (16×9 RGB, sum of absolute differences)`);

    const latencies: number[] = [];
    for (let n = 0; n < PATCHES; n++) {
      const visible = n % 2 === 1;
      const target = visible ? shown : hidden;
      const other = visible ? hidden : shown;
      let acceptedAt = Number.POSITIVE_INFINITY;
      const seen = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('change never reached the output')), 10_000);
        onFrame = (frame, at) => {
          if (at < acceptedAt || distance(frame, target) >= distance(frame, other)) return;
          clearTimeout(timer);
          onFrame = undefined;
          resolve(at - acceptedAt);
        };
      });
      acceptedAt = await patch(visible);
      latencies.push(await seen);
      await settle(400 + Math.random() * 300);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    print(
      `patch accepted by the api → changed frame at the output (720p30, ${sorted.length} changes): median ${percentile(sorted, 50).toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(0)} ms, min ${sorted[0]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
    );
  } finally {
    stopReader?.();
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
