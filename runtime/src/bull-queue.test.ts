// BullQueue on a real redis-server and the real BullMQ: payloads are parsed before the processor
// sees them (a bad one fails once, for good), a manual fetcher hands jobs out one by one, and
// close() ends whatever was made, once, with the connections it opened.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
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

async function clients(): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  return list.trim().split('\n').length;
}

describe('BullQueue', { timeout: 30_000 }, () => {
  it('parses each payload before the processor sees it, and fails a bad one for good without retrying it', async () => {
    const queue = new BullQueue<z.infer<typeof jobSchema>, number>(redis, 'parse', { prefix: 'test-parse', schema: jobSchema });
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
    expect(failures).toEqual(['invalid parse job: n']);
    expect(seen).toEqual([{ n: 21 }]);
    await queue.close();
  });

  it('hands jobs out one at a time to a manual fetcher, which keeps or returns each', async () => {
    const queue = new BullQueue<{ n: number }>(redis, 'manual', { prefix: 'test-manual' });
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
    const queue = new BullQueue<{ n: number }>(redis, 'close', { prefix: 'test-close' });
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
