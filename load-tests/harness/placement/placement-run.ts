import { DECODED_SOURCE_CORES, SESSION_BASE_CORES } from '@onair/protocol';
import { percentiles } from '../stats.ts';
import { SimulatedFleet, type AdmitFn, type Placement } from './simulated-fleet.ts';

export interface PlacementRunOptions {
  redisUrl: string;
  workers: number;
  sessions: number;
  coresPerWorker: number;
  /** Sessions asked for per second. */
  rate: number;
  /** Workers killed (kill -9) once every session is placed. */
  kill: number;
  /** The whole run gives up after this long. */
  timeoutMs: number;
  admit?: AdmitFn;
  lockMs?: number;
  stalledCheckMs?: number;
  /** Killed workers' pods are reported gone through a Kubernetes watch, which releases their sessions at once (SimulatedFleet's podWatch). */
  podWatch?: boolean;
}

export interface LatencyFigures {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface PlacementReport {
  placement: LatencyFigures & { totalMs: number };
  spread: { minSessions: number; maxSessions: number };
  failover: (LatencyFigures & { killedWorkers: number; lostSessions: number; recovered: number }) | null;
}

/** Limits that keep one run from hurting the machine it shares. */
export const LIMITS = { workers: 200, sessions: 5000, rate: 2000, timeoutMs: 600_000 } as const;

export function figures(samples: readonly number[]): LatencyFigures {
  const p = percentiles(samples, [50, 95, 99, 100]);
  return { count: samples.length, p50: p.p50!, p95: p.p95!, p99: p.p99!, max: p.p100! };
}

/** A mix of studio sessions: mostly 720p, some 1080p, with zero to three live sources. */
export function sessionCostAt(i: number): number {
  const resolution = i % 5 === 4 ? '1080p' : '720p';
  return SESSION_BASE_CORES[resolution] + (i % 4) * DECODED_SOURCE_CORES;
}

/**
 * Places `sessions` sessions on `workers` simulated workers at `rate` per second, then kills
 * `kill` of the busiest workers and waits until every session they held runs elsewhere.
 */
export async function runPlacement(options: PlacementRunOptions): Promise<PlacementReport> {
  if (options.workers > LIMITS.workers || options.sessions > LIMITS.sessions || options.rate > LIMITS.rate || options.timeoutMs > LIMITS.timeoutMs) {
    throw new Error(`a run is bounded: at most ${JSON.stringify(LIMITS)}`);
  }
  const host = new URL(options.redisUrl).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) throw new Error('the harness only uses a loopback Redis');

  const deadline = Date.now() + options.timeoutMs;
  const fleet = new SimulatedFleet({
    redisUrl: options.redisUrl,
    workers: options.workers,
    coresPerWorker: options.coresPerWorker,
    ...(options.admit ? { admit: options.admit } : {}),
    ...(options.lockMs ? { lockMs: options.lockMs } : {}),
    ...(options.stalledCheckMs ? { stalledCheckMs: options.stalledCheckMs } : {}),
    ...(options.podWatch ? { podWatch: true } : {}),
  });
  try {
    await fleet.start();
    const started = Date.now();
    const gapMs = 1000 / options.rate;
    for (let i = 0; i < options.sessions; i++) {
      // Paced against the clock, not by sleeps that drift.
      const due = started + i * gapMs;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      await fleet.request(sessionCostAt(i));
    }
    const firstPlacements = () => fleet.placements.filter((p) => !p.pickup);
    await fleet.until(() => firstPlacements().length >= options.sessions, deadline - Date.now(), `${options.sessions} placements`);
    const placed = firstPlacements();
    const counts = [...fleet.sessionsPerWorker().values()];
    const report: PlacementReport = {
      placement: { ...figures(placed.map((p) => p.latencyMs)), totalMs: Math.max(...placed.map((p) => p.at)) - started },
      spread: { minSessions: Math.min(...counts), maxSessions: Math.max(...counts) },
      failover: null,
    };
    if (options.kill > 0) {
      const killed = await fleet.kill(options.kill);
      const lost = new Set(killed.sessions);
      const pickups = (): Placement[] => fleet.placements.filter((p) => p.pickup && lost.has(p.projectId) && p.at >= killed.at);
      await fleet.until(() => new Set(pickups().map((p) => p.projectId)).size >= lost.size, deadline - Date.now(), `${lost.size} pick-ups after the kill`);
      const firstPickup = new Map<string, Placement>();
      for (const p of pickups()) if (!firstPickup.has(p.projectId)) firstPickup.set(p.projectId, p);
      report.failover = {
        ...figures([...firstPickup.values()].map((p) => p.latencyMs)),
        killedWorkers: killed.workers.length,
        lostSessions: lost.size,
        recovered: firstPickup.size,
      };
    }
    return report;
  } finally {
    await fleet.close();
  }
}

export function formatReport(options: PlacementRunOptions, report: PlacementReport): string {
  const f = (n: number) => `${Math.round(n)} ms`;
  const lines = [
    `placement harness: ${options.workers} workers x ${options.coresPerWorker} cores, ${options.sessions} sessions at ${options.rate}/s`,
    `placement latency (request to admission): p50 ${f(report.placement.p50)}  p95 ${f(report.placement.p95)}  p99 ${f(report.placement.p99)}  max ${f(report.placement.max)}; all placed ${f(report.placement.totalMs)} after the first request`,
    `sessions per worker: ${report.spread.minSessions} to ${report.spread.maxSessions}`,
  ];
  if (report.failover) {
    const fo = report.failover;
    lines.push(
      `failover (kill -9 of ${fo.killedWorkers} busiest workers, ${fo.lostSessions} sessions${options.podWatch ? ', pods reported gone by the Kubernetes watch' : ''}): ${fo.recovered} picked up; kill to re-admission p50 ${f(fo.p50)}  p95 ${f(fo.p95)}  max ${f(fo.max)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
