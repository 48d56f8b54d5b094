// A media worker killed with -9 while it pulls an encoder's feed takes its ffmpeg ingest relay with
// it: within 2 s the relay process is gone and its RTMP connection to the ingest server is closed,
// while the encoder still publishes. The worker process is real and takes its session from the
// real queue; the ingest server is the stack's nginx-rtmp; the accepted publish is written to
// Redis as the api writes it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRtmpServer, waitFor, type RunningRtmpServer } from '@onair/embedded';
import { isolatedRedisUrl } from '@onair/embedded/test-services';
import { ingestFeedSchema, ingestKeys, INGEST_APPLICATION, newProjectDocument, queues, type IngestPublish } from '@onair/protocol';
import {
  descendantsOf,
  describeProcesses,
  killProcesses,
  readProcessTable,
  startWorkerProcess,
  stillRunning,
  waitForNoProcesses,
  type ProcessEntry,
  type WorkerUnderTest,
} from '@onair/runtime/testkit';
import { queueSession } from './helpers/placement-fixture.ts';

const workerRoot = fileURLToPath(new URL('..', import.meta.url));
let redisUrl = '';
let redis: Redis;
let queue: Queue;
let dir = '';
let ingest: RunningRtmpServer;
let encoder: ChildProcess | undefined;

beforeAll(async () => {
  redisUrl = await isolatedRedisUrl();
  redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  queue = new Queue(queues.sessions.name, { connection: redis });
  dir = await mkdtemp(join(tmpdir(), 'onair-ingest-kill-'));
  ingest = await startRtmpServer({ dir: join(dir, 'nginx'), application: INGEST_APPLICATION });
});

afterAll(async () => {
  if (encoder && encoder.exitCode === null && encoder.signalCode === null) encoder.kill('SIGKILL');
  await ingest?.stop();
  await queue?.close();
  await redis?.flushdb();
  redis?.disconnect();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Established TCP connections from this machine to `port` on loopback (their client ends), from /proc/net/tcp. */
function connectionsTo(port: number): number {
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f[2] === `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}` && f[3] === '01').length;
}

describe('a media worker killed with -9 while pulling an ingest feed', () => {
  it('leaves no ffmpeg relay behind and no connection of it to the ingest server (within 2 s)', async () => {
    const doc = newProjectDocument({
      projectId: randomUUID(),
      sceneId: randomUUID(),
      watermarkSourceId: randomUUID(),
      watermarkLayerId: randomUUID(),
      resolution: '480p',
    });
    const publishId = randomUUID();
    const stream = `${doc.projectId}.${publishId}`;
    // The encoder publishes under the renamed stream, as nginx-rtmp's on_publish renames an accepted key.
    // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
    encoder = spawn('ffmpeg', [
      '-hide_banner', '-loglevel', 'error', '-re',
      '-f', 'lavfi', '-i', 'color=c=green:s=640x360:r=30', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '30', '-bf', '0', '-pix_fmt', 'yuv420p', '-c:a', 'aac',
      '-f', 'flv', ingest.url(stream),
    ], { stdio: 'ignore' });
    const publish: IngestPublish = {
      projectId: doc.projectId,
      publishId,
      via: 'encoder',
      pullPath: `${INGEST_APPLICATION}/${stream}`,
      clientId: '1',
      keyDigest: createHash('sha256').update('a key').digest('hex'),
      startedAt: new Date().toISOString(),
    };
    await redis.set(ingestKeys.publish(doc.projectId), JSON.stringify(publish));
    process.env.INGEST_PULL_URL = `rtmp://127.0.0.1:${ingest.port}`;
    const worker: WorkerUnderTest = startWorkerProcess('media', 'src/main.ts', workerRoot, redisUrl);
    let started: ProcessEntry[] = [];
    try {
      await worker.waitForRegistration();
      await queueSession(queue, redis, doc);
      // The relay reports the feed flowing: it pulls, and its connection to the ingest server is up.
      await waitFor(
        'the relay to report the feed flowing',
        async () => {
          const raw = await redis.get(ingestKeys.feed(doc.projectId));
          return raw && ingestFeedSchema.parse(JSON.parse(raw)).state === 'flowing' ? true : undefined;
        },
        30_000,
        100,
      );
      started = descendantsOf(readProcessTable(), [worker.child.pid!]).filter((e) => e.pid !== worker.child.pid);
      const relay = started.filter((e) => e.argv[0] === 'ffmpeg' && e.argv.includes(`${process.env.INGEST_PULL_URL}/${publish.pullPath}`));
      expect(relay, describeProcesses(started)).toHaveLength(1);
      // The encoder's and the relay's.
      expect(connectionsTo(ingest.port)).toBe(2);

      worker.child.kill('SIGKILL');
      const { ms, left } = await waitForNoProcesses(() => stillRunning(relay), 2000);
      const closed = await waitForNoProcesses(() => (connectionsTo(ingest.port) > 1 ? relay : []), 2000);
      console.warn(`media worker kill -9: ingest relay gone ${ms} ms after the kill, its RTMP connection closed after ${closed.ms} ms`);
      expect(describeProcesses(left)).toBe('');
      expect(connectionsTo(ingest.port)).toBe(1);
      // The encoder was not disturbed.
      expect(encoder.exitCode).toBeNull();
    } finally {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
      // The session's pipeline process too: it is not what this test is about, but it must not outlive the test.
      killProcesses(started);
    }
  });
});
