import { describe, expect, it } from 'vitest';
import { testRedisUrl } from '@onair/embedded/test-services';
import { SimulatedFleet, type AdmitFn } from './simulated-fleet.ts';

describe('SimulatedFleet', () => {
  it('puts a refused session back for another worker, and admission sees each worker’s commitment', async () => {
    let refusals = 0;
    const seen: number[] = [];
    // sim-media-0 refuses everything (as a draining or full worker would); the others take two each.
    const admit: AdmitFn = (worker) => {
      seen.push(worker.committedCores);
      if (worker.id === 'sim-media-0' || worker.sessions >= 2) {
        refusals += 1;
        return false;
      }
      return true;
    };
    const fleet = new SimulatedFleet({ redisUrl: testRedisUrl(), workers: 3, coresPerWorker: 4, admit, refusedBackoffMs: 20 });
    try {
      await fleet.start();
      for (let i = 0; i < 4; i++) await fleet.request(1.5);
      await fleet.until(() => fleet.placements.length >= 4, 20_000, '4 placements');
      const perWorker = fleet.sessionsPerWorker();
      expect(perWorker.get('sim-media-0')).toBe(0);
      expect(perWorker.get('sim-media-1')).toBe(2);
      expect(perWorker.get('sim-media-2')).toBe(2);
      // A fifth session has nowhere to go: it waits in the queue.
      await fleet.request(1.5);
      await new Promise((r) => setTimeout(r, 300));
      expect(fleet.placements).toHaveLength(4);
      expect(refusals).toBeGreaterThan(0);
      expect(Math.max(...seen)).toBe(3); // a full worker (two 1.5-core sessions) was asked, and refused
      // Four held sessions are active jobs; the fifth waits (or is, for an instant, active while a
      // worker looks at it and puts it back).
      const counts = await fleet.queueCounts();
      expect((counts.waiting ?? 0) + (counts.active ?? 0)).toBe(5);
      expect(counts.completed ?? 0).toBe(0);
    } finally {
      await fleet.close();
    }
  });
});
