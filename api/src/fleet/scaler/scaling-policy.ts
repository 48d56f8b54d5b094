import { ADMISSION_CPU_SHARE, type WorkerHeartbeat } from '@onair/protocol';

/** How the media-worker fleet is sized; from SCALER_* (see ./config.ts). */
export interface ScalingPolicy {
  minReplicas: number;
  maxReplicas: number;
  /** Cores one session is assumed to cost when sizing (a 720p session with two live sources). */
  sessionCores: number;
  /** Cores of a worker that has not reported yet (the pod's CPU request). */
  workerCores: number;
  /** Idle workers kept warm so a new session is placed at once rather than after a pod start. */
  spareWorkers: number;
  /** A lower replica count must be wanted this long, and this long after any change, before it is applied. */
  scaleDownCooldownMs: number;
  /** At most this many workers are removed per scale-down. */
  scaleDownStep: number;
}

export interface ScalingInput {
  now: number;
  /** The Deployment's replica count now. */
  replicas: number;
  /** Sessions waiting for a worker (BullMQ waiting + delayed). */
  queued: number;
  /** Live media workers from the registry. Draining ones no longer count as replicas. */
  workers: readonly Pick<WorkerHeartbeat, 'state' | 'cores' | 'sessions'>[];
}

/** What the scaler remembers between ticks, so scale-downs wait out their cool-down. */
export interface ScalingMemory {
  lastChangeAt?: number;
  /** Since when fewer replicas than now have been wanted without a break. */
  lowerWantedSince?: number;
}

export interface ScalingDecision {
  replicas: number;
  /** Replicas the load calls for right now, before cool-down and step limits. */
  wanted: number;
  /** Workers that hold sessions: the floor no scale-down goes under. */
  busyWorkers: number;
  reason: 'scale-up' | 'scale-down' | 'hold' | 'cooling-down' | 'below-minimum';
  memory: ScalingMemory;
}

/** Sessions a worker of `cores` cores admits at `sessionCores` each (at least one, as admission does). */
export function slotsPerWorker(cores: number, sessionCores: number): number {
  return Math.max(1, Math.floor((cores * ADMISSION_CPU_SHARE + 1e-9) / sessionCores));
}

/**
 * The media-worker replica count for one tick. Scale up at once when waiting sessions exceed the
 * free slots (of running workers and of pods still starting); scale down only after the lower
 * count has been wanted for the whole cool-down, one step at a time, and never below the number
 * of workers holding sessions: a session cannot move without a visible gap, so a busy worker is
 * never the one asked to go (the scaler also marks idle pods cheapest to delete).
 */
export function decideReplicas(policy: ScalingPolicy, input: ScalingInput, memory: ScalingMemory): ScalingDecision {
  const running = input.workers.filter((w) => w.state === 'running');
  const busy = running.filter((w) => w.sessions > 0);
  const slotsNew = slotsPerWorker(policy.workerCores, policy.sessionCores);
  // A heartbeat's `cores` is os.cpus(), which in a container counts the node's cores: never
  // believe more than the pod's own (`workerCores`, its CPU request).
  const coresOf = (w: (typeof running)[number]) => Math.min(w.cores, policy.workerCores);
  const free = (ws: typeof running) => ws.reduce((sum, w) => sum + Math.max(0, slotsPerWorker(coresOf(w), policy.sessionCores) - w.sessions), 0);
  // Pods the Deployment has but that have not registered yet are on their way: count their slots,
  // or every tick during a pod's start-up would add another pod.
  const starting = Math.max(0, input.replicas - running.length);
  const shortfall = Math.max(0, input.queued - free(running) - starting * slotsNew);
  const floor = busy.length;

  if (shortfall > 0 || input.replicas < policy.minReplicas) {
    const wanted = Math.max(policy.minReplicas, input.replicas + Math.ceil(shortfall / slotsNew));
    const replicas = Math.max(Math.min(wanted, policy.maxReplicas), Math.min(input.replicas, policy.maxReplicas), floor);
    if (replicas > input.replicas) {
      return { replicas, wanted, busyWorkers: busy.length, reason: shortfall > 0 ? 'scale-up' : 'below-minimum', memory: { lastChangeAt: input.now } };
    }
    return { replicas: input.replicas, wanted, busyWorkers: busy.length, reason: 'hold', memory: { ...memory, lowerWantedSince: undefined } };
  }

  // Enough room: how many workers would do? Those holding sessions, plus what the waiting
  // sessions need beyond the busy workers' free slots, plus the warm spares.
  const needOnNew = Math.max(0, input.queued - free(busy));
  const wanted = Math.min(policy.maxReplicas, Math.max(policy.minReplicas, busy.length + Math.ceil(needOnNew / slotsNew) + policy.spareWorkers));
  const target = Math.max(wanted, floor);
  if (target >= input.replicas) {
    return { replicas: input.replicas, wanted: target, busyWorkers: busy.length, reason: 'hold', memory: { ...memory, lowerWantedSince: undefined } };
  }
  const lowerWantedSince = memory.lowerWantedSince ?? input.now;
  const cooledDown = input.now - lowerWantedSince >= policy.scaleDownCooldownMs && input.now - (memory.lastChangeAt ?? -Infinity) >= policy.scaleDownCooldownMs;
  if (!cooledDown) {
    return { replicas: input.replicas, wanted: target, busyWorkers: busy.length, reason: 'cooling-down', memory: { ...memory, lowerWantedSince } };
  }
  const replicas = Math.max(target, input.replicas - policy.scaleDownStep);
  // Still wanted lower from here on: the next step waits one more cool-down, not a fresh streak.
  return { replicas, wanted: target, busyWorkers: busy.length, reason: 'scale-down', memory: { lastChangeAt: input.now, lowerWantedSince: input.now } };
}
