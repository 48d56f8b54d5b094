// Issue 54 item 2: a dead worker's sessions resume on the standby as soon as its death is certain.
// Two media workers run under the one-machine supervisor (embedded's SupervisedProcess, as
// `./onair start` with MEDIA_WORKERS=2 runs them); the one running a live session is killed with -9.
// The supervisor sees the exit and sends the death notice (runtime's WorkerDeaths), which releases
// the dead worker's session lease at once. The lease is made long (60 s): the lock lapsing cannot
// explain the take-over, only the notice can. The fencing of issue 42 holds: the local RTMP server
// is asked about every publish, and the standby's publish comes once, after the old pipeline is gone.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startRtmpServer, SupervisedProcess, waitFor, type RunningRtmpServer } from '@onair/embedded';
import { isolatedRedisUrl } from '@onair/embedded/test-services';
import { newProjectDocument, queues, sessionKeys, workerRegistryKeys } from '@onair/protocol';
import { SecretBox, WorkerDeaths } from '@onair/runtime';
import { readVideoPackets } from './helpers/output-reader.ts';
import { alive } from './helpers/processes.ts';
import { queueSession, readOwner } from './helpers/placement-fixture.ts';
import { secretKey } from './helpers/session-fixture.ts';

const workerRoot = fileURLToPath(new URL('..', import.meta.url));
/** Far longer than any take-over here: a session that moves within it was released, not lapsed. */
const LONG_LOCK_MS = 60_000;

interface PublishAttempt {
  at: number;
  name: string;
  /** Whether the killed worker's pipeline process was still there when the publish came. */
  oldPipelineAlive: boolean | undefined;
}

describe('take-over after a certain death (issue 54)', () => {
  let redisUrl = '';
  let redis: Redis;
  let queue: Queue;
  let box: SecretBox;
  let secretsKey = '';
  let dir: string;
  let rtmp: RunningRtmpServer;
  let gate: Server;
  let deaths: WorkerDeaths;
  const attempts: PublishAttempt[] = [];

  /**
   * Ends a case's session and waits until no worker holds it: a session left running is released
   * with the next case's by a death notice for its worker (CI: the second case's notice released
   * the first case's session too, and its retry both earlier ones).
   */
  async function stopSession(projectId: string): Promise<void> {
    await redis.publish(sessionKeys.commands(projectId), JSON.stringify({ type: 'stop' }));
    await waitFor('the session to end', async () => ((await readOwner(redis, projectId)) ? undefined : true), 30_000, 100);
  }
  let oldPipelinePid: number | undefined;
  const supervised: SupervisedProcess[] = [];
  const lines: string[] = [];
  /** The current run's worker id of each supervised worker. */
  const current: string[] = [];

  beforeAll(async () => {
    redisUrl = await isolatedRedisUrl();
    redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    queue = new Queue(queues.sessions.name, { connection: redis });
    deaths = new WorkerDeaths(redis);
    secretsKey = SecretBox.generateKey();
    box = new SecretBox(secretsKey);
    dir = await mkdtemp(join(tmpdir(), 'onair-takeover-'));
    // The RTMP server asks here about every publish (accepting all): the count of publishers.
    gate = createServer((req, res) => {
      const name = new URL(req.url ?? '/', 'http://gate').searchParams.get('name') ?? '';
      attempts.push({ at: performance.now(), name, oldPipelineAlive: oldPipelinePid === undefined ? undefined : alive(oldPipelinePid) });
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
    rtmp = await startRtmpServer({ dir: join(dir, 'nginx'), onPublishUrl: `http://127.0.0.1:${(gate.address() as AddressInfo).port}/on_publish` });
  });

  afterAll(async () => {
    await Promise.all(supervised.map((p) => p.stop(5000)));
    if (process.env.TAKEOVER_DEBUG) process.stdout.write(lines.join('\n'));
    await rtmp?.stop();
    gate?.close();
    await deaths?.close();
    await queue?.close();
    await redis?.flushdb();
    redis?.disconnect();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('hands a live session killed with -9 to the standby at once, by the death notice, with one publisher at a time', async () => {
    const notices: { workerId: string; released: string[] }[] = [];
    for (let i = 0; i < 2; i++) {
      supervised.push(
        new SupervisedProcess(
          {
            name: `media-worker-${i + 1}`,
            entry: join(workerRoot, 'src/main.ts'),
            cwd: workerRoot,
            env: {
              ...process.env,
              REDIS_URL: redisUrl,
              METRICS_PORT: '0',
              LOG_LEVEL: 'info',
              SECRETS_KEY: secretsKey,
              WORKER_CORES: '2',
              UPLOADS_DIR: join(dir, 'uploads'),
              DRAIN_GRACE_MS: '1000',
              SESSION_LOCK_MS: String(LONG_LOCK_MS),
            },
            runEnv: () => {
              current[i] = `media-${i + 1}-${randomBytes(4).toString('hex')}`;
              return { WORKER_ID: current[i] };
            },
            // What the stack does (embedded/src/stack.ts): the supervisor tells the fleet.
            onDeath: ({ env }) => {
              const workerId = env.WORKER_ID!;
              void deaths.workerDied(workerId, 'process exited').then((released) => notices.push({ workerId, released }));
            },
          },
          (source, line) => lines.push(`[${source}] ${line}`),
        ),
      );
    }
    for (const p of supervised) p.start();
    await waitFor(
      'both workers to register',
      async () => ((await redis.exists(...current.map((id) => workerRegistryKeys.worker('media', id)))) === 2 ? true : undefined),
      30_000,
      100,
    );

    const doc = newProjectDocument({
      projectId: randomUUID(),
      sceneId: randomUUID(),
      watermarkSourceId: randomUUID(),
      watermarkLayerId: randomUUID(),
      resolution: '480p',
    });
    const streamKey = secretKey();
    onTestFinished(() => stopSession(doc.projectId));
    await queueSession(queue, redis, doc, { box, outputs: [{ id: 'local', url: `rtmp://127.0.0.1:${rtmp.port}/${rtmp.application}`, key: streamKey }] });
    const first = await waitFor(
      'the session to be placed',
      async () => {
        const o = await readOwner(redis, doc.projectId);
        return o?.pipeline ? o : undefined;
      },
      30_000,
      50,
    );
    const victimIndex = current.indexOf(first.workerId);
    expect(victimIndex).toBeGreaterThanOrEqual(0);
    const victimId = current[victimIndex]!;
    const victim = supervised[victimIndex]!;

    // A reader of the destination that reads on when the publisher changes, as a player that retries.
    const packets: number[] = [];
    const stopReading = readVideoPackets(rtmp.url(streamKey), (_ts, at) => packets.push(at), { follow: true });
    try {
      await waitFor('the destination to receive the stream', async () => (packets.length > 30 ? true : undefined), 30_000, 100);
      expect(attempts.filter((a) => a.name === streamKey)).toHaveLength(1);
      oldPipelinePid = first.pipeline!.pid;
      const victimPid = victim.pid!;

      const killedAt = performance.now();
      process.kill(victimPid, 'SIGKILL');

      const second = await waitFor(
        'the standby to own the session',
        async () => {
          const o = await readOwner(redis, doc.projectId);
          // The standby, or (never seen: it starts a second after the kill) the killed worker's restart.
          return o && o.workerId !== victimId && o.pipeline ? o : undefined;
        },
        // Well under the lease: only the death notice can hand the session over this soon.
        LONG_LOCK_MS / 2,
        20,
      );
      const ownedAt = performance.now();
      const publish = await waitFor('the standby to publish', async () => attempts.filter((a) => a.name === streamKey)[1], 20_000, 20);
      const framesAgain = await waitFor('frames at the reader again', async () => packets.find((at) => at > publish.at), 20_000, 20);

      // The mechanism: the supervisor's notice released the lease (the job never stalled: the
      // stalled check moves a job only after its lock is gone, 60 s away here).
      expect(notices).toContainEqual({ workerId: victimId, released: [doc.projectId] });
      expect((await queue.getJob(doc.projectId))?.stalledCounter ?? 0).toBe(0);
      expect(second.pickups).toBeGreaterThanOrEqual(1);
      expect(await deaths.deathOf(victimId)).toMatchObject({ workerId: victimId });
      // The killed worker left the registry with its death, not with its heartbeat's TTL.
      expect(await redis.exists(workerRegistryKeys.worker('media', victimId))).toBe(0);

      // The fencing (issue 42): one publisher at a time. The standby published once, accepted at
      // its first try, and only after the killed worker's pipeline was gone.
      await waitFor('a few seconds of the standby stream', async () => (packets.filter((at) => at > publish.at).length > 60 ? true : undefined), 20_000, 100);
      const forKey = attempts.filter((a) => a.name === streamKey);
      expect(forKey).toHaveLength(2);
      expect(forKey[1]!.oldPipelineAlive).toBe(false);
      expect(alive(oldPipelinePid)).toBe(false);

      process.stdout.write(
        `take-over after kill -9 (death notice, lease ${LONG_LOCK_MS / 1000} s): owned by the standby ${Math.round(ownedAt - killedAt)} ms, ` +
          `standby publishing ${Math.round(publish.at - killedAt)} ms, frames at the reader ${Math.round(framesAgain - killedAt)} ms after the kill\n`,
      );
    } finally {
      stopReading();
    }
  });

  it('fences a worker declared dead while it still runs: the released session stops there, and runs again once', async () => {
    // After the first test: the standby, and the killed worker's restart (a worker of its own).
    await waitFor(
      'both workers to register',
      async () => ((await redis.exists(...current.map((id) => workerRegistryKeys.worker('media', id)))) === 2 ? true : undefined),
      30_000,
      100,
    );
    const doc = newProjectDocument({
      projectId: randomUUID(),
      sceneId: randomUUID(),
      watermarkSourceId: randomUUID(),
      watermarkLayerId: randomUUID(),
      resolution: '480p',
    });
    const streamKey = secretKey();
    onTestFinished(() => stopSession(doc.projectId));
    await queueSession(queue, redis, doc, { box, outputs: [{ id: 'local', url: `rtmp://127.0.0.1:${rtmp.port}/${rtmp.application}`, key: streamKey }] });
    const first = await waitFor(
      'the session to be placed',
      async () => {
        const o = await readOwner(redis, doc.projectId);
        return o?.pipeline ? o : undefined;
      },
      30_000,
      50,
    );
    // A notice sent in error: the holder is alive. Its next lock extension finds another token (or
    // none) on the lease, and it stops the session rather than publish beside the next owner.
    expect(await deaths.workerDied(first.workerId, 'a notice sent in error')).toEqual([doc.projectId]);
    await waitFor(
      'the released holder to stop the session',
      async () => (lines.some((l) => l.includes('session lock lost') && l.includes(doc.projectId) && l.includes(first.workerId)) ? true : undefined),
      20_000,
      50,
    );
    const again = await waitFor(
      'the session to run again',
      async () => {
        const o = await readOwner(redis, doc.projectId);
        return o?.pipeline && o.pipeline.pid !== first.pipeline!.pid ? o : undefined;
      },
      30_000,
      50,
    );
    await waitFor('the old pipeline to be gone', async () => (alive(first.pipeline!.pid) ? undefined : true), 20_000, 50);
    expect(again.pipeline!.pid).not.toBe(first.pipeline!.pid);
  });
});
