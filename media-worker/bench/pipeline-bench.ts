/**
 * What a session costs and how fast a scene patch shows: run with `npm run bench -w media-worker`.
 * Real pipeline processes (as the worker runs them) push to a private nginx-rtmp; CPU is read from
 * /proc for the pipeline process only, over a fixed window after a warm-up.
 *   1. cores per session at 720p30 and 1080p30 (moving test pattern + tone + one image layer)
 *   2. CPU with 10 destinations / CPU with 1
 *   3. patch → changed frame at the output: a full-frame layer made visible by a plan version,
 *      detected in frames decoded from the RTMP output.
 *   4. Go Live → first picture decoded at a newly added destination (and its first packet, and what
 *      ffmpeg's probing command-line player shows).
 *   5. the encoder's step-down ladder at 720p30 (BENCH_LADDER=720p30,1080p30 for more profiles):
 *      cores at every step, as a ratio to step 0 and to the step before (what the governor can give
 *      back when a worker runs out of CPU; issue 41 wants every step to save at least 10 %).
 * BENCH_ONLY=cost,ratio,patch,golive,ladder runs only the parts named.
 * BENCH_CORNERS=round draws the full-frame camera with rounded corners (2% of the width: its rounded
 * branch then works on the whole frame, the worst case); BENCH_CORNERS=tile draws the camera as a
 * quarter-frame tile (the default camera's place: 40,40 at half the width), square, and
 * BENCH_CORNERS=tile-round the same tile rounded; unset, the full-frame camera square. The camera
 * covers its box in every case (a 16:9 picture in a 16:9 box: videocrop passes it through).
 * Each session also prints its CPU by thread, and the fan-out ratio is also given by threads.
 */
import { spawn } from 'node:child_process';
import { waitFor, type RunningRtmpServer } from '@onair/embedded';
import { encoderLadder, outputProfiles, renderPlanSchema, type PipelineReport, type PlanOutput, type RenderPlan } from '@onair/protocol';
import type { SessionHost } from '../src/session/session-host.ts';
import { cameraAndLogoPlan, startBenchHost } from './bench-host.ts';
import { CENTRE_PIXEL, readOutput } from '../test/helpers/output-reader.ts';
import { cpuSeconds, threadCpuSeconds } from './proc-cpu.ts';

const WARMUP_MS = 4000;
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 10_000);
const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

function plan(profile: keyof typeof outputProfiles, outputs: PlanOutput[], showGreen = false): RenderPlan {
  const green = { id: 'green', kind: 'test-pattern', pattern: 'solid', color: 0x00ff00, width: 64, height: 36 } as const;
  const built = cameraAndLogoPlan(outputProfiles[profile], outputs, [{ input: green, visible: showGreen }]);
  const corners = process.env.BENCH_CORNERS ?? 'none';
  const { width, height } = outputProfiles[profile];
  const tile = corners.startsWith('tile') ? { x: Math.round(width / 32), y: Math.round(width / 32), width: width / 2, height: height / 2 } : {};
  const radius = corners.endsWith('round') ? (tile.width ?? width) * 0.02 : 0;
  for (const scene of built.scenes) {
    scene.placements = scene.placements.map((p) => (p.inputId === 'camera' ? { ...p, ...tile, cornerRadius: radius, fit: 'cover' as const } : p));
  }
  return renderPlanSchema.parse(built);
}

interface Measured {
  cores: number;
  fps: number;
  /** Cores per thread name (GStreamer names streaming threads `element:pad`). */
  threads: Map<string, number>;
}

/** CPU of the process, of each of its threads, and the program frame rate over the window. */
async function measure(pid: number, frames: () => number): Promise<Measured> {
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  const [cpu0, threads0, frames0, t0] = [await cpuSeconds(pid), await threadCpuSeconds(pid), frames(), Date.now()];
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const seconds = (Date.now() - t0) / 1000;
  const threads1 = await threadCpuSeconds(pid);
  const threads = new Map([...threads1].map(([name, s]) => [name, (s - (threads0.get(name) ?? 0)) / seconds]));
  return { cores: ((await cpuSeconds(pid)) - cpu0) / seconds, fps: (frames() - frames0) / seconds, threads };
}

/**
 * The process's JS thread: IPC, stats, the FLV fan-out and every destination's RTMP connection
 * (outputs/flv-fanout.ts, outputs/rtmp/publisher.ts). No thread exists per destination.
 */
const MAIN_THREAD = 'MainThread';

function sumThreads(threads: Map<string, number>, keep: (name: string) => boolean): number {
  return [...threads].filter(([name]) => keep(name)).reduce((n, [, cores]) => n + cores, 0);
}

function threadLine(threads: Map<string, number>): string {
  return [...threads]
    .filter(([, cores]) => cores >= 0.01)
    .sort((a, b) => b[1] - a[1])
    .map(([name, cores]) => `${name} ${cores.toFixed(2)}`)
    .join(', ');
}

interface Bench {
  host: SessionHost;
  server: RunningRtmpServer;
  reports: { sessionId: string; report: PipelineReport }[];
}

async function runSession(bench: Bench, id: string, profile: keyof typeof outputProfiles, destinations: number): Promise<Measured | undefined> {
  const outputs = Array.from({ length: destinations }, (_, i) => ({
    id: `d${i}`,
    url: `rtmp://127.0.0.1:${bench.server.port}/live`,
    key: `${id}-${i}`,
    allowPrivate: true,
  }));
  const session = bench.host.startSession({ sessionId: id, planVersion: 1, plan: plan(profile, outputs) });
  await waitFor(`${id} live`, async () => (session.stats?.outputs.filter((o) => o.state === 'live').length === destinations ? true : undefined), 30_000);
  const measured = await measure(session.pid!, () => session.stats?.framesOut ?? 0);
  const { cores, fps } = measured;
  await bench.host.stopSession(id);
  // On a shared machine the pipeline may not get the CPU it needs and fall below 30 fps. Its
  // figure is then meaningless either way: live sources keep producing frames that leaky queues
  // drop, so neither the CPU used nor the CPU per output frame is the cost at 30 fps.
  const starved = fps < 29 ? '  STARVED: not a valid figure, run again on an idle machine' : '';
  print(`${id.padEnd(14)} ${profile.padEnd(8)} destinations=${String(destinations).padStart(2)}  cores=${cores.toFixed(2)}  fps=${fps.toFixed(1)}${starved}`);
  print(`${''.padEnd(14)} threads: ${threadLine(measured.threads)}`);
  return starved ? undefined : measured;
}

/** Cores of one 720p30 session (1 destination) at every step of its encoder ladder, the same process throughout. */
async function ladderCost(bench: Bench, profile: keyof typeof outputProfiles): Promise<void> {
  const id = `ladder-${profile}`;
  const outputs = [{ id: 'd0', url: `rtmp://127.0.0.1:${bench.server.port}/live`, key: id, allowPrivate: true }];
  const session = bench.host.startSession({ sessionId: id, planVersion: 1, plan: plan(profile, outputs) });
  await waitFor(`${id} live`, async () => (session.stats?.outputs[0]?.state === 'live' ? true : undefined), 30_000);
  const figures: string[] = [];
  let base: number | undefined;
  let before: number | undefined;
  for (const step of encoderLadder(outputProfiles[profile])) {
    session.setEncoderStep(step.step);
    const measured = await measure(session.pid!, () => session.stats?.framesOut ?? 0);
    const reported = session.stats?.encoder;
    base ??= measured.cores;
    const starved = measured.fps < 29 ? ' STARVED' : '';
    figures.push(
      `${step.step} ${reported?.preset}@${reported?.width}x${reported?.height} ${measured.cores.toFixed(2)} (${(measured.cores / base).toFixed(2)}, ${(measured.cores / (before ?? measured.cores)).toFixed(2)}) fps=${measured.fps.toFixed(1)}${starved}`,
    );
    before = measured.cores;
    print(`${id} step ${step.step} threads: ${threadLine(measured.threads)}`);
  }
  await bench.host.stopSession(id);
  print(`encoder ladder at ${profile} (step preset@size cores (ratio to step 0, to the step before)): ${figures.join('; ')}`);
}

/** Latency from a plan version sent to the first output frame that shows it (ms), `samples` times. */
async function patchLatency(bench: Bench, samples: number): Promise<number[]> {
  const profile = '720p30';
  const outputs = [{ id: 'out', url: `rtmp://127.0.0.1:${bench.server.port}/live`, key: 'latency', allowPrivate: true }];
  const session = bench.host.startSession({ sessionId: 'latency', planVersion: 1, plan: plan(profile, outputs) });
  await waitFor('latency live', async () => (session.stats?.outputs[0]?.state === 'live' ? true : undefined), 30_000);
  let onFrame: ((green: boolean, at: number) => void) | undefined;
  const stopReader = readOutput(bench.server.url('latency'), (frame, at) => {
    onFrame?.(frame[CENTRE_PIXEL + 1]! > 180 && frame[CENTRE_PIXEL]! < 90, at);
  });
  const results: number[] = [];
  try {
    await new Promise((r) => setTimeout(r, 3000));
    let version = 1;
    for (let n = 0; n < samples; n++) {
      for (const showGreen of [true, false]) {
        version += 1;
        const seen = new Promise<number>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('change never reached the output')), 10_000);
          const sentAt = performance.now();
          onFrame = (green, at) => {
            if (green === showGreen) {
              clearTimeout(timer);
              onFrame = undefined;
              resolve(at - sentAt);
            }
          };
          bench.host.applyPlan('latency', version, plan(profile, outputs, showGreen));
        });
        results.push(await seen);
        await new Promise((r) => setTimeout(r, 700));
      }
    }
  } finally {
    stopReader();
    await bench.host.stopSession('latency');
  }
  return results;
}

/** First-frame times of one Go Live sample, ms after the plan added the output. */
interface GoLiveSample {
  /** The first video packet at the destination (a keyframe, or the sample fails). */
  keyframe: number;
  /** The first picture decoded from it by a player that decodes as packets arrive. */
  picture: number;
  /** The first picture ffmpeg's command-line player writes: it probes ~20 frames before decoding. */
  ffmpeg: number;
}

/**
 * A player of the destination that decodes each packet as it arrives (GStreamer: rtmp2src, flvdemux,
 * avdec_h264), as an ingest or a low-latency player does, and reports when the first video packet
 * arrived, whether it was a keyframe, and when the first picture came out of the decoder.
 */
function decodingViewer(url: string): { firstPacket: Promise<{ at: number; keyframe: boolean }>; firstPicture: Promise<number>; stop: () => void } {
  const args = ['-v', 'rtmp2src', `location=${url}`, '!', 'flvdemux', 'name=d'];
  args.push(
    'd.video',
    '!',
    'identity',
    'name=packets',
    'silent=false',
    '!',
    'h264parse',
    '!',
    'avdec_h264',
    '!',
    'identity',
    'name=pictures',
    'silent=false',
    '!',
    'fakesink',
    'sync=false',
    'async=false',
  );
  args.push('d.audio', '!', 'fakesink', 'sync=false', 'async=false');
  // Line-buffered, so each buffer's line is read when it is printed.
  const viewer = spawn('stdbuf', ['-oL', 'gst-launch-1.0', ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
  let resolvePacket: (v: { at: number; keyframe: boolean }) => void = () => {};
  let resolvePicture: (at: number) => void = () => {};
  const firstPacket = new Promise<{ at: number; keyframe: boolean }>((r) => (resolvePacket = r));
  const firstPicture = new Promise<number>((r) => (resolvePicture = r));
  let partial = '';
  viewer.stdout.on('data', (chunk: Buffer) => {
    const at = performance.now();
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('last-message = chain')) continue;
      // flvdemux marks every packet that is not a keyframe as a delta unit.
      if (line.includes('GstIdentity:packets:')) resolvePacket({ at, keyframe: !line.includes('delta-unit') });
      if (line.includes('GstIdentity:pictures:')) resolvePicture(at);
    }
  });
  return { firstPacket, firstPicture, stop: () => viewer.kill('SIGKILL') };
}

/**
 * Go Live → first picture at a new destination, `samples` times: players wait on a fresh stream
 * key; the plan adds an output to it at a random point of the 2 s keyframe grid. The players
 * connect first, so they receive everything from the first byte published (nginx sends a waiting
 * player the stream from its start), as a platform's ingest does.
 */
async function goLiveLatency(bench: Bench, samples: number): Promise<GoLiveSample[]> {
  const profile = '720p30';
  const base = { id: 'main', url: `rtmp://127.0.0.1:${bench.server.port}/live`, key: 'golive-main', allowPrivate: true };
  const session = bench.host.startSession({ sessionId: 'golive', planVersion: 1, plan: plan(profile, [base]) });
  await waitFor('golive live', async () => (session.stats?.outputs[0]?.state === 'live' ? true : undefined), 30_000);
  const results: GoLiveSample[] = [];
  const connected: number[] = [];
  let version = 1;
  try {
    for (let n = 0; n < samples; n++) {
      await new Promise((r) => setTimeout(r, 500 + Math.random() * 2000));
      const key = `golive-${n}`;
      const probing = spawn('ffmpeg', ['-v', 'error', '-i', bench.server.url(key), '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-s', '16x9', '-'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const decoding = decodingViewer(bench.server.url(key));
      // Let the players connect and wait for the publisher.
      await new Promise((r) => setTimeout(r, 700));
      const probed = new Promise<number>((resolve) => probing.stdout.once('data', () => resolve(performance.now())));
      const addedAt = performance.now();
      version += 1;
      bench.host.applyPlan(session.sessionId, version, plan(profile, [base, { id: `add${n}`, url: base.url, key, allowPrivate: true }]));
      const isLive = ({ sessionId, report }: Bench['reports'][number]) =>
        sessionId === session.sessionId && report.type === 'outputStatus' && report.outputId === `add${n}` && report.state === 'live';
      const liveAt = waitFor('the new output live', async () => (bench.reports.some(isLive) ? performance.now() : undefined), 15_000, 5);
      const within = <T>(what: string, p: Promise<T>) =>
        Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the new destination never showed ${what}`)), 15_000))]);
      const packet = await within('a packet', decoding.firstPacket);
      if (!packet.keyframe) throw new Error('the first video packet at the new destination was not a keyframe');
      const sample = {
        keyframe: packet.at - addedAt,
        picture: (await within('a picture', decoding.firstPicture)) - addedAt,
        ffmpeg: (await within('a picture to ffmpeg', probed)) - addedAt,
      };
      results.push(sample);
      connected.push((await liveAt) - addedAt);
      probing.kill('SIGKILL');
      decoding.stop();
      version += 1;
      bench.host.applyPlan(session.sessionId, version, plan(profile, [base]));
    }
  } finally {
    await bench.host.stopSession(session.sessionId);
  }
  print(`  (output reported live to the studio after: ${connected.map((ms) => ms.toFixed(0)).join(', ')} ms)`);
  return results;
}

async function main(): Promise<void> {
  const reports: Bench['reports'] = [];
  const { host, server, stop } = await startBenchHost('bench', (sessionId, report) => reports.push({ sessionId, report }));
  const bench: Bench = { host, server, reports };
  try {
    print(`window ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up; pipeline process CPU only (nginx and the reader excluded)`);
    const only = new Set((process.env.BENCH_ONLY ?? 'cost,ratio,patch,golive,ladder').split(','));
    const m720 = only.has('cost') || only.has('ratio') ? await runSession(bench, 'cost-720', '720p30', 1) : undefined;
    if (only.has('cost')) {
      const m1080 = await runSession(bench, 'cost-1080', '1080p30', 1);
      const figure = (m: Measured | undefined) => (m === undefined ? 'n/a (starved)' : m.cores.toFixed(2));
      print(`cores per session: 720p30 ${figure(m720)}, 1080p30 ${figure(m1080)}`);
    }
    if (only.has('ratio')) {
      // BENCH_RATIO_PROFILE=480p30 measures the fan-out on a machine too busy for two 720p runs.
      const ratioProfile = (process.env.BENCH_RATIO_PROFILE ?? '720p30') as keyof typeof outputProfiles;
      const m1 = ratioProfile === '720p30' ? m720 : await runSession(bench, 'ratio-x1', ratioProfile, 1);
      const m10 = await runSession(bench, 'ratio-x10', ratioProfile, 10);
      if (m1 && m10) {
        print(`CPU(10 destinations) / CPU(1) at ${ratioProfile}, whole process: ${(m10.cores / m1.cores).toFixed(2)}`);
        // The whole-process ratio carries the run-to-run noise of the shared work (sources, compositor,
        // encoder: the same threads in both runs). By threads: the 1-destination run as measured,
        // plus what one more destination costs as the 10-destination run measured it. A destination
        // has no thread of its own: its connection lives on the JS thread, whose growth from 1 to 10
        // destinations is nine destinations' work (the fan-out's one read and chunking per tag is
        // there in both runs). The RTMP server is another process and counts in neither.
        const one = sumThreads(m1.threads, () => true);
        const main1 = m1.threads.get(MAIN_THREAD) ?? 0;
        const main10 = m10.threads.get(MAIN_THREAD) ?? 0;
        const perOutput = Math.max(0, main10 - main1) / 9;
        const others = (m: Measured) => sumThreads(m.threads, (n) => n !== MAIN_THREAD);
        print(
          `  JS thread ${main1.toFixed(4)} cores with 1 destination, ${main10.toFixed(4)} with 10; every other thread ${others(m1).toFixed(3)} and ${others(m10).toFixed(3)}`,
        );
        print(
          `CPU(10 destinations) / CPU(1) at ${ratioProfile}, by threads: ${((one + 9 * perOutput) / one).toFixed(3)} (one session ${one.toFixed(3)} cores, one destination ${perOutput.toFixed(4)} cores)`,
        );
      } else {
        print(`CPU(10 destinations) / CPU(1) at ${ratioProfile}: n/a (starved)`);
      }
    }
    if (only.has('patch')) {
      const latencies = (await patchLatency(bench, 15)).sort((a, b) => a - b);
      const median = latencies[Math.floor(latencies.length / 2)]!;
      print(
        `patch → changed frame at the output (720p30, ${latencies.length} changes): median ${median.toFixed(0)} ms, p95 ${latencies[Math.ceil(latencies.length * 0.95) - 1]!.toFixed(0)} ms, min ${latencies[0]!.toFixed(0)} ms, max ${latencies[latencies.length - 1]!.toFixed(0)} ms`,
      );
    }
    if (only.has('golive')) {
      const goLive = await goLiveLatency(bench, Number(process.env.BENCH_GOLIVE_SAMPLES ?? 8));
      const figures = (key: keyof GoLiveSample) => {
        const ms = goLive.map((sample) => sample[key]).sort((a, b) => a - b);
        return `median ${ms[Math.floor(ms.length / 2)]!.toFixed(0)} ms, min ${ms[0]!.toFixed(0)}, max ${ms[ms.length - 1]!.toFixed(0)}`;
      };
      print(`Go Live → first picture at a new destination (720p30, 2 s keyframe grid, ${goLive.length} times): ${figures('picture')}`);
      print(`  first packet at the destination (a keyframe every time): ${figures('keyframe')}`);
      print(`  first picture of ffmpeg's command-line player (probes ~20 frames before decoding): ${figures('ffmpeg')}`);
    }
    if (only.has('ladder')) {
      for (const profile of (process.env.BENCH_LADDER ?? '720p30').split(',')) {
        if (!(profile in outputProfiles)) throw new Error(`BENCH_LADDER: no output profile ${profile} (${Object.keys(outputProfiles).join(', ')})`);
        await ladderCost(bench, profile as keyof typeof outputProfiles);
      }
    }
  } finally {
    await stop();
  }
}

await main();
