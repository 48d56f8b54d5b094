import { describe, expect, it } from 'vitest';
import { decideReplicas, slotsPerWorker, type ScalingPolicy } from './scaling-policy.ts';

const policy: ScalingPolicy = {
  minReplicas: 1,
  maxReplicas: 10,
  sessionCores: 1.1,
  workerCores: 4,
  spareWorkers: 1,
  scaleDownCooldownMs: 60_000,
  scaleDownStep: 1,
};
const w = (sessions: number, state: 'running' | 'draining' = 'running', cores = 4) => ({ sessions, state, cores });

describe('decideReplicas', () => {
  it('sizes slots by 80 % of the cores, at least one per worker', () => {
    expect(slotsPerWorker(4, 1.1)).toBe(2);
    expect(slotsPerWorker(16, 0.8)).toBe(16);
    expect(slotsPerWorker(1, 1.35)).toBe(1);
  });

  it('uses free slots before asking for pods', () => {
    expect(decideReplicas(policy, { now: 0, replicas: 2, queued: 3, workers: [w(0), w(1)] }, {})).toMatchObject({ replicas: 2, reason: 'hold' });
    expect(decideReplicas(policy, { now: 0, replicas: 2, queued: 4, workers: [w(0), w(1)] }, {})).toMatchObject({ replicas: 3, reason: 'scale-up' });
  });

  it('does not count draining workers as capacity', () => {
    // The draining worker is no longer a replica of the Deployment (its pod is terminating).
    expect(decideReplicas(policy, { now: 0, replicas: 1, queued: 2, workers: [w(0, 'draining'), w(2)] }, {})).toMatchObject({
      replicas: 2,
      reason: 'scale-up',
    });
  });

  it('counts a worker’s slots by the pod’s cores when its heartbeat reports the node’s', () => {
    // A 64-core node reports 64 cores; the pod has 4 (two slots): one waiting session needs a new pod.
    expect(decideReplicas(policy, { now: 0, replicas: 1, queued: 1, workers: [w(2, 'running', 64)] }, {})).toMatchObject({ replicas: 2, reason: 'scale-up' });
  });

  it('brings the fleet up to the minimum at once', () => {
    expect(decideReplicas({ ...policy, minReplicas: 3 }, { now: 0, replicas: 0, queued: 0, workers: [] }, {})).toMatchObject({
      replicas: 3,
      reason: 'below-minimum',
    });
  });

  it('keeps warm spares and a queue that is about to land', () => {
    // One busy worker (full), three waiting sessions: two more workers for them plus one spare.
    expect(decideReplicas(policy, { now: 0, replicas: 4, queued: 3, workers: [w(2), w(0), w(0), w(0)] }, {})).toMatchObject({ wanted: 4, reason: 'hold' });
  });

  it('resets the cool-down when the load comes back', () => {
    const first = decideReplicas(policy, { now: 0, replicas: 4, queued: 0, workers: [w(1), w(0), w(0), w(0)] }, {});
    expect(first).toMatchObject({ reason: 'cooling-down', wanted: 2 });
    const busyAgain = decideReplicas(policy, { now: 30_000, replicas: 4, queued: 0, workers: [w(1), w(1), w(1), w(0)] }, first.memory);
    expect(busyAgain.memory.lowerWantedSince).toBeUndefined();
    const quietAgain = decideReplicas(policy, { now: 70_000, replicas: 4, queued: 0, workers: [w(1), w(0), w(0), w(0)] }, busyAgain.memory);
    expect(quietAgain).toMatchObject({ replicas: 4, reason: 'cooling-down' });
  });
});
