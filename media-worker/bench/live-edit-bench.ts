/**
 * Changing the show while live (issue 35): `npx tsx bench/live-edit-bench.ts` from media-worker/.
 * A real pipeline process (as the worker runs it) live at 720p30 to a private nginx-rtmp, read the
 * whole time by a packet reader (test/helpers/output-reader.ts: each video packet's FLV timestamp
 * and its arrival). Run on an idle machine: the arrival figures are the machine's too.
 *   edits  every kind of change, REPEAT times each: the longest gap between consecutive video
 *          packets within 1.5 s of the change, in stream time and on arrival; frames the program
 *          dropped or repeated over that window; the pipeline process's CPU in the 2 s after the
 *          change, as a ratio to the same process's CPU with no change (measured in the same run).
 *   leak   CYCLES attach/detach cycles of a web page and a camera (both with their senders
 *          running): the process's RSS, threads and open files every 20 cycles, against the
 *          figures after the first cycle.
 *   replace the changes that still replace the pipeline process (issue 35, item 3): a new output
 *          profile and a crash (kill -9): the longest arrival gap at a reader that follows the new
 *          publish (the RTMP server ends its players with their publisher, so it starts a new reader
 *          at once, as a retrying player would). Stream time restarts with the new publisher, so
 *          only arrival is read; the same run measures what starting a reader on a steady stream
 *          costs (spawn to first packet), part of each figure and printed beside it. Measured
 *          twice: with each pipeline process forked when needed, and with a spare started ahead
 *          (session/pipeline-processes.ts, as the worker runs).
 * BENCH_ONLY=edits,leak,replace runs only the parts named (edits and leak by default); BENCH_KINDS=camera,vertical
 * only the changes whose names hold one of these words; BENCH_REPEAT (3) and BENCH_CYCLES (200);
 * BENCH_LEAK_INPUTS=camera,page (both by default) the inputs the leak part cycles (also 'video':
 * the camera's picture alone, 'mic': its sound alone); BENCH_LEAK_HOLD (250) ms each is kept in, and out;
 * BENCH_LOG=text also prints the pipeline's log lines holding it (e.g. "inputs changed live").
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Registry } from 'prom-client';
import { freePort, startRedisServer, startRtmpServer, waitFor, type RunningRtmpServer } from '@onair/embedded';
import { outputProfiles, renderPlanSchema, type PlanInput, type PlanOutput, type PlanPlacementInput, type RenderPlan } from '@onair/protocol';
import { SCREEN_PICTURES } from '../src/placement/screens.ts';
import { SessionHost } from '../src/session/session-host.ts';
import type { SessionSupervisor } from '../src/session/session-supervisor.ts';
import { readVideoPackets } from '../test/helpers/output-reader.ts';
import { cpuSeconds, loadAverage } from './proc-cpu.ts';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 200);
const LEAK_HOLD_MS = Number(process.env.BENCH_LEAK_HOLD ?? 250);
const LEAK_INPUTS = new Set((process.env.BENCH_LEAK_INPUTS ?? 'camera,page').split(','));
const AROUND_MS = 1500;
const REPLACE_AROUND_MS = 8000;
const CPU_WINDOW_MS = 2000;
const PLACEHOLDER = join(import.meta.dirname, '..', 'assets', 'placeholder-camera.png');
const profile = outputProfiles['720p30'];
const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Packet {
  ts: number;
  at: number;
}

interface Session {
  host: SessionHost;
  server: RunningRtmpServer;
  supervisor: SessionSupervisor;
  id: string;
  outputs: PlanOutput[];
  version: number;
  packets: Packet[];
  /** What runs beside it (the reader, the senders), stopped with it. */
  stops: (() => void)[];
}

const base: PlanInput = { id: 'camera0', kind: 'test-pattern', pattern: 'ball', color: 0xffffff, width: profile.width, height: profile.height, toneHz: 440 };

function plan(extra: PlanInput[], outputs: PlanOutput[], options: { sceneId?: string; moved?: boolean; bitrateKbps?: number } = {}): RenderPlan {
  const placements: PlanPlacementInput[] = [
    { inputId: base.id, x: 0, y: 0, width: profile.width, height: profile.height, zorder: 0, visible: true, alpha: 1 },
    ...extra.map((input, i) => ({
      inputId: input.id,
      x: options.moved ? 640 : 40 + i * 20,
      y: 40,
      width: 480,
      height: 270,
      zorder: 1 + i,
      visible: true,
      alpha: 1,
    })),
  ];
  return renderPlanSchema.parse({
    profile: options.bitrateKbps ? { ...profile, videoBitrateKbps: options.bitrateKbps } : profile,
    inputs: [base, ...extra],
    scenes: [
      { id: 'main', placements },
      { id: 'other', placements: [placements[0]!] },
    ],
    activeSceneId: options.sceneId ?? 'main',
    audio: [{ inputId: base.id, volume: 1 }],
    outputs,
    vertical: {
      width: 720,
      height: 1280,
      scenes: [
        { id: 'main', placements: [{ inputId: base.id, x: 0, y: 0, width: 720, height: 405, zorder: 0, visible: true, alpha: 1 }] },
        { id: 'other', placements: [] },
      ],
    },
  });
}

function gstSender(description: string): ChildProcess {
  return spawn('gst-launch-1.0', ['-q', ...description.split(' ')], { stdio: 'ignore' });
}

/** A camera (VP8 + Opus, as a browser sends) and a web page (H.264 with a green key, as a render worker sends), with their senders. */
async function liveInputs(session: Session): Promise<{ camera: PlanInput; page: PlanInput }> {
  const [vp8, audio, h264] = [await freePort(), await freePort(), await freePort()];
  const senders = [
    gstSender(
      `videotestsrc is-live=true pattern=smpte ! video/x-raw,width=640,height=360,framerate=30/1 ! vp8enc deadline=1 keyframe-max-dist=30 ! rtpvp8pay pt=96 ! udpsink host=127.0.0.1 port=${vp8} ` +
        `audiotestsrc is-live=true wave=sine ! audioconvert ! opusenc ! rtpopuspay pt=111 ! udpsink host=127.0.0.1 port=${audio}`,
    ),
    gstSender(
      `videotestsrc is-live=true pattern=ball ! video/x-raw,width=640,height=360,framerate=30/1 ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=30 ! video/x-h264,profile=constrained-baseline ! rtph264pay pt=102 config-interval=-1 ! udpsink host=127.0.0.1 port=${h264}`,
    ),
  ];
  session.stops.push(...senders.map((sender) => () => sender.kill('SIGKILL')));
  return {
    camera: {
      id: 'camera',
      kind: 'rtp',
      video: { codecs: [{ encoding: 'VP8', port: vp8, payloadType: 96 }], placeholder: PLACEHOLDER },
      audio: { port: audio, encoding: 'OPUS', payloadType: 111 },
    },
    page: { id: 'page', kind: 'rtp', video: { codecs: [{ encoding: 'H264', port: h264, payloadType: 102 }], keyColor: 'green', placeholder: PLACEHOLDER } },
  };
}

async function startSession(host: SessionHost, server: RunningRtmpServer, id: string, options: { follow?: boolean } = {}): Promise<Session> {
  const outputs: PlanOutput[] = [{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key: id, allowPrivate: true }];
  const supervisor = host.startSession({ sessionId: id, planVersion: 1, plan: plan([], outputs) });
  await waitFor(`${id} live`, async () => (supervisor.stats?.outputs.some((o) => o.state === 'live') ? true : undefined), 60_000);
  const session: Session = { host, server, supervisor, id, outputs, version: 1, packets: [], stops: [] };
  running.push(session);
  session.stops.push(readVideoPackets(server.url(id), (ts, at) => session.packets.push({ ts, at }), { follow: options.follow }));
  await waitFor('the reader', async () => (session.packets.length > 60 ? true : undefined), 20_000);
  return session;
}

function longestGap(values: number[]): number {
  return values.slice(1).reduce((gap, v, i) => Math.max(gap, Math.abs(v - values[i]!)), 0);
}

interface EditFigures {
  streamGap: number;
  arrivalGap: number;
  dropped: number;
  cores: number;
}

/** One change: applied, then its window read; CPU of the pipeline process over the 2 s after it. */
async function measureChange(session: Session, apply: () => void): Promise<EditFigures> {
  const pid = session.supervisor.pid!;
  const dropped0 = session.supervisor.stats?.droppedFrames ?? 0;
  const cpu0 = await cpuSeconds(pid);
  const t0 = performance.now();
  apply();
  await sleep(CPU_WINDOW_MS);
  const cores = ((await cpuSeconds(pid)) - cpu0) / ((performance.now() - t0) / 1000);
  await sleep(Math.max(0, AROUND_MS - CPU_WINDOW_MS) + 1200);
  const window = session.packets.filter((p) => p.at >= t0 - AROUND_MS && p.at <= t0 + AROUND_MS);
  return {
    streamGap: longestGap(window.map((p) => p.ts)),
    arrivalGap: longestGap(window.map((p) => p.at)),
    dropped: (session.supervisor.stats?.droppedFrames ?? 0) - dropped0,
    cores,
  };
}

async function edits(host: SessionHost, server: RunningRtmpServer, dir: string): Promise<void> {
  const session = await startSession(host, server, 'edits');
  const clip = join(dir, 'clip.mp4');
  execFileSync('ffmpeg', [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=s=640x360:r=30:d=4',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=660:sample_rate=48000:d=4',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    clip,
  ]);
  const { camera, page } = await liveInputs(session);
  const vertical: PlanOutput = { id: 'tall', url: `rtmp://127.0.0.1:${server.port}/live`, key: 'edits-tall', canvas: 'vertical', allowPrivate: true };
  const apply =
    (extra: PlanInput[], options: { sceneId?: string; moved?: boolean } = {}) =>
    () =>
      session.host.applyPlan(session.id, ++session.version, plan(extra, session.outputs, options));
  const kinds: [string, () => void, () => void][] = [
    ['image (Be Right Back screen)', apply([{ id: 'brb', kind: 'image', path: SCREEN_PICTURES.brb.path }]), apply([])],
    [
      'test pattern with a tone',
      apply([{ id: 'tone', kind: 'test-pattern', pattern: 'smpte', color: 0xffffff, width: 320, height: 180, toneHz: 880 }]),
      apply([]),
    ],
    ['camera + microphone (VP8 + Opus)', apply([camera]), apply([])],
    ['web page (H.264, green key)', apply([page]), apply([])],
    ['video file', apply([{ id: 'clip', kind: 'video-file', path: clip, loop: true, restartOnShow: false }]), apply([])],
    ['vertical canvas', () => session.host.setOutputs(session.id, [...session.outputs, vertical]), () => session.host.setOutputs(session.id, session.outputs)],
    ['scene switch', apply([], { sceneId: 'other' }), apply([], { sceneId: 'main' })],
    ['layer move', apply([camera], { moved: true }), apply([camera])],
  ];
  // The process's CPU with nothing changing, in the same run: the ratio's baseline.
  const quiet: number[] = [];
  for (let i = 0; i < 3; i++) quiet.push((await measureChange(session, () => undefined)).cores);
  const baseline = quiet.reduce((a, b) => a + b, 0) / quiet.length;
  print(
    `load average ${await loadAverage()}; pipeline process ${baseline.toFixed(2)} cores with no change (720p30, 1 destination, camera test pattern + tone)`,
  );
  print(
    `${'change'.padEnd(44)} ${'stream gap'.padStart(11)} ${'arrival gap'.padStart(12)} ${'dropped'.padStart(8)} ${'CPU ×'.padStart(6)}   (worst of ${REPEAT}; gaps in ms within ${AROUND_MS} ms)`,
  );
  const only = process.env.BENCH_KINDS?.split(',');
  for (const [name, add, remove] of kinds.filter(([name]) => !only || only.some((k) => name.includes(k)))) {
    if (name === 'layer move') apply([camera])();
    for (const [what, change] of [
      ['added', add],
      ['removed', remove],
    ] as const) {
      const runs: EditFigures[] = [];
      // The added runs leave it added, for the removed runs.
      for (let i = 0; i < REPEAT; i++) {
        runs.push(await measureChange(session, change));
        // Back to where the next run starts from.
        if (i < REPEAT - 1) await measureChange(session, what === 'added' ? remove : add);
      }
      const worst = (key: keyof EditFigures) => Math.max(...runs.map((r) => r[key]));
      const label =
        name === 'vertical canvas'
          ? what === 'added'
            ? 'attached'
            : 'detached'
          : name === 'scene switch'
            ? what === 'added'
              ? 'to another'
              : 'back'
            : name === 'layer move'
              ? what === 'added'
                ? 'moved'
                : 'back'
              : what;
      print(
        `${`${name} ${label}`.padEnd(44)} ${worst('streamGap').toFixed(0).padStart(11)} ${worst('arrivalGap').toFixed(0).padStart(12)} ${worst('dropped').toFixed(0).padStart(8)} ${(worst('cores') / baseline).toFixed(2).padStart(6)}`,
      );
    }
  }
  await stopSession(session);
}

/** RSS split as the kernel counts it: anonymous (heaps: jemalloc's, V8's, GStreamer's pools) and file-backed (libraries' pages). */
function processFigures(pid: number): { rssMb: number; anonMb: number; fileMb: number; threads: number; fds: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return {
    rssMb: field('VmRSS') / 1024,
    anonMb: field('RssAnon') / 1024,
    fileMb: field('RssFile') / 1024,
    threads: field('Threads'),
    fds: readdirSync(`/proc/${pid}/fd`).length,
  };
}

async function leak(host: SessionHost, server: RunningRtmpServer): Promise<void> {
  const session = await startSession(host, server, 'leak');
  const { camera, page } = await liveInputs(session);
  const pid = session.supervisor.pid!;
  let first: ReturnType<typeof processFigures> | undefined;
  const kinds: Record<string, PlanInput> = {
    camera,
    page,
    video: { ...camera, id: 'video', audio: undefined } as PlanInput,
    mic: { ...camera, id: 'mic', video: undefined } as PlanInput,
  };
  const cycled = [...LEAK_INPUTS].map((kind) => kinds[kind]!);
  print(`${CYCLES} attach/detach cycles of ${[...LEAK_INPUTS].join(' and ')}, live at 720p30 (pipeline process ${pid})`);
  print(
    `${'cycle'.padStart(6)} ${'RSS MB'.padStart(8)} ${'Δ MB'.padStart(7)} ${'Δ anon'.padStart(7)} ${'Δ file'.padStart(7)} ${'threads'.padStart(8)} ${'fds'.padStart(5)}`,
  );
  for (let cycle = 1; cycle <= CYCLES; cycle++) {
    session.host.applyPlan(session.id, ++session.version, plan(cycled, session.outputs));
    await sleep(LEAK_HOLD_MS);
    session.host.applyPlan(session.id, ++session.version, plan([], session.outputs));
    await sleep(LEAK_HOLD_MS);
    if (cycle === 1 || cycle % 20 === 0) {
      // The plan is applied once the process says so; inputs removed young are released once
      // settled (inputs/input-set.ts, at most 3 s), and their wrappers collected a second after.
      await waitFor('the cycle applied', async () => (session.supervisor.stats?.planVersion === session.version ? true : undefined), 10_000, 20);
      await sleep(4500);
      const now = processFigures(pid);
      first ??= now;
      const delta = (key: 'rssMb' | 'anonMb' | 'fileMb') => (now[key] - first![key]).toFixed(1).padStart(7);
      print(
        `${String(cycle).padStart(6)} ${now.rssMb.toFixed(1).padStart(8)} ${delta('rssMb')} ${delta('anonMb')} ${delta('fileMb')} ${String(now.threads).padStart(8)} ${String(now.fds).padStart(5)}`,
      );
    }
  }
  print(`after ${CYCLES} cycles: same process ${session.supervisor.pid === pid ? 'yes' : 'NO'}, restarts ${session.supervisor.restarts}`);
  await stopSession(session);
}

/**
 * The two changes that still replace the pipeline process: a new output profile (here a new
 * bitrate) and a crash (killed with -9, started again by the supervisor). Each is preceded by the
 * baseline: a second reader started on the steady stream, spawn to its first packet.
 */
async function replacements(host: SessionHost, server: RunningRtmpServer, label: string): Promise<void> {
  const session = await startSession(host, server, `replace-${label.replace(/\W+/g, '-')}`, { follow: true });
  const readerStart = async (): Promise<number> => {
    const began = performance.now();
    let first: number | undefined;
    const stop = readVideoPackets(server.url(session.id), (_ts, at) => (first ??= at));
    try {
      await waitFor('a reader on the steady stream', async () => (first !== undefined ? true : undefined), 20_000, 5);
    } finally {
      stop();
    }
    return first! - began;
  };
  const windowed = async (apply: () => void): Promise<{ arrivalGap: number; restarts: number }> => {
    const t0 = performance.now();
    apply();
    await sleep(REPLACE_AROUND_MS);
    await waitFor('the session live again', async () => (session.supervisor.stats?.outputs.some((o) => o.state === 'live') ? true : undefined), 30_000);
    const window = session.packets.filter((p) => p.at >= t0 - 1000 && p.at <= t0 + REPLACE_AROUND_MS);
    return { arrivalGap: longestGap(window.map((p) => p.at)), restarts: session.supervisor.restarts };
  };
  print(
    `${`pipeline process replaced (${label}) by`.padEnd(44)} ${'arrival gap'.padStart(12)} ${'reader start'.padStart(13)}   (each of ${REPEAT}; ms within ${REPLACE_AROUND_MS} ms; the gap includes the reader's start)`,
  );
  for (let i = 0; i < REPEAT; i++) {
    const baseline = await readerStart();
    const bitrateKbps = i % 2 === 0 ? profile.videoBitrateKbps - 500 : profile.videoBitrateKbps;
    const r = await windowed(() => session.host.applyPlan(session.id, ++session.version, plan([], session.outputs, { bitrateKbps })));
    print(`${'a new output profile'.padEnd(44)} ${r.arrivalGap.toFixed(0).padStart(12)} ${baseline.toFixed(0).padStart(13)}`);
  }
  for (let i = 0; i < REPEAT; i++) {
    const baseline = await readerStart();
    const pid = session.supervisor.pid!;
    const r = await windowed(() => process.kill(pid, 'SIGKILL'));
    print(
      `${'a crash (kill -9, started again)'.padEnd(44)} ${r.arrivalGap.toFixed(0).padStart(12)} ${baseline.toFixed(0).padStart(13)}   restarts so far ${r.restarts}`,
    );
  }
  await stopSession(session);
}

async function stopSession(session: Session): Promise<void> {
  for (const stop of session.stops) stop();
  await session.host.stopSession(session.id);
}

/** Sessions of this run, so that what they started (readers, senders) is stopped even when a part fails. */
const running: Session[] = [];

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'onair-bench-'));
  const redisService = await startRedisServer(join(dir, 'redis'), await freePort());
  const redis = new Redis(redisService.url, { maxRetriesPerRequest: null });
  const server = await startRtmpServer({ dir: join(dir, 'nginx') });
  const host = new SessionHost({
    logger: pino({ level: 'warn' }),
    redis,
    metrics: new Registry(),
    supervisor: {
      onLogLine: (line) =>
        (/"level":(40|50|60)/.test(line) || (process.env.BENCH_LOG !== undefined && line.includes(process.env.BENCH_LOG))) &&
        print(`  pipeline: ${line.slice(0, 300)}`),
    },
    onReport: (_id, report) => report.type === 'error' && print(`  pipeline error: ${report.code} ${report.message}`),
  });
  try {
    const only = new Set((process.env.BENCH_ONLY ?? 'edits,leak').split(','));
    if (only.has('edits')) await edits(host, server, dir);
    if (only.has('leak')) await leak(host, server);
    if (only.has('replace')) {
      // The same changes on a host that forks each pipeline process when it needs one, then on one
      // that keeps a spare started ahead (as the worker does).
      await replacements(host, server, 'fork on demand');
      const spareHost = new SessionHost({ logger: pino({ level: 'warn' }), redis, metrics: new Registry(), spare: true });
      try {
        await sleep(3000);
        await replacements(spareHost, server, 'spare process');
      } finally {
        await spareHost.stopAll();
      }
    }
  } finally {
    for (const session of running) for (const stop of session.stops) stop();
    await host.stopAll();
    await server.stop();
    redis.disconnect();
    await redisService.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
