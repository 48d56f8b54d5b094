// The operators' dashboard api: administrators see every worker with its sessions, the queue,
// failed outputs, failovers and load history; anyone else is refused.
import { randomBytes, randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '@onair/embedded/test-services';
import { fleetKeys, fleetLoadHistorySchema, fleetOverviewSchema, sessionKeys, sessionStatusKeys, type FleetOverview } from '@onair/protocol';
import { createLogger, HeartbeatPublisher } from '@onair/runtime';
import { FleetController } from '../src/fleet/fleet-controller.ts';
import { FleetOverviewReader } from '../src/fleet/fleet-overview.ts';
import { LoadHistory } from '../src/fleet/load-history.ts';
import { SessionQueueStats } from '../src/fleet/session-queue-stats.ts';
import { WorkerRegistry } from '../src/fleet/worker-registry.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

const logger = createLogger('fleet-dashboard-test', 'silent');

describe('operators dashboard api', () => {
  let api: StudioApi;
  let admin: TestUser;
  let host: TestUser;
  let heartbeat: HeartbeatPublisher;
  const workerId = `media-test-${randomBytes(4).toString('hex')}`;
  const projectId = randomUUID();
  const sessionId = randomUUID();

  beforeAll(async () => {
    // A Redis database of its own: the worker registry is global by design, and other test files
    // (system.test.ts) count the workers in database 0 while this file registers one.
    const redisUrl = new URL(testRedisUrl());
    redisUrl.pathname = '/9';
    api = await startStudioApi({ env: { REDIS_URL: redisUrl.toString() } });
    await api.redis.del(fleetKeys.loadHistory, fleetKeys.leader);
    admin = await createTestUser(api);
    await api.db.user.update({ where: { id: admin.id }, data: { userType: 'ADMIN' } });
    host = await createTestUser(api);
    heartbeat = new HeartbeatPublisher({
      redis: api.redis,
      kind: 'media',
      id: workerId,
      version: 'test',
      logger,
      load: () => ({ sessions: 1, outputs: 2, pages: 0, bitrateKbps: 4500, fps: 30, droppedFrames: 3 }),
    });
    await heartbeat.start();
    const now = new Date().toISOString();
    // What the owning worker writes for its session, and what its pipeline reports.
    await api.redis.set(
      sessionKeys.owner(projectId),
      JSON.stringify({ projectId, workerId, state: 'running', since: now, lastSeenAt: now, appliedVersion: 3, pickups: 0 }),
      'PX',
      60_000,
    );
    await api.redis.set(
      sessionStatusKeys.stats(sessionId),
      JSON.stringify({
        sessionId,
        at: now,
        state: 'playing',
        fps: 30,
        framesOut: 900,
        droppedFrames: 0,
        bitrateKbps: 4500,
        planVersion: 3,
        outputs: [
          { id: 'dest-ok', state: 'live', bytesSent: 1000, bitrateKbps: 4500, reconnects: 0 },
          { id: 'dest-bad', state: 'failed', bytesSent: 0, bitrateKbps: 0, reconnects: 4, errorCode: 'DESTINATION_REFUSED' },
        ],
      }),
      'PX',
      60_000,
    );
    await api.redis.lpush(sessionKeys.failovers, JSON.stringify({ projectId, fromWorkerId: 'media-dead', toWorkerId: workerId, at: now, gapMs: 4200 }));
  });

  afterAll(async () => {
    await heartbeat.stop();
    await api.redis.del(sessionKeys.owner(projectId), sessionStatusKeys.stats(sessionId));
    await api.redis.lrem(sessionKeys.failovers, 0, (await api.redis.lrange(sessionKeys.failovers, 0, -1)).find((f) => f.includes(projectId)) ?? '');
    await api.close();
  });

  it('refuses anonymous callers and non-administrators', async () => {
    expect((await call(api, null, 'GET', '/api/v1/admin/fleet')).status).toBe(401);
    const forbidden = await call(api, host, 'GET', '/api/v1/admin/fleet');
    expect(forbidden).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect((await call(api, host, 'GET', '/api/v1/admin/fleet/history')).status).toBe(403);
  });

  it('shows an administrator every worker with its load and sessions, failed outputs and failovers', async () => {
    const res = await call(api, admin, 'GET', '/api/v1/admin/fleet');
    expect(res.status).toBe(200);
    const overview: FleetOverview = fleetOverviewSchema.parse(res.body);
    const worker = overview.workers.find((w) => w.id === workerId);
    expect(worker).toMatchObject({ kind: 'media', state: 'running', sessions: 1, outputs: 2, bitrateKbps: 4500, droppedFrames: 3, sessionIds: [projectId] });
    expect(overview.failedOutputs).toContainEqual({
      sessionId,
      outputId: 'dest-bad',
      state: 'failed',
      errorCode: 'DESTINATION_REFUSED',
      at: expect.any(String),
    });
    expect(overview.failedOutputs.some((o) => o.outputId === 'dest-ok')).toBe(false);
    expect(overview.failovers).toContainEqual(expect.objectContaining({ projectId, fromWorkerId: 'media-dead', toWorkerId: workerId, gapMs: 4200 }));

    // A draining worker is shown as draining.
    await heartbeat.drain();
    const after = fleetOverviewSchema.parse((await call(api, admin, 'GET', '/api/v1/admin/fleet')).body);
    expect(after.workers.find((w) => w.id === workerId)?.state).toBe('draining');
  });

  it('serves the load history the leader samples', async () => {
    const res = await call(api, admin, 'GET', '/api/v1/admin/fleet/history');
    expect(res.status).toBe(200);
    const history = fleetLoadHistorySchema.parse(res.body);
    expect(history.intervalSeconds).toBe(5);
    expect(history.samples).toEqual([]);
    // What the leading replica samples is what every replica's route serves.
    const controller = new FleetController({
      redis: api.redis,
      workers: new WorkerRegistry(api.redis),
      queue: new SessionQueueStats(api.redis),
      history: new LoadHistory(api.redis, 5000),
      logger,
      tickMs: 5000,
      holderId: 'test-leader',
    });
    expect(await controller.tick()).toEqual({ leader: true });
    await controller.stop();
    const after = fleetLoadHistorySchema.parse((await call(api, admin, 'GET', '/api/v1/admin/fleet/history')).body);
    expect(after.samples).toHaveLength(1);
    // The worker was set draining by the test before.
    expect(after.samples[0]).toMatchObject({ mediaWorkers: 0, drainingWorkers: 1, sessions: 1, outputs: 2, bitrateKbps: 4500 });
  });

  it('reports queue depth and how long the oldest session has waited', async () => {
    const name = `sessions-test-${randomBytes(4).toString('hex')}`;
    const queue = new Queue(name, { connection: api.redis });
    const stats = new SessionQueueStats(api.redis, name);
    const history = new LoadHistory(api.redis, 5000, `test:fleet:history:${name}`);
    try {
      await queue.add('session', { n: 1 }, { timestamp: Date.now() - 7000 });
      await queue.add('session', { n: 2 });
      await queue.add('session', { n: 3 }, { delay: 60_000 });
      const reader = new FleetOverviewReader(api.redis, new WorkerRegistry(api.redis), stats, history, 5000);
      const overview = await reader.overview();
      expect(overview.queue).toMatchObject({ waiting: 2, delayed: 1, active: 0 });
      expect(overview.queue.oldestWaitingMs).toBeGreaterThanOrEqual(7000);
      expect(overview.queue.oldestWaitingMs).toBeLessThan(60_000);

      // The leader's sample of the same moment counts the queued sessions and this test's worker.
      const controller = new FleetController({
        redis: api.redis,
        workers: new WorkerRegistry(api.redis),
        queue: stats,
        logger,
        tickMs: 5000,
        holderId: 'test',
        leaseKey: `test:fleet:leader:${name}`,
        history,
      });
      expect(await controller.tick()).toEqual({ leader: true });
      const [sample] = (await reader.loadHistory()).samples;
      expect(sample).toMatchObject({ queued: 3 });
      expect(sample!.sessions).toBeGreaterThanOrEqual(1);
      await controller.lease.release();
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      await api.redis.del(`test:fleet:history:${name}`);
    }
  });
});
