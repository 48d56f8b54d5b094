// `./onair start` (embedded/src/main.ts) as a process of its own, with a studio session open: every
// process of the stack (PostgreSQL and its backends, Redis, both nginx, the api, the workers, the
// session's pipeline process and, where an encoder publishes to the project's ingest, the media
// worker's ffmpeg relay) is listed from /proc, and after each way the stack can end none of them is
// left: Ctrl-C after its media worker was killed with -9 and restarted by the stack, SIGTERM, and
// the stack itself killed with -9.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_APPLICATION, type IngestView } from '@onair/protocol';
import {
  descendantsOf,
  describeProcesses,
  killProcesses,
  leftoverProcesses,
  readProcessTable,
  stillRunning,
  waitForNoProcesses,
  type ProcessEntry,
} from '@onair/runtime/testkit';
import { freePort, waitFor } from '../src/ports.ts';
import { repoRoot } from '../src/stack.ts';
import { StackClient } from '../src/stack-client.ts';

const MEDIA_WORKER_ENTRY = join(repoRoot, 'media-worker/src/main.ts');
const PIPELINE_ENTRY = 'pipeline-process.ts';

let dataDir = '';
/** Everything any test here saw running, killed at the end whatever happened. */
const seen: ProcessEntry[] = [];
const stacks: ChildProcess[] = [];
/** The encoders publishing to a stack's ingest (the test's own processes, not the stack's). */
const encoders: ChildProcess[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'onair-shutdown-'));
});

// Each test's stack is gone before the next starts on the same data folder, whatever happened.
afterEach(async () => {
  for (const s of [...stacks.splice(0), ...encoders.splice(0)]) if (s.exitCode === null && s.signalCode === null) s.kill('SIGKILL');
  const left = [...seen.splice(0), ...leftoverProcesses({ mentioning: [dataDir] })];
  killProcesses(left);
  await waitForNoProcesses(() => stillRunning(left), 5000);
});

afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface RunningOnair {
  child: ChildProcess;
  url: string;
  ingestPort: number;
  output: string[];
  exited: Promise<number | null>;
}

/** Starts `./onair start` on free ports over this file's data folder and waits until it says it is ready. */
async function startOnair(): Promise<RunningOnair> {
  const port = await freePort();
  const ingestPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ONAIR_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    EMBEDDED_POSTGRES_PORT: String(await freePort()),
    EMBEDDED_REDIS_PORT: String(await freePort()),
    EMBEDDED_RTMP_PORT: String(await freePort()),
    EMBEDDED_INGEST_PORT: String(ingestPort),
    EMBEDDED_INGEST_HOST: '127.0.0.1',
    // A session with nobody in it stays open for the whole test.
    SESSION_IDLE_MS: '600000',
  };
  // The stack's own stores, not the test run's.
  delete env.REDIS_URL;
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'embedded/src/main.ts')], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  stacks.push(child);
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (l) => output.push(l));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitFor(
    './onair start to be ready',
    async () => {
      if (child.exitCode !== null) throw new Error(`./onair start exited (${child.exitCode}): ${output.join('\n')}`);
      return output.some((l) => l.startsWith('OnAir is ready')) ? true : undefined;
    },
    120_000,
    200,
  );
  return { child, url: `http://127.0.0.1:${port}`, ingestPort, output, exited };
}

/** Every process of the stack: below its main process, or naming its data folder. */
function stackProcesses(onair: RunningOnair): ProcessEntry[] {
  const found = leftoverProcesses({ descendantsOf: [onair.child.pid!], mentioning: [dataDir] });
  seen.push(...found);
  return found;
}

const mediaWorkerOf = (entries: ProcessEntry[]) => entries.find((e) => e.argv.includes(MEDIA_WORKER_ENTRY));

/**
 * Signs in, makes a project and opens its studio session, as the studio does; with `encoder`, an
 * ffmpeg publishes a test stream to the project's ingest with its key, as OBS would.
 */
async function openSession(onair: RunningOnair, options: { encoder?: boolean } = {}): Promise<void> {
  const client = new StackClient(onair.url);
  await client.signIn(`shutdown-${Date.now()}@example.test`);
  const { id } = await client.must<{ id: string }>('POST', '/api/v1/projects', { name: 'Shutdown' });
  await client.must('POST', `/api/v1/projects/${id}/session`);
  if (!options.encoder) return;
  const { streamKey } = await client.must<IngestView>('GET', `/api/v1/projects/${id}/ingest`);
  // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
  encoders.push(spawn('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-re',
    '-f', 'lavfi', '-i', 'color=c=green:s=640x360:r=30', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '30', '-bf', '0', '-pix_fmt', 'yuv420p', '-c:a', 'aac',
    '-f', 'flv', `rtmp://127.0.0.1:${onair.ingestPort}/${INGEST_APPLICATION}/${streamKey}`,
  ], { stdio: 'ignore' }));
}

/** The media worker of the stack once it runs the session's pipeline process (and, with `relay`, pulls the ingest feed). */
async function workerWithPipeline(
  onair: RunningOnair,
  options: { notPid?: number; relay?: boolean } = {},
): Promise<{ worker: ProcessEntry; pipelines: ProcessEntry[]; relays: ProcessEntry[] }> {
  return waitFor(
    `the media worker to run the session pipeline${options.relay ? ' and its ingest relay' : ''}`,
    async () => {
      const all = stackProcesses(onair);
      const worker = mediaWorkerOf(all);
      if (!worker || worker.pid === options.notPid) return undefined;
      const below = descendantsOf(all, [worker.pid]);
      const pipelines = below.filter((e) => e.argv.some((a) => a.endsWith(PIPELINE_ENTRY)));
      const relays = below.filter((e) => e.argv[0] === 'ffmpeg' && e.argv.some((a) => a.startsWith(`rtmp://127.0.0.1:${onair.ingestPort}/`)));
      return pipelines.length > 0 && (!options.relay || relays.length > 0) ? { worker, pipelines, relays } : undefined;
    },
    60_000,
    200,
  );
}

/** `./onair start` with a studio session whose pipeline runs, and every process of it then. */
async function stackWithSession(): Promise<{ onair: RunningOnair; before: ProcessEntry[] }> {
  const onair = await startOnair();
  await openSession(onair);
  await workerWithPipeline(onair);
  return { onair, before: stackProcesses(onair) };
}

/**
 * Sends `signal` to the stack, waits for it to end, and then up to `waitMs` for `before` (and
 * anything naming its data folder) to be gone; says what is left.
 */
async function endStack(
  onair: RunningOnair,
  before: ProcessEntry[],
  signal: NodeJS.Signals,
  waitMs = 2000,
): Promise<{ code: number | null; left: ProcessEntry[]; ms: number }> {
  onair.child.kill(signal);
  const code = await onair.exited;
  const { left, ms } = await waitForNoProcesses(() => [...stillRunning(before), ...leftoverProcesses({ mentioning: [dataDir] })], waitMs);
  return { code, left, ms };
}

/** For each process: its state and, per thread, the kernel function it sleeps in (what a stop that never ends waits on). */
function whereWaiting(entries: readonly ProcessEntry[]): string {
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8').trim();
    } catch {
      return '?';
    }
  };
  return entries
    .map((e) => {
      const state = /State:\s+(.*)/.exec(read(`/proc/${e.pid}/status`))?.[1] ?? 'gone';
      let threads: string[] = [];
      try {
        threads = readdirSync(`/proc/${e.pid}/task`).map((t) => `${read(`/proc/${e.pid}/task/${t}/comm`)}:${read(`/proc/${e.pid}/task/${t}/wchan`)}`);
      } catch {
        // gone meanwhile
      }
      return `${e.pid} ${state} ${e.argv.slice(0, 4).join(' ')}\n  threads: ${threads.join(' ')}`;
    })
    .join('\n');
}

// Three whole stacks one after the other: under a loaded machine a test took 59 s (14 s when quiet).
describe('./onair start', { timeout: 240_000 }, () => {
  it('leaves no process behind on Ctrl-C, after its media worker was killed with -9 and restarted', async () => {
    const onair = await startOnair();
    await openSession(onair, { encoder: true });
    const first = await workerWithPipeline(onair, { relay: true });
    const killed = descendantsOf(readProcessTable(), [first.worker.pid]);
    expect(killed.map((e) => e.pid)).toEqual(expect.arrayContaining([...first.pipelines, ...first.relays].map((e) => e.pid)));

    process.kill(first.worker.pid, 'SIGKILL');
    const gone = await waitForNoProcesses(() => stillRunning(killed), 2000);
    console.warn(`stack: media worker kill -9, its ${killed.length} processes (the worker, its pipeline and ingest relay) gone after ${gone.ms} ms`);
    expect(describeProcesses(gone.left)).toBe('');

    // The stack starts the worker again, and the session and its feed come back on it.
    const second = await workerWithPipeline(onair, { notPid: first.worker.pid, relay: true });
    expect(onair.output.some((l) => l.includes('media-worker exited (code null, signal SIGKILL); restarting'))).toBe(true);

    const before = stackProcesses(onair);
    expect(before.map((e) => e.pid)).toEqual(expect.arrayContaining([second.worker, ...second.pipelines, ...second.relays].map((e) => e.pid)));
    const { code, left, ms } = await endStack(onair, before, 'SIGINT');
    console.warn(`stack: Ctrl-C stopped ${before.length} processes; left after it exited: ${left.length} (checked for ${ms} ms)`);
    expect(code).toBe(0);
    expect(describeProcesses(left), `still running:\n${describeProcesses(left)}`).toBe('');
  });

  it('leaves no process behind on SIGTERM', async () => {
    const { onair, before } = await stackWithSession();
    const { code, left } = await endStack(onair, before, 'SIGTERM');
    expect(code).toBe(0);
    expect(describeProcesses(left), `still running:\n${describeProcesses(left)}`).toBe('');
  });

  it('leaves no process behind when it is killed with -9 itself: every process it started ends on its own', async () => {
    const { onair, before } = await stackWithSession();
    // They stop as on SIGTERM (the workers drain their 2 s, PostgreSQL checkpoints), each by its own
    // shutdown deadline at the latest (30 s for the api, DRAIN_GRACE_MS + 30 s for a worker): the
    // 40 s lie past every deadline, so only a process that would never end fails; the time is printed.
    // (Until 2026-11-29 a stop sometimes waited out its deadline, 30 s instead of the usual 0.2–3 s:
    // a process logging its shutdown with the stack's end of its stdout gone hung in pino's exit
    // flush, which retried the EPIPE for ever; runtime/src/logger.ts now writes synchronously.)
    // Meanwhile, what lingers past 3 s is described once (where its threads wait), and each
    // process's end is timed, so a slow stop names its process.
    const ends = new Map<number, number>();
    let described = '';
    const started = performance.now();
    const watch = setInterval(() => {
      const alive = new Set(stillRunning(before).map((e) => e.pid));
      const at = Math.round(performance.now() - started);
      for (const e of before) if (!alive.has(e.pid) && !ends.has(e.pid)) ends.set(e.pid, at);
      if (!described && at > 3000 && alive.size > 0) described = whereWaiting(before.filter((e) => alive.has(e.pid)));
    }, 25);
    const { left, ms } = await endStack(onair, before, 'SIGKILL', 40_000).finally(() => clearInterval(watch));
    const slowest = [...ends].sort((a, b) => b[1] - a[1]).slice(0, 3);
    const nameOf = (pid: number) =>
      before
        .find((e) => e.pid === pid)
        ?.argv.slice(0, 4)
        .join(' ') ?? '?';
    console.warn(
      `stack kill -9: its ${before.length} processes ended on their own within ${ms} ms; last: ${slowest.map(([pid, at]) => `${nameOf(pid)} (${at} ms)`).join(', ')}` +
        (described ? `\nstill running 3 s after the kill:\n${described}` : ''),
    );
    // What the stack's processes said last (its output up to the kill: they cannot write after it).
    if (left.length > 0) console.warn(`the stack's last lines:\n${onair.output.slice(-80).join('\n')}\nwhere what is left waits:\n${whereWaiting(left)}`);
    expect(describeProcesses(left), `still running:\n${describeProcesses(left)}`).toBe('');
  });
});
