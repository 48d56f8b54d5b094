// unlessRedisGone on the real ioredis client and a real redis-server: the shutdown steps run to
// their end while Redis is there or comes back after a blip, and a process whose Redis died for
// good stops waiting for it (the one-machine stack killed with -9 ends its Redis at the same time
// as the processes using it).
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { TetheredProcess } from './process/tethered-process.ts';
import { freePort, startRedisServer } from './redis-server.testkit.ts';
import { unlessRedisGone } from './redis-gone.ts';

const started: TetheredProcess[] = [];
const clients: Redis[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.disconnect();
  await Promise.all(started.splice(0).map((p) => p.stop({ graceMs: 2000 })));
});

async function startRedis(port: number): Promise<TetheredProcess> {
  const proc = await startRedisServer(port);
  started.push(proc);
  return proc;
}

/** A client as the processes open theirs: it waits for its server to come back for ever. */
async function clientOf(port: number): Promise<Redis> {
  const client = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: null });
  client.on('error', () => undefined);
  clients.push(client);
  await client.ping();
  return client;
}

describe('unlessRedisGone', { timeout: 30_000 }, () => {
  it('runs the steps to their end while Redis is there', async () => {
    const port = await freePort();
    await startRedis(port);
    const redis = await clientOf(port);
    const outcome = await unlessRedisGone(redis, async () => {
      await redis.set('drained', 'yes');
      await redis.quit();
    });
    expect(outcome).toBe('done');
    expect(await redis.get('drained').catch((err: Error) => err.message)).toBe('Connection is closed.');
  });

  it('stops waiting once Redis died for good', async () => {
    const port = await freePort();
    const server = await startRedis(port);
    const redis = await clientOf(port);
    const began = Date.now();
    const outcome = unlessRedisGone(
      redis,
      async () => {
        // What a drain step does: a command that needs the server, sent as the server dies.
        await server.stop({ signal: 'SIGKILL' });
        await redis.set('handed-over', 'yes');
      },
      1000,
    );
    expect(await outcome).toBe('redis gone');
    console.warn(`redis killed -9 during the steps: gave up after ${Date.now() - began} ms`);
  });

  it('waits through a blip: Redis back within the limit lets the steps finish', async () => {
    const port = await freePort();
    const server = await startRedis(port);
    const redis = await clientOf(port);
    const outcome = await unlessRedisGone(
      redis,
      async () => {
        await server.stop({ signal: 'SIGKILL' });
        const sent = redis.set('after-blip', 'yes');
        await startRedis(port);
        await sent;
        await redis.quit();
      },
      20_000,
    );
    expect(outcome).toBe('done');
  });
});
