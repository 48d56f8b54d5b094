/**
 * Issue 42: a pipeline process never outlives its worker, whatever its pipeline is doing. The
 * pipeline here is made to block its own stop for real: a video file whose bytes come from a FIFO
 * that stops delivering (a stalled network disk, as far as GStreamer can tell). Its filesrc thread
 * then sits in read() holding its stream lock, and a state change to NULL waits for it for ever.
 * - SIGTERM: the process still ends within 2 s.
 * - The worker killed with -9: its pipeline process ends within 1 s, its RTMP connection (held by
 *   the worker itself since issue 54) with it, and the worker that takes the session over is then
 *   the only publisher at the destination.
 * - A pipeline frozen with its worker's death (SIGSTOP: nothing of it runs) is ended by the worker
 *   that takes the session over, before that one publishes.
 */
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import { isolatedRedisUrl } from '@onair/embedded/test-services';
import { newProjectDocument, renderPlanSchema, sessionKeys, queues, sourceDefaults, type SceneDocument } from '@onair/protocol';
import { SecretBox } from '@onair/runtime';
import { startWorkerProcess, type WorkerUnderTest } from '@onair/runtime/testkit';
import { HEIGHT, useSharedFixture, WIDTH } from './helpers/session-fixture.ts';
import { killWorkers, queueSession, readOwner } from './helpers/placement-fixture.ts';
import { alive, childrenOf, connectedTo, msUntilGone, threadReads } from './helpers/processes.ts';

const suite = useSharedFixture();
const workerRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * A FIFO at `path` that hands out the first 16 KB of a real WebM and then nothing, ever, until
 * closed: the reader's read() blocks. Opened read-write, so opening it blocks neither side.
 */
function stalledFile(path: string): { close(): void } {
  const clip = `${path}.src.webm`;
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=s=320x240:r=30:d=20', '-c:v', 'libvpx', '-b:v', '2M', clip]);
  execFileSync('mkfifo', [path]);
  const fd = openSync(path, 'r+');
  writeSync(fd, readFileSync(clip).subarray(0, 16 * 1024));
  let open = true;
  return {
    close: () => {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

describe('a pipeline process whose stop blocks', () => {
  it('ends within 2 s of SIGTERM', async () => {
    const { fx } = suite;
    const server = await fx.rtmp();
    const key = suite.key();
    const fifo = join(fx.dir, 'stalled.webm');
    const stalled = stalledFile(fifo);
    const sessionId = `blocked-stop-${randomUUID().slice(0, 8)}`;
    try {
      fx.host.startSession({
        sessionId,
        planVersion: 1,
        plan: renderPlanSchema.parse({
          profile: { width: WIDTH, height: HEIGHT, fps: 30, videoBitrateKbps: 800, audioBitrateKbps: 128, encoderThreads: 1 },
          inputs: [{ id: 'clip', kind: 'video-file', path: fifo, loop: true, restartOnShow: false }],
          scenes: [{ id: 'main', placements: [{ inputId: 'clip', x: 0, y: 0, width: 320, height: 240, zorder: 1 }] }],
          activeSceneId: 'main',
          outputs: [{ id: 'main', url: `rtmp://127.0.0.1:${server.port}/live`, key }],
        }),
      });
      await fx.waitForOutput(sessionId, 'main', 'live');
      const pid = fx.host.session(sessionId)!.pid!;
      await waitFor('the file reader to block on the stalled file', async () => (threadReads(pid, fifo) ? true : undefined), 10_000, 50);
      const since = Date.now();
      process.kill(pid, 'SIGTERM');
      const goneMs = await msUntilGone(pid, 10_000);
      // Killed by its own deadline: the stop did block (a stop that returned would have exited with 0).
      const exit = await fx.waitForReport(sessionId, 'error', (r) => r.code === 'PIPELINE_CRASHED', 5000, since);
      process.stdout.write(`pipeline exit: SIGTERM with a blocked stop → gone after ${goneMs} ms (${exit.message})\n`);
      expect(goneMs, 'the process is still there 10 s after SIGTERM').toBeDefined();
      expect(goneMs!).toBeLessThanOrEqual(2000);
      expect(exit.message).toContain('SIGKILL');
    } finally {
      // EOF for the reader, so the restarted pipeline's own stop returns.
      stalled.close();
      await fx.host.stopSession(sessionId);
    }
  });
});

describe('a media worker killed with -9', () => {
  let redisUrl = '';
  let redis: Redis;
  let queue: Queue;
  let box: SecretBox;
  const workers: WorkerUnderTest[] = [];
  const closers: (() => void)[] = [];

  beforeAll(async () => {
    redisUrl = await isolatedRedisUrl();
    redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    queue = new Queue(queues.sessions.name, { connection: redis });
    const key = SecretBox.generateKey();
    box = new SecretBox(key);
    process.env.SECRETS_KEY = key;
    process.env.WORKER_CORES = '2';
    process.env.DRAIN_GRACE_MS = '60000';
    process.env.UPLOADS_DIR = join(suite.fx.dir, 'uploads');
    mkdirSync(process.env.UPLOADS_DIR, { recursive: true });
  });

  afterAll(async () => {
    killWorkers(workers);
    for (const close of closers) close();
    await queue?.close();
    await redis?.flushdb();
    redis?.disconnect();
  });

  async function startWorker(): Promise<WorkerUnderTest> {
    const worker = startWorkerProcess('media', 'src/main.ts', workerRoot, redisUrl);
    workers.push(worker);
    await worker.waitForRegistration();
    return worker;
  }

  /** A project that shows an uploaded video file, whose bytes stall when `stalled` (see stalledFile). */
  function projectWithClip(uploadId: string): SceneDocument {
    const ids = { projectId: randomUUID(), sceneId: randomUUID(), watermarkSourceId: randomUUID(), watermarkLayerId: randomUUID() };
    const base = newProjectDocument({ ...ids, resolution: '480p' });
    const videoSourceId = randomUUID();
    const doc: SceneDocument = {
      ...base,
      sources: [...base.sources, { id: videoSourceId, kind: 'video', name: 'Clip', settings: { ...sourceDefaults.video, uploadId } }],
      scenes: base.scenes.map((s) => ({
        ...s,
        layers: [
          ...s.layers,
          {
            id: randomUUID(),
            sourceId: videoSourceId,
            x: 0,
            y: 0,
            width: 640,
            height: 360,
            crop: { top: 0, right: 0, bottom: 0, left: 0 },
            zIndex: 1,
            opacity: 1,
            visible: true,
          },
        ],
      })),
    };
    return doc;
  }

  /**
   * A first worker live to a destination with a project whose clip stalls (stalledFile): its
   * pipeline process found by the thread blocked on the clip, and the worker connected to the
   * destination (the RTMP connections are the worker's, issue 54).
   */
  async function liveOnFirstWorker() {
    const server = await suite.fx.rtmp();
    const uploadId = randomUUID();
    const fifo = join(process.env.UPLOADS_DIR!, `${uploadId}.webm`);
    const stalled = stalledFile(fifo);
    closers.push(() => stalled.close());
    const doc = projectWithClip(uploadId);
    const a = await startWorker();
    await queueSession(queue, redis, doc, { box, outputs: [{ id: 'local', url: `rtmp://127.0.0.1:${server.port}/${server.application}`, key: suite.key() }] });
    await waitFor('the session on the first worker', async () => ((await readOwner(redis, doc.projectId))?.workerId === a.id ? true : undefined), 20_000, 50);
    const pipeline = await waitFor('its pipeline process', async () => childrenOf(a.child.pid!).find((pid) => threadReads(pid, fifo)), 30_000, 100);
    await waitFor(
      'the worker connected to the destination',
      async () => ((await connectedTo(server.port)).includes(a.child.pid!) ? true : undefined),
      20_000,
      100,
    );
    return { server, stalled, doc, a, pipeline };
  }

  async function endSession(doc: SceneDocument, worker: WorkerUnderTest): Promise<void> {
    await redis.publish(sessionKeys.commands(doc.projectId), JSON.stringify({ type: 'stop' }));
    await waitFor('the session to end', async () => ((await readOwner(redis, doc.projectId)) ? undefined : true), 20_000, 100);
    expect((await worker.stop()).code).toBe(0);
  }

  it('takes its pipeline with it within 1 s, even one whose stop blocks; the new owner is then the only publisher', async () => {
    const { server, stalled, doc, a, pipeline } = await liveOnFirstWorker();

    a.child.kill('SIGKILL');
    const goneMs = await msUntilGone(pipeline, 10_000);
    const orphans = childrenOf(1).filter((pid) => pid === pipeline);
    process.stdout.write(`pipeline exit: worker killed with -9 → its pipeline gone after ${goneMs} ms\n`);
    expect(goneMs, 'the pipeline process outlived its worker by 10 s').toBeDefined();
    expect(goneMs!).toBeLessThanOrEqual(1000);
    expect(orphans).toEqual([]);
    expect(await connectedTo(server.port)).not.toContain(pipeline);
    expect(await connectedTo(server.port)).not.toContain(a.child.pid);

    // The next worker takes the session over and publishes; nobody else does.
    const b = await startWorker();
    await waitFor('the session on the second worker', async () => ((await readOwner(redis, doc.projectId))?.workerId === b.id ? true : undefined), 30_000, 100);
    const publishers = await waitFor(
      'the new owner publishing',
      async () => {
        const pids = await connectedTo(server.port);
        return pids.length > 0 ? pids : undefined;
      },
      30_000,
      100,
    );
    expect(publishers, "the publisher is the new worker (its destinations' connections are its own)").toEqual([b.child.pid]);
    expect(publishers).toHaveLength(1);
    expect(alive(pipeline)).toBe(false);
    stalled.close();
    await endSession(doc, b);
  });

  it('is not published beside by the next owner while its pipeline is frozen: the next owner ends it first', async () => {
    const { server, stalled, doc, a, pipeline } = await liveOnFirstWorker();
    await waitFor(
      'the owner record naming the pipeline',
      async () => ((await readOwner(redis, doc.projectId))?.pipeline?.pid === pipeline ? true : undefined),
      5000,
      100,
    );

    // Frozen (a paused VM, a process swapped out): not even its own deadline runs, and its
    // connection to the destination stays open, holding the stream key.
    process.kill(pipeline, 'SIGSTOP');
    a.child.kill('SIGKILL');
    const b = await startWorker();
    await waitFor('the session on the second worker', async () => ((await readOwner(redis, doc.projectId))?.workerId === b.id ? true : undefined), 30_000, 100);
    const publishers = await waitFor(
      'the new owner publishing',
      async () => {
        const pids = await connectedTo(server.port);
        return pids.includes(b.child.pid!) ? pids : undefined;
      },
      30_000,
      100,
    );
    expect(alive(pipeline), 'the frozen pipeline is still there').toBe(false);
    expect(publishers).toHaveLength(1);
    stalled.close();
    await endSession(doc, b);
  });
});
