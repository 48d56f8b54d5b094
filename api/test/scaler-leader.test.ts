// Only one api replica samples the fleet and scales: leadership through a Redis lease.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '@onair/embedded/test-services';
import { createLogger } from '@onair/runtime';
import { FleetController } from '../src/fleet/fleet-controller.ts';
import { LoadHistory } from '../src/fleet/load-history.ts';
import { SessionQueueStats } from '../src/fleet/session-queue-stats.ts';
import { WorkerRegistry } from '../src/fleet/worker-registry.ts';

describe('fleet controller leadership', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
  });
  afterAll(() => {
    redis.disconnect();
  });

  it('one replica leads and samples; another takes over when it stops', async () => {
    const suffix = randomBytes(4).toString('hex');
    const leaseKey = `test:fleet:leader:${suffix}`;
    const history = new LoadHistory(redis, 5000, `test:fleet:history:${suffix}`);
    const make = (holderId: string) =>
      new FleetController({
        redis,
        workers: new WorkerRegistry(redis),
        queue: new SessionQueueStats(redis, `sessions-test-${suffix}`),
        logger: createLogger('fleet-test', 'silent'),
        tickMs: 5000,
        holderId,
        leaseKey,
        history,
      });
    const a = make('api-a');
    const b = make('api-b');

    expect(await a.tick()).toEqual({ leader: true });
    expect(await b.tick()).toEqual({ leader: false });
    expect(await a.tick()).toEqual({ leader: true });
    expect(await b.lease.holder()).toBe('api-a');
    expect(await redis.pttl(leaseKey)).toBeGreaterThan(10_000);
    // Only the leader's ticks added points.
    expect(await history.read()).toHaveLength(2);

    await a.stop();
    expect(await b.tick()).toEqual({ leader: true });
    expect(await a.tick()).toEqual({ leader: false });
    const samples = await history.read();
    expect(samples).toHaveLength(3);
    expect(Date.parse(samples[0]!.at)).toBeLessThanOrEqual(Date.parse(samples[2]!.at));
    await b.stop();
    expect(await redis.exists(leaseKey)).toBe(0);
    await redis.del(`test:fleet:history:${suffix}`);
  });

  it('keeps an hour of history, oldest first', async () => {
    const key = `test:fleet:history:${randomBytes(4).toString('hex')}`;
    const history = new LoadHistory(redis, 60_000, key);
    const now = Date.now();
    const sample = (minutesAgo: number) => ({
      at: new Date(now - minutesAgo * 60_000).toISOString(),
      mediaWorkers: 1,
      drainingWorkers: 0,
      renderWorkers: 1,
      sessions: minutesAgo,
      queued: 0,
      cpuCores: 0,
      cores: 4,
      outputs: 0,
      bitrateKbps: 0,
    });
    for (const m of [90, 61, 59, 30, 0]) await history.append(sample(m));
    // Points older than the window are left out even while the list still holds them.
    expect((await history.read(now)).map((s) => s.sessions)).toEqual([59, 30, 0]);
    await redis.del(key);
  });
});
