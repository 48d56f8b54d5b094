// WorkerDeaths on a real redis-server and the real BullMQ: a death notice hands back exactly the
// dead worker's sessions (the jobs whose lock token names it), wakes a worker blocked on the queue,
// leaves every other worker's lease alone, and fences the dead holder (its lock extension fails).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineQueue, queues, workerRegistryKeys } from '@onair/protocol';
import { z } from 'zod';
import { BullQueue } from '../bull-queue.ts';
import type { TetheredProcess } from '../process/tethered-process.ts';
import { freePort, startRedisServer } from '../redis-server.testkit.ts';
import { WorkerDeaths } from './worker-deaths.ts';

/** Jobs of the sessions queue's name with a payload of their own: the notice moves jobs by their lock, whatever they carry. */
const numbered = defineQueue(queues.sessions.name, z.object({ n: z.number() }));

let server: TetheredProcess;
let redis: Redis;

beforeAll(async () => {
  const port = await freePort();
  server = await startRedisServer(port);
  redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: null });
});

afterAll(async () => {
  redis.disconnect();
  await server.stop({ graceMs: 2000 });
});

describe('WorkerDeaths', { timeout: 30_000 }, () => {
  it("releases the dead worker's leases at once, wakes the standby, and leaves the others' alone", async () => {
    const prefix = 'test-deaths';
    const producer = new BullQueue(redis, numbered, { prefix });
    const dead = new BullQueue(redis, numbered, { prefix });
    const alive = new BullQueue(redis, numbered, { prefix });
    const deaths = new WorkerDeaths(redis, { prefix });
    // Leases far longer than the test: only the notice can move a job.
    const settings = { lockDuration: 60_000, stalledInterval: 60_000, drainDelay: 1 };
    try {
      for (const n of [1, 2, 3]) await producer.add('session', { n }, { jobId: `s${n}` });
      const deadWorker = await dead.fetcher(settings);
      const aliveWorker = await alive.fetcher(settings);
      const d1 = await deadWorker.getNextJob('media-a:t1');
      const d2 = await deadWorker.getNextJob('media-a:t2');
      const a3 = await aliveWorker.getNextJob('media-b:t3');
      expect([d1?.id, d2?.id, a3?.id]).toEqual(['s1', 's2', 's3']);
      await redis.set(workerRegistryKeys.worker('media', 'media-a'), '{}');

      // The standby waits on the empty queue, as a media worker's SessionConsumer does (a blocking
      // fetch may come back empty when woken; it fetches again).
      const picked = (async () => {
        for (let i = 0; i < 5; i++) {
          const job = await aliveWorker.getNextJob('media-b:t4', { block: true });
          if (job) return job;
        }
        return undefined;
      })();
      const released = await deaths.workerDied('media-a', 'process exited (signal SIGKILL)');
      expect(released.sort()).toEqual(['s1', 's2']);
      expect((await picked)?.id).toMatch(/^s[12]$/);

      // The dead holder is fenced: its token no longer holds the lease (BullMQ answers 0, not an
      // error: SessionConsumer stops the session on that answer).
      expect(await d1!.extendLock('media-a:t1', 60_000)).toBe(0);
      // The living worker's lease is untouched, and a second notice releases nothing more.
      expect(await redis.get(`${prefix}:${queues.sessions.name}:s3:lock`)).toBe('media-b:t3');
      expect(await deaths.workerDied('media-a', 'again')).toEqual([]);
      expect(await deaths.deathOf('media-a')).toMatchObject({ workerId: 'media-a', cause: 'again' });
      expect(await deaths.deathOf('media-b')).toBeUndefined();
      expect(await redis.exists(workerRegistryKeys.worker('media', 'media-a'))).toBe(0);
    } finally {
      await deaths.close();
      await dead.close({ force: true });
      await alive.close({ force: true });
      await producer.queue.obliterate({ force: true });
      await producer.close();
    }
  });
});
