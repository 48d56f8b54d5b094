// BullQueue on a real redis-server and the real BullMQ: payloads are parsed when added (a bad one is
// refused with JOB_INVALID) and before the processor sees them (a bad one fails once, for good), a manual fetcher hands jobs out one by one, and
// close() ends whatever was made, once, with the connections it opened.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineQueue, OnAirError, queues, type QueueContract } from '@onair/protocol';
import { BullQueue } from './bull-queue.ts';
import type { TetheredProcess } from './process/tethered-process.ts';
import { freePort, startRedisServer } from './redis-server.testkit.ts';

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

const jobSchema = z.object({ n: z.number().int() });
const contract = (name: string) => defineQueue(name, jobSchema);

async function clients(): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  return list.trim().split('\n').length;
}

describe('BullQueue', { timeout: 30_000 }, () => {
  it('parses each payload before the processor sees it, and fails a bad one for good without retrying it', async () => {
    const queue = new BullQueue<z.infer<typeof jobSchema>, number>(redis, contract('parse'), { prefix: 'test-parse' });
    const seen: unknown[] = [];
    const failures: string[] = [];
    const failed = new Promise<void>((resolve) => {
      queue.work(
        async (data) => {
          seen.push(data);
          return data.n * 2;
        },
        {
          concurrency: 1,
          onFailed: (_job, err) => {
            failures.push(err.message);
            resolve();
          },
        },
      );
    });
    const events = await queue.events();
    const good = await queue.add('good', { n: 21 });
    expect(await good.waitUntilFinished(events)).toBe(42);
    // A payload the schema refuses, with retries allowed: it must fail once and not be retried.
    const bad = await queue.queue.add('bad', { n: 'many' } as unknown as { n: number }, { attempts: 3 });
    await failed;
    const stored = await queue.queue.getJob(bad.id ?? '');
    expect(await stored?.getState()).toBe('failed');
    expect(stored?.attemptsMade).toBe(1);
    expect(failures).toEqual(['JOB_INVALID: invalid parse job: n']);
    expect(seen).toEqual([{ n: 21 }]);
    await queue.close();
  });

  it('refuses to add a job that does not parse (JOB_INVALID, nothing queued), and parses a fetched job for its taker', async () => {
    const queue = new BullQueue(redis, contract('refuse'), { prefix: 'test-refuse' });
    const refused = await queue.add('bad', { n: 1.5 }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(OnAirError);
    expect((refused as OnAirError).code).toBe('JOB_INVALID');
    expect((refused as OnAirError).details).toMatchObject({ queue: 'refuse' });
    expect(await queue.queue.getJobCounts('waiting')).toEqual({ waiting: 0 });
    const job = await queue.queue.add('written-around-the-contract', { n: 'x' });
    const parsed = queue.parse(job);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toBe('JOB_INVALID: invalid refuse job: n');
    expect(queue.parse(await queue.add('good', { n: 2 }))).toEqual({ ok: true, data: { n: 2 } });
    await queue.queue.obliterate({ force: true });
    await queue.close();
  });

  it.each(Object.values(queues).map((q) => [q.name, q] as const))(
    'the %s queue: its producer refuses a malformed job (JOB_INVALID) and its worker fails one for good without running it',
    async (name, contract: QueueContract<unknown>) => {
      const queue = new BullQueue<unknown, string>(redis, contract, { prefix: `test-contract-${name}` });
      const malformed = { bogus: true };
      await expect(queue.add('bad', malformed)).rejects.toMatchObject({ code: 'JOB_INVALID', details: { queue: name } });
      expect(await queue.queue.count()).toBe(0);
      const seen: unknown[] = [];
      const failure = new Promise<string>((resolve) => {
        queue.work(
          async (data) => {
            seen.push(data);
            return 'done';
          },
          { concurrency: 1, onFailed: (_job, err) => resolve(err.message) },
        );
      });
      const events = await queue.events();
      // Written around the producer (an older release, a hand-made job): the worker meets it anyway.
      const bad = await queue.queue.add('bad', malformed, { attempts: 3 });
      await expect(bad.waitUntilFinished(events)).rejects.toThrow(`JOB_INVALID: invalid ${name} job`);
      expect(await failure).toMatch(`JOB_INVALID: invalid ${name} job`);
      expect((await queue.queue.getJob(bad.id ?? ''))?.attemptsMade).toBe(1);
      expect(seen).toEqual([]);
      await queue.queue.obliterate({ force: true });
      await queue.close();
    },
  );

  it('hands jobs out one at a time to a manual fetcher, which keeps or returns each', async () => {
    const queue = new BullQueue(redis, contract('manual'), { prefix: 'test-manual' });
    const worker = await queue.fetcher({ lockDuration: 5_000, drainDelay: 1 });
    await queue.add('one', { n: 1 });
    const first = await worker.getNextJob('token-1', { block: true });
    expect(first?.data).toEqual({ n: 1 });
    // Returned to the queue (a worker without room), it is fetched again.
    await first?.moveToWait('token-1');
    const again = await worker.getNextJob('token-2', { block: true });
    expect(again?.id).toBe(first?.id);
    expect(await again?.getState()).toBe('active');
    await queue.close({ force: true });
  });

  it('closes what it made once, however often it is asked, and quits the connections it opened', async () => {
    const before = await clients();
    const queue = new BullQueue(redis, contract('close'), { prefix: 'test-close' });
    await queue.add('one', { n: 1 });
    await queue.events();
    expect(await clients()).toBeGreaterThan(before);
    await Promise.all([queue.close(), queue.close()]);
    await queue.close();
    // Quit is acknowledged before the server drops the client: wait until it has.
    for (let i = 0; i < 100 && (await clients()) > before; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await clients()).toBe(before);
  });
});
