// Fleet acceptance on real processes: two media workers take sessions from the real BullMQ queue
// on the real Redis and push to a real nginx-rtmp destination. A worker killed with -9 loses its
// session to the other worker, which goes live again with the same scene; a worker told to stop
// (SIGTERM) keeps its live session while taking no new one. A worker refuses a session its
// admission model has no room for, and another takes it. A job that breaks the queue's contract
// fails without stopping the worker.
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRtmpServer, waitFor, type RunningRtmpServer } from '@onair/embedded';
import { isolatedRedisUrl } from '@onair/embedded/test-services';
import {
  canAdmit,
  DECODED_SOURCE_CORES,
  newProjectDocument,
  sceneToRenderPlan,
  SESSION_BASE_CORES,
  sessionCost,
  sessionKeys,
  queues,
  workerHeartbeatSchema,
  workerRegistryKeys,
  type SceneDocument,
  type SessionOwner,
} from '@onair/protocol';
import { SecretBox } from '@onair/runtime';
import { startWorkerProcess, type WorkerUnderTest } from '@onair/runtime/testkit';
import { createInputResolver } from '../src/placement/input-resolver.ts';
import { grabFrame, near, pixel, probeStream, type Frame } from './helpers/stream-probe.ts';
import { secretKey } from './helpers/session-fixture.ts';
import { killWorkers, queueSession, readOwner } from './helpers/placement-fixture.ts';

const workerRoot = fileURLToPath(new URL('..', import.meta.url));
const WIDTH = 854;
const HEIGHT = 480;
const LOGO_RED = [255, 59, 92];

// Its own Redis database: other suites' queues and keys on the shared test Redis stay out of sight.
/** A database of this file's own: other files' workers run beside these. */
let redisUrl = '';

function projectDocument(): SceneDocument {
  return newProjectDocument({
    projectId: randomUUID(),
    sceneId: randomUUID(),
    watermarkSourceId: randomUUID(),
    watermarkLayerId: randomUUID(),
    resolution: '480p',
  });
}

/** The program shows the scene: the logo's red dot inside the watermark's box, black elsewhere. */
function showsScene(frame: Frame, doc: SceneDocument): boolean {
  const box = sceneToRenderPlan(doc, createInputResolver(), []).scenes[0]!.placements[0]!;
  let red = false;
  for (let y = box.y; y < box.y + box.height && !red; y += 1) {
    for (let x = box.x; x < box.x + box.width && !red; x += 1) red = near(pixel(frame, x, y), LOGO_RED, 60);
  }
  return red && near(pixel(frame, WIDTH - 40, HEIGHT - 40), [0, 0, 0], 30);
}

/** Codecs and seconds of a recording's part as ffprobe reads it. */
async function recordedPart(file: string): Promise<{ codecs: string[]; duration: number }> {
  const { stdout } = await promisify(execFile)('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file]);
  const json = JSON.parse(stdout) as { streams: { codec_name: string }[]; format: { duration?: string } };
  return { codecs: json.streams.map((s) => s.codec_name).sort(), duration: Number(json.format.duration) };
}

describe('session placement across media workers', () => {
  let redis: Redis;
  let queue: Queue;
  let box: SecretBox;
  let dir: string;
  let rtmp: RunningRtmpServer;
  const workers: WorkerUnderTest[] = [];

  beforeAll(async () => {
    redisUrl = await isolatedRedisUrl();
    redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    queue = new Queue(queues.sessions.name, { connection: redis });
    const key = SecretBox.generateKey();
    box = new SecretBox(key);
    process.env.SECRETS_KEY = key;
    process.env.WORKER_CORES = '2';
    dir = await mkdtemp(join(tmpdir(), 'onair-placement-'));
    // The uploads store both workers share, as on one machine: recordings are written there.
    process.env.UPLOADS_DIR = join(dir, 'uploads');
    rtmp = await startRtmpServer({ dir: join(dir, 'nginx') });
  });

  afterAll(async () => {
    if (process.env.PLACEMENT_DEBUG) for (const w of workers) process.stdout.write(`--- ${w.id}\n${w.output.join('')}\n`);
    killWorkers(workers);
    await rtmp?.stop();
    await queue?.close();
    await redis?.flushdb();
    redis?.disconnect();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function startWorker(env: Record<string, string> = {}): Promise<WorkerUnderTest> {
    Object.assign(process.env, env);
    const worker = startWorkerProcess('media', 'src/main.ts', workerRoot, redisUrl);
    workers.push(worker);
    await worker.waitForRegistration();
    return worker;
  }

  /** Stores the project's document and live outputs as the api does, and queues its session. */
  async function openLiveSession(doc: SceneDocument, streamKey: string): Promise<void> {
    await queueSession(queue, redis, doc, { box, outputs: [{ id: 'local', url: `rtmp://127.0.0.1:${rtmp.port}/${rtmp.application}`, key: streamKey }] });
  }

  const owner = (projectId: string): Promise<SessionOwner | undefined> => readOwner(redis, projectId);

  it('picks a session killed with -9 up on the other worker, live again with the same scene, recording on as part 2', async () => {
    const a = await startWorker({ DRAIN_GRACE_MS: '60000' });
    const b = await startWorker({ DRAIN_GRACE_MS: '60000' });
    const doc = projectDocument();
    const streamKey = secretKey();
    // The broadcast is recorded (Go Live with `record`): the api names the recording as it names the outputs.
    const recordingId = randomUUID();
    const part = (n: number) => join(dir, 'uploads', 'recordings', recordingId, `part-${n}.mp4`);
    await redis.set(sessionKeys.recording(doc.projectId), recordingId);
    const requested = Date.now();
    await openLiveSession(doc, streamKey);

    const first = await waitFor('the session to be placed', () => owner(doc.projectId), 20_000, 50);
    const placementMs = Date.now() - requested;
    expect([a.id, b.id]).toContain(first.workerId);
    const format = await waitFor('the destination to receive the stream', () => probeStream(rtmp.url(streamKey)), 30_000, 250);
    expect(format.video).toMatchObject({ codec: 'h264', width: WIDTH, height: HEIGHT });
    expect(showsScene(await grabFrame(rtmp.url(streamKey), WIDTH, HEIGHT, 5), doc)).toBe(true);

    const [victim, survivor] = first.workerId === a.id ? [a, b] : [b, a];
    await waitFor(
      'the first part of the recording to hold a few fragments',
      async () => (existsSync(part(1)) && statSync(part(1)).size > 100_000 ? true : undefined),
      20_000,
      200,
    );
    const killedAt = Date.now();
    victim.child.kill('SIGKILL');

    const second = await waitFor(
      'another worker to pick the session up',
      async () => {
        const o = await owner(doc.projectId);
        return o && o.workerId === survivor.id ? o : undefined;
      },
      30_000,
      100,
    );
    const pickedUpMs = Date.now() - killedAt;
    await waitFor('the destination to receive the stream again', () => probeStream(rtmp.url(streamKey), 8000), 30_000, 200);
    const liveAgainMs = Date.now() - killedAt;
    const frame = await grabFrame(rtmp.url(streamKey), WIDTH, HEIGHT, 5);

    // The scene state is intact: same document version in Redis, applied by the new owner, drawn in the program.
    const stored = await redis.hgetall(sessionKeys.document(doc.projectId));
    expect(JSON.parse(stored.document!)).toEqual(doc);
    expect(second.appliedVersion).toBe(doc.version);
    expect(second.pickups).toBeGreaterThanOrEqual(1);
    expect(showsScene(frame, doc)).toBe(true);
    // One recording, in numbered parts: what the killed worker wrote is readable, the new owner writes the next part.
    await waitFor('the second part of the recording', async () => (existsSync(part(2)) && statSync(part(2)).size > 0 ? true : undefined), 20_000, 200);
    const firstPart = await recordedPart(part(1));
    expect(firstPart.codecs).toEqual(['aac', 'h264']);
    expect(firstPart.duration).toBeGreaterThan(0.5);
    const failovers = await redis.lrange(sessionKeys.failovers, 0, -1);
    expect(failovers.map((f) => JSON.parse(f) as { projectId: string; fromWorkerId: string; toWorkerId: string })).toContainEqual(
      expect.objectContaining({ projectId: doc.projectId, fromWorkerId: victim.id, toWorkerId: survivor.id }),
    );
    process.stdout.write(`placement: ${placementMs} ms to place; failover: picked up ${pickedUpMs} ms and live again ${liveAgainMs} ms after kill -9\n`);

    await redis.publish(sessionKeys.commands(doc.projectId), JSON.stringify({ type: 'stop' }));
    await waitFor('the session to end', async () => ((await owner(doc.projectId)) ? undefined : true), 20_000, 100);
    expect((await survivor.stop()).code).toBe(0);
  });

  it('keeps a live session on a worker told to stop, and places new sessions elsewhere', async () => {
    const draining = await startWorker({ DRAIN_GRACE_MS: '120000' });
    const live = projectDocument();
    const liveKey = secretKey();
    await openLiveSession(live, liveKey);
    await waitFor('the session on the first worker', () => owner(live.projectId), 20_000, 50);
    await waitFor('the stream', () => probeStream(rtmp.url(liveKey)), 30_000, 250);

    draining.child.kill('SIGTERM');
    await waitFor(
      'the worker to report draining',
      async () => {
        const raw = await redis.get(workerRegistryKeys.worker('media', draining.id));
        return raw && workerHeartbeatSchema.parse(JSON.parse(raw)).state === 'draining' ? true : undefined;
      },
      10_000,
      100,
    );
    const other = await startWorker({ DRAIN_GRACE_MS: '60000' });
    const next = projectDocument();
    const nextKey = secretKey();
    await openLiveSession(next, nextKey);
    const nextOwner = await waitFor('the new session to be placed', () => owner(next.projectId), 20_000, 50);
    expect(nextOwner.workerId).toBe(other.id);

    // The draining worker still streams its session, a while after SIGTERM.
    await new Promise((r) => setTimeout(r, 2000));
    expect(draining.child.exitCode).toBeNull();
    expect((await owner(live.projectId))?.workerId).toBe(draining.id);
    expect(showsScene(await grabFrame(rtmp.url(liveKey), WIDTH, HEIGHT, 5), live)).toBe(true);

    // When its session ends, the draining worker exits cleanly.
    await redis.publish(sessionKeys.commands(live.projectId), JSON.stringify({ type: 'stop' }));
    const { code, registeredAfterExit } = await draining.waitForExit();
    expect(code).toBe(0);
    expect(registeredAfterExit).toBe(false);
    await redis.publish(sessionKeys.commands(next.projectId), JSON.stringify({ type: 'stop' }));
    await waitFor('the second session to end', async () => ((await owner(next.projectId)) ? undefined : true), 20_000, 100);
    expect((await other.stop()).code).toBe(0);
  });
  it('refuses a session that would take its admission model past its budget, and another worker takes it', async () => {
    // One core: an admission budget of 0.8 cores (ADMISSION_CPU_SHARE). The first session, at 480p
    // with only its watermark, is charged its base; a 1080p one with a camera more, past the budget.
    const small = await startWorker({ WORKER_CORES: '1', DRAIN_GRACE_MS: '60000' });
    process.env.WORKER_CORES = '2';
    const first = projectDocument();
    const firstKey = secretKey();
    await openLiveSession(first, firstKey);
    expect((await waitFor('the first session on the one-core worker', () => owner(first.projectId), 20_000, 50)).workerId).toBe(small.id);
    expect(sessionCost(first)).toBeCloseTo(SESSION_BASE_CORES['480p']);

    // A 1080p session with a camera over the whole canvas: its base and a camera sent whole.
    const big: SceneDocument = { ...projectDocument(), resolution: '1080p' };
    const cameraId = randomUUID();
    big.sources.push({
      id: cameraId,
      kind: 'webcam',
      name: 'Camera',
      settings: { opacity: 1, volume: 1, muted: false, webcamDeviceId: null, microphoneDeviceId: null, displayName: '', userId: null, mirrorCamera: false },
    });
    big.scenes[0]!.layers.push({
      id: randomUUID(),
      sourceId: cameraId,
      x: 0,
      y: 0,
      width: 1280,
      height: 720,
      crop: { top: 0, right: 0, bottom: 0, left: 0 },
      zIndex: 1,
      opacity: 1,
      visible: true,
    });
    expect(sessionCost(big)).toBeCloseTo(SESSION_BASE_CORES['1080p'] + DECODED_SOURCE_CORES);
    expect(canAdmit(1, sessionCost(first), sessionCost(big))).toBe(false);
    const bigKey = secretKey();
    await openLiveSession(big, bigKey);
    // The worker says so, hands the job back, and the session stays unplaced while it is the only worker.
    const refusal = (line: string) => line.includes('session left for another worker (no capacity)') && line.includes(big.projectId);
    await waitFor('the one-core worker to refuse the 1080p session', async () => (small.output.some(refusal) ? true : undefined), 20_000, 50);
    expect(await owner(big.projectId)).toBeUndefined();

    const roomy = await startWorker({ DRAIN_GRACE_MS: '60000' });
    expect((await waitFor('the 1080p session on the two-core worker', () => owner(big.projectId), 30_000, 50)).workerId).toBe(roomy.id);
    expect((await owner(first.projectId))?.workerId).toBe(small.id);

    // Each worker's heartbeat puts the model's charge of its session beside what its pipeline measures.
    const loadOf = async (workerId: string, projectId: string) => {
      const raw = await redis.get(workerRegistryKeys.worker('media', workerId));
      const load = raw ? workerHeartbeatSchema.parse(JSON.parse(raw)).sessionLoads?.find((l) => l.sessionId === projectId) : undefined;
      return load?.measuredCores !== undefined ? load : undefined;
    };
    const smallLoad = await waitFor('a measured figure for the 480p session', () => loadOf(small.id, first.projectId), 20_000, 200);
    expect(smallLoad.estimatedCores).toBeCloseTo(sessionCost(first));
    expect(smallLoad.measuredCores).toBeGreaterThan(0);
    const bigLoad = await waitFor('a measured figure for the 1080p session', () => loadOf(roomy.id, big.projectId), 20_000, 200);
    expect(bigLoad.estimatedCores).toBeCloseTo(sessionCost(big));
    expect(bigLoad.measuredCores).toBeGreaterThan(0);

    for (const doc of [first, big]) {
      await redis.publish(sessionKeys.commands(doc.projectId), JSON.stringify({ type: 'stop' }));
      await waitFor('the session to end', async () => ((await owner(doc.projectId)) ? undefined : true), 20_000, 100);
    }
    expect((await small.stop()).code).toBe(0);
    expect((await roomy.stop()).code).toBe(0);
  });

  it('ends a session with nobody in it and nothing going out at once when told to stop, whatever the drain grace', async () => {
    // Two minutes of grace: a worker that waited for this session would outlive the test.
    const worker = await startWorker({ DRAIN_GRACE_MS: '120000' });
    const doc = projectDocument();
    await queueSession(queue, redis, doc);
    await waitFor('the session to be placed', () => owner(doc.projectId), 20_000, 50);

    const { code, registeredAfterExit } = await worker.stop();
    expect(code).toBe(0);
    expect(registeredAfterExit).toBe(false);
    // Ended, not queued for another worker: nobody was in it.
    expect(await queue.getJob(doc.projectId)).toBeUndefined();
    expect(await owner(doc.projectId)).toBeUndefined();
  });

  it('fails a session job that breaks the queue contract, for good, and goes on placing sessions', async () => {
    // Issue 55: the consumer parsed with a throwing parse, which ended its fetch loop: that worker took no session again.
    const worker = await startWorker({ DRAIN_GRACE_MS: '60000' });
    const bad = await queue.add('session', { projectId: 'not-a-project', requestedAt: 'yesterday' }, { jobId: `bad-${randomUUID()}`, attempts: 3 });
    const failed = await waitFor(
      'the malformed job to fail',
      async () => {
        const job = await queue.getJob(bad.id ?? '');
        return job && (await job.getState()) === 'failed' ? job : undefined;
      },
      20_000,
      100,
    );
    expect(failed.failedReason).toMatch(/^JOB_INVALID: invalid sessions job: projectId, requestedAt$/);
    expect(failed.attemptsMade).toBeLessThanOrEqual(1);
    const doc = projectDocument();
    await queueSession(queue, redis, doc);
    expect((await waitFor('the next session to be placed', () => owner(doc.projectId), 20_000, 50)).workerId).toBe(worker.id);
    await failed.remove();
    expect((await worker.stop()).code).toBe(0);
  });

  it('ends a session with nobody in it and nothing going out, giving its room back', async () => {
    const worker = await startWorker({ SESSION_IDLE_MS: '1500', DRAIN_GRACE_MS: '60000' });
    delete process.env.SESSION_IDLE_MS;
    const doc = projectDocument();
    await queueSession(queue, redis, doc);
    await waitFor('the session to be placed', () => owner(doc.projectId), 20_000, 50);
    await waitFor('the idle session to end', async () => ((await owner(doc.projectId)) ? undefined : true), 20_000, 200);
    expect(await queue.getJob(doc.projectId)).toBeUndefined();
    expect((await worker.stop()).code).toBe(0);
  });
});
