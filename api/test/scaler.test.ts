// The media-worker scaler against a Kubernetes API double over a real socket (the real
// @kubernetes/client-node), with the queue depth read from a real BullMQ queue on the test Redis.
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testRedisUrl } from '@onair/embedded/test-services';
import { workerHeartbeatSchema, type WorkerHeartbeat } from '@onair/protocol';
import { createLogger } from '@onair/runtime';
import { MediaScaler, POD_DELETION_COST } from '../src/fleet/scaler/media-scaler.ts';
import type { ScalingPolicy } from '../src/fleet/scaler/scaling-policy.ts';
import { SessionQueueStats } from '../src/fleet/session-queue-stats.ts';
import { KubeApiDouble } from './helpers/kube-api-double.ts';

const NAMESPACE = 'onair';
const DEPLOYMENT = 'onair-media-worker';
const LABELS = { 'app.kubernetes.io/name': 'onair-media-worker' };
const logger = createLogger('scaler-test', 'silent');

// 4-core workers at 1.1 cores a session: 2 sessions each (80 % of 4 cores = 3.2).
const policy: ScalingPolicy = {
  minReplicas: 1,
  maxReplicas: 10,
  sessionCores: 1.1,
  workerCores: 4,
  spareWorkers: 0,
  scaleDownCooldownMs: 60_000,
  scaleDownStep: 1,
};

function worker(podName: string, sessions: number, state: WorkerHeartbeat['state'] = 'running'): WorkerHeartbeat {
  const now = new Date().toISOString();
  return workerHeartbeatSchema.parse({
    id: podName,
    kind: 'media',
    host: podName,
    pid: 1,
    version: 'test',
    node: '24.21.0',
    startedAt: now,
    sentAt: now,
    state,
    cores: 4,
    cpuCores: sessions * 1.1,
    rssBytes: 1,
    sessions,
    outputs: sessions,
    pages: 0,
    bitrateKbps: sessions * 3000,
    fps: 30,
    droppedFrames: 0,
  });
}

describe('media-worker scaler', () => {
  let kube: KubeApiDouble;
  let redis: Redis;
  let queueName: string;
  let queue: Queue;
  let stats: SessionQueueStats;

  beforeAll(async () => {
    redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
  });
  afterAll(() => {
    redis.disconnect();
  });
  beforeEach(async () => {
    kube = await KubeApiDouble.start();
    queueName = `sessions-test-${randomBytes(4).toString('hex')}`;
    queue = new Queue(queueName, { connection: redis });
    stats = new SessionQueueStats(redis, queueName);
  });
  afterEach(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    await stats.close();
    await kube.close();
  });

  const scaler = (overrides: Partial<ScalingPolicy> = {}) =>
    new MediaScaler({ kubeConfig: kube.kubeConfig(NAMESPACE), namespace: NAMESPACE, deployment: DEPLOYMENT, policy: { ...policy, ...overrides }, logger });

  async function queued(): Promise<number> {
    const q = await stats.read();
    return q.waiting + q.delayed;
  }

  it('scales up at once on queue depth, and does not add pods again while they start', async () => {
    const [pod] = kube.addDeployment(NAMESPACE, DEPLOYMENT, 1, LABELS);
    for (let i = 0; i < 5; i++) await queue.add('session', { n: i });
    await queue.add('session', { n: 5 }, { delay: 60_000 });
    expect(await stats.read()).toMatchObject({ waiting: 5, delayed: 1, active: 0 });

    const s = scaler();
    const now = Date.now();
    // The one worker is full (2 of 2): 6 sessions need 3 more 2-session workers.
    const result = await s.reconcile({ now, queued: await queued(), mediaWorkers: [worker(pod!.name, 2)] });
    expect(result).toMatchObject({ previousReplicas: 1, replicas: 4, reason: 'scale-up' });
    expect(kube.replicasOf(NAMESPACE, DEPLOYMENT)).toBe(4);
    const put = kube.requests.find((r) => r.method === 'PUT');
    expect(put).toMatchObject({
      path: `/apis/apps/v1/namespaces/${NAMESPACE}/deployments/${DEPLOYMENT}/scale`,
      body: { apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 4 } },
    });

    // The three new pods have not registered yet: their slots are on the way, nothing more is asked.
    const again = await s.reconcile({ now: now + 5000, queued: await queued(), mediaWorkers: [worker(pod!.name, 2)] });
    expect(again).toMatchObject({ replicas: 4, reason: 'hold' });
    expect(kube.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('never scales up past the maximum', async () => {
    const [pod] = kube.addDeployment(NAMESPACE, DEPLOYMENT, 1, LABELS);
    for (let i = 0; i < 40; i++) await queue.add('session', { n: i });
    const result = await scaler({ maxReplicas: 5 }).reconcile({ now: Date.now(), queued: await queued(), mediaWorkers: [worker(pod!.name, 2)] });
    expect(result.replicas).toBe(5);
    expect(kube.replicasOf(NAMESPACE, DEPLOYMENT)).toBe(5);
  });

  it('marks idle pods cheapest to delete and busy ones by their sessions, only when it changes', async () => {
    const pods = kube.addDeployment(NAMESPACE, DEPLOYMENT, 3, LABELS);
    const [idle, one, two] = pods.map((p) => p.name) as [string, string, string];
    const workers = [worker(idle, 0), worker(one, 1), worker(two, 2)];
    const s = scaler();
    const result = await s.reconcile({ now: Date.now(), queued: 0, mediaWorkers: workers });
    expect(result.annotated).toEqual([
      { pod: idle, cost: -1000 },
      { pod: one, cost: 1000 },
      { pod: two, cost: 2000 },
    ]);
    const costs = Object.fromEntries(kube.podsOfDeployment(NAMESPACE, DEPLOYMENT).map((p) => [p.name, p.annotations[POD_DELETION_COST]]));
    expect(costs).toEqual({ [idle]: '-1000', [one]: '1000', [two]: '2000' });
    const patches = kube.requests.filter((r) => r.method === 'PATCH');
    expect(patches).toHaveLength(3);
    for (const p of patches) expect(p.contentType).toBe('application/merge-patch+json');

    // Nothing changed: no new patch. Then the idle worker takes a session: only its pod is patched.
    await s.reconcile({ now: Date.now(), queued: 0, mediaWorkers: workers });
    expect(kube.requests.filter((r) => r.method === 'PATCH')).toHaveLength(3);
    const later = await s.reconcile({ now: Date.now(), queued: 0, mediaWorkers: [worker(idle, 1), worker(one, 1), worker(two, 2)] });
    expect(later.annotated).toEqual([{ pod: idle, cost: 1000 }]);
  });

  it('scales down slowly, one worker per cool-down, never below the workers holding sessions, removing idle pods', async () => {
    const pods = kube.addDeployment(NAMESPACE, DEPLOYMENT, 5, LABELS).map((p) => p.name) as [string, string, string, string, string];
    // Two busy workers and three idle ones, in an order where the newest pod is busy: without the
    // deletion cost the ReplicaSet would delete the newest pods first.
    const load: Record<string, number> = { [pods[0]]: 0, [pods[1]]: 0, [pods[2]]: 0, [pods[3]]: 1, [pods[4]]: 2 };
    const workers = () => kube.podsOfDeployment(NAMESPACE, DEPLOYMENT).map((p) => worker(p.name, load[p.name] ?? 0));
    const s = scaler();
    const t0 = Date.now();

    // Fewer workers are wanted, but not yet for a whole cool-down.
    expect(await s.reconcile({ now: t0, queued: 0, mediaWorkers: workers() })).toMatchObject({ replicas: 5, wanted: 2, reason: 'cooling-down' });
    expect(await s.reconcile({ now: t0 + 30_000, queued: 0, mediaWorkers: workers() })).toMatchObject({ replicas: 5, reason: 'cooling-down' });
    expect(await s.reconcile({ now: t0 + 60_000, queued: 0, mediaWorkers: workers() })).toMatchObject({ replicas: 4, reason: 'scale-down' });
    expect(kube.replicasOf(NAMESPACE, DEPLOYMENT)).toBe(4);
    // The next step waits for another cool-down after the change.
    expect(await s.reconcile({ now: t0 + 90_000, queued: 0, mediaWorkers: workers() })).toMatchObject({ replicas: 4, reason: 'cooling-down' });
    expect(await s.reconcile({ now: t0 + 120_000, queued: 0, mediaWorkers: workers() })).toMatchObject({ replicas: 3, reason: 'scale-down' });
    expect(await s.reconcile({ now: t0 + 180_000, queued: 0, mediaWorkers: workers() })).toMatchObject({ replicas: 2, reason: 'scale-down' });
    // Two workers hold sessions: that is the floor, however long it stays quiet.
    for (const minutes of [4, 10, 60]) {
      expect(await s.reconcile({ now: t0 + minutes * 60_000, queued: 0, mediaWorkers: workers() })).toMatchObject({
        replicas: 2,
        busyWorkers: 2,
        reason: 'hold',
      });
    }
    expect(kube.replicasOf(NAMESPACE, DEPLOYMENT)).toBe(2);
    expect(kube.deletedPods.sort()).toEqual([pods[0], pods[1], pods[2]].sort());
    expect(
      kube
        .podsOfDeployment(NAMESPACE, DEPLOYMENT)
        .map((p) => p.name)
        .sort(),
    ).toEqual([pods[3], pods[4]].sort());
  });

  it('keeps busy workers even when the minimum and the maximum are lower', async () => {
    const pods = kube.addDeployment(NAMESPACE, DEPLOYMENT, 4, LABELS).map((p) => p.name);
    const s = scaler({ minReplicas: 0, maxReplicas: 2, scaleDownCooldownMs: 0 });
    const result = await s.reconcile({ now: Date.now(), queued: 0, mediaWorkers: pods.map((p) => worker(p, 1)) });
    expect(result).toMatchObject({ replicas: 4, busyWorkers: 4, reason: 'hold' });
    expect(kube.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });

  it('a refused token fails the tick with the API status, changing nothing', async () => {
    kube.addDeployment(NAMESPACE, DEPLOYMENT, 1, LABELS);
    const kc = kube.kubeConfig(NAMESPACE);
    kc.users[0] = { name: 'scaler', token: 'wrong' };
    const s = new MediaScaler({ kubeConfig: kc, namespace: NAMESPACE, deployment: DEPLOYMENT, policy, logger });
    await expect(s.reconcile({ now: Date.now(), queued: 10, mediaWorkers: [] })).rejects.toThrow(/401/);
    expect(kube.replicasOf(NAMESPACE, DEPLOYMENT)).toBe(1);
  });
});
