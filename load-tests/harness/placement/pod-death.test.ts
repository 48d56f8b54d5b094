// Issue 54 item 2 in the simulated fleet: a killed worker's pod reported gone by the Kubernetes
// watch (runtime's PodDeathWatch on @kubernetes/client-node, against an API double) releases its
// sessions at once. The locks are made long (60 s): only the death notice can explain the pick-ups.
import { describe, expect, it } from 'vitest';
import { testRedisUrl } from '@onair/embedded/test-services';
import { figures } from './placement-run.ts';
import { SimulatedFleet } from './simulated-fleet.ts';

const LONG_LOCK_MS = 60_000;

describe('death notices in the simulated fleet', () => {
  it("hands a killed worker's sessions over when the watch reports its pod gone, not when its locks lapse", async () => {
    const fleet = new SimulatedFleet({ redisUrl: testRedisUrl(), workers: 3, coresPerWorker: 8, lockMs: LONG_LOCK_MS, podWatch: true });
    try {
      await fleet.start();
      for (let i = 0; i < 9; i++) await fleet.request(1);
      await fleet.until(() => fleet.placements.length >= 9, 20_000, '9 placements');
      const killed = await fleet.kill(1);
      expect(killed.sessions.length).toBeGreaterThan(0);
      const lost = new Set(killed.sessions);
      const pickups = () => fleet.placements.filter((p) => p.pickup && lost.has(p.projectId));
      // Well inside the locks: a pick-up here was released, never lapsed.
      // (The watch's notice callback runs after the release it reports: the moved sessions can be
      // placed again before it, so both are awaited.)
      await fleet.until(() => pickups().length >= lost.size && fleet.notices.length > 0, LONG_LOCK_MS / 2, `${lost.size} pick-ups and the notice`);

      // The watch told of exactly the killed worker, and its notice released exactly its sessions.
      expect(fleet.notices.map((n) => n.workerId)).toEqual(killed.workers);
      expect(new Set(fleet.notices[0]!.released)).toEqual(lost);
      // No pick-up landed on the dead worker, and every session runs once.
      expect(pickups().every((p) => !killed.workers.includes(p.workerId))).toBe(true);
      const perWorker = fleet.sessionsPerWorker();
      expect([...perWorker.values()].reduce((a, b) => a + b, 0)).toBe(9);
      const counts = await fleet.queueCounts();
      expect(counts.active).toBe(9);

      const f = figures(pickups().map((p) => p.latencyMs));
      process.stdout.write(
        `simulated fleet, pod gone (watch) after kill -9, locks ${LONG_LOCK_MS / 1000} s: ${f.count} sessions re-admitted p50 ${Math.round(f.p50)} ms, max ${Math.round(f.max)} ms after the kill; notice sent (all moved) ${fleet.notices[0]!.at - killed.at} ms after it\n`,
      );
    } finally {
      await fleet.close();
    }
  });
});
