/**
 * How many studio sessions one media worker holds (issue 41): N concurrent sessions, each a camera
 * (an H.264 picture at the canvas size with a tone, decoded from a looping file: what a decoded
 * camera costs), an image (the OnAir logo) and one destination, all pushing to a local
 * nginx-rtmp. N grows by one until any session's program no longer holds its 30 fps: under 29.5
 * frames out a second, or more than one frame in 60 dropped or repeated by the program's rate
 * keeper (videorate keeps the output at 30 fps by repeating frames when the compositor falls
 * behind, so the output's rate alone stays 30.0 on a saturated machine). The last N that held is
 * this machine's figure. Each step prints every session's frame rate, the cores of all
 * pipeline processes and of the worker's own process (this one: IPC, the supervisors), the cores
 * per session, and beside them what the admission model (protocol/src/sessions/cost.ts) estimates
 * for such a session, and the ratio between the two.
 *
 * Run by hand on an idle machine: `npx tsx bench/density-bench.ts` in media-worker.
 * BENCH_PROFILES=720p30,1080p30 (both by default); BENCH_MAX_SESSIONS=8 caps N; BENCH_WINDOW_MS=10000.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { waitFor, type RunningRtmpServer } from '@onair/embedded';
import { outputProfiles, renderPlanSchema, sessionCost, type RenderPlan, type ResolutionId } from '@onair/protocol';
import type { SessionHost } from '../src/session/session-host.ts';
import { cameraAndLogoPlan, startBenchHost } from './bench-host.ts';
import { cpuSeconds, loadAverage } from './proc-cpu.ts';

const WARMUP_MS = 4000;
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 10_000);
const MAX_SESSIONS = Number(process.env.BENCH_MAX_SESSIONS ?? 8);
/** Under this, a session's program no longer keeps its frame rate: the worker is full. */
const MIN_FPS = 29.5;
/** Frames a second dropped or repeated by the program's rate keeper above which a session no longer holds. */
const MAX_REPAIRED_PER_SECOND = 0.5;
const PROFILES = { '720p30': '720p', '1080p30': '1080p' } as const satisfies Partial<Record<keyof typeof outputProfiles, ResolutionId>>;
type BenchProfile = keyof typeof PROFILES;

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/**
 * The session's camera: a decoded H.264 picture at the canvas size (a video file looped, decoded
 * and scaled as a camera's stream is), so the model's charge for a decoded input is what is
 * measured; the test picture of the other benches costs less than a decode and more than nothing.
 */
function cameraFile(dir: string, profile: BenchProfile): string {
  const { width, height } = outputProfiles[profile];
  const path = join(dir, `camera-${profile}.mp4`);
  const args = ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=s=${width}x${height}:r=30:d=20`, '-f', 'lavfi', '-i', 'sine=f=440:d=20'];
  args.push('-c:v', 'libx264', '-preset', 'veryfast', '-g', '60', '-pix_fmt', 'yuv420p', '-b:v', '2500k', '-c:a', 'aac', '-shortest', path);
  execFileSync('ffmpeg', args);
  return path;
}

function plan(profile: BenchProfile, camera: string, server: RunningRtmpServer, key: string): RenderPlan {
  const base = cameraAndLogoPlan(outputProfiles[profile], [{ id: 'd0', url: `rtmp://127.0.0.1:${server.port}/live`, key, allowPrivate: true }]);
  return renderPlanSchema.parse({
    ...base,
    inputs: base.inputs.map((input) => (input.id === 'camera' ? { id: 'camera', kind: 'video-file', path: camera, loop: true } : input)),
  });
}

/** What the admission model charges for one such session: a decoded picture at the canvas size and an image. */
function modelCores(profile: BenchProfile): number {
  return sessionCost({
    resolution: PROFILES[profile],
    sources: [
      { id: 'camera', kind: 'video' },
      { id: 'logo', kind: 'image' },
    ],
  });
}

interface Step {
  n: number;
  fps: number[];
  /** Frames a second each program's rate keeper dropped or repeated. */
  repaired: number[];
  pipelineCores: number;
  workerCores: number;
}

/** Every running session's program frame rate and the cores of their processes over one window. */
async function measure(host: SessionHost, ids: string[]): Promise<Step> {
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  const sessions = ids.map((id) => host.session(id)!);
  const pids = sessions.map((s) => s.pid!);
  const frames = () => sessions.map((s) => s.stats?.framesOut ?? 0);
  const repaired = () => sessions.map((s) => s.stats?.droppedFrames ?? 0);
  const [cpu0, worker0, frames0, repaired0, t0] = [await Promise.all(pids.map(cpuSeconds)), await cpuSeconds(process.pid), frames(), repaired(), Date.now()];
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const seconds = (Date.now() - t0) / 1000;
  const [cpu1, worker1, frames1, repaired1] = [await Promise.all(pids.map(cpuSeconds)), await cpuSeconds(process.pid), frames(), repaired()];
  return {
    n: ids.length,
    fps: frames1.map((f, i) => (f - frames0[i]!) / seconds),
    repaired: repaired1.map((f, i) => (f - repaired0[i]!) / seconds),
    pipelineCores: cpu1.reduce((sum, c, i) => sum + c - cpu0[i]!, 0) / seconds,
    workerCores: (worker1 - worker0) / seconds,
  };
}

async function density(host: SessionHost, server: RunningRtmpServer, dir: string, profile: BenchProfile): Promise<void> {
  const model = modelCores(profile);
  const camera = cameraFile(dir, profile);
  const ids: string[] = [];
  let held: Step | undefined;
  print(
    `\n${profile}: sessions of a camera (a decoded H.264 picture at the canvas size) + an image + one destination; the model charges ${model.toFixed(2)} cores each`,
  );
  print(
    `${'N'.padStart(3)} ${'lowest fps'.padStart(10)} ${'repaired/s'.padStart(10)} ${'pipelines'.padStart(10)} ${'worker'.padStart(7)} ${'per session'.padStart(12)} ${'model/measured'.padStart(15)}  load`,
  );
  try {
    for (let n = 1; n <= MAX_SESSIONS; n++) {
      const id = `density-${profile}-${n}`;
      host.startSession({ sessionId: id, planVersion: 1, plan: plan(profile, camera, server, id) });
      ids.push(id);
      await waitFor(`${id} live`, async () => (host.session(id)?.stats?.outputs[0]?.state === 'live' ? true : undefined), 60_000);
      const step = await measure(host, ids);
      const lowest = Math.min(...step.fps);
      const mostRepaired = Math.max(...step.repaired);
      const perSession = (step.pipelineCores + step.workerCores) / n;
      print(
        `${String(n).padStart(3)} ${lowest.toFixed(1).padStart(10)} ${mostRepaired.toFixed(1).padStart(10)} ${step.pipelineCores.toFixed(2).padStart(10)} ${step.workerCores.toFixed(2).padStart(7)} ${perSession.toFixed(2).padStart(12)} ${(model / perSession).toFixed(2).padStart(15)}  ${await loadAverage()}`,
      );
      if (lowest < MIN_FPS || mostRepaired > MAX_REPAIRED_PER_SECOND) break;
      held = step;
    }
  } finally {
    for (const id of ids) await host.stopSession(id);
  }
  if (!held) {
    print(`${profile}: not even one session held 30 fps on this machine`);
    return;
  }
  const perSession = (held.pipelineCores + held.workerCores) / held.n;
  const capped = held.n === MAX_SESSIONS ? ` (BENCH_MAX_SESSIONS reached: the worker may hold more)` : '';
  print(
    `${profile}: ${held.n} sessions held 30 fps (≥ ${MIN_FPS} out, ≤ ${MAX_REPAIRED_PER_SECOND} frames/s repaired)${capped}; ${perSession.toFixed(2)} cores per session measured, ${model.toFixed(2)} estimated by the model (×${(model / perSession).toFixed(2)})`,
  );
}

const { host, server, dir, stop } = await startBenchHost('density-bench');
try {
  print(
    `window ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up; cores of the pipeline processes and of this process (the worker's part); nginx excluded; load ${await loadAverage()}`,
  );
  for (const profile of (process.env.BENCH_PROFILES ?? '720p30,1080p30').split(',')) {
    if (!(profile in PROFILES)) throw new Error(`BENCH_PROFILES: ${profile} is not one of ${Object.keys(PROFILES).join(', ')}`);
    await density(host, server, dir, profile as BenchProfile);
  }
} finally {
  await stop();
}
