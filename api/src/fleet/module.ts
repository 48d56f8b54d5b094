import { fleetEndpoints } from '@onair/protocol';
import type { SessionResolver } from '../http/auth-context.ts';
import type { Platform, Running } from '../module.ts';
import { createFleetController } from './create-fleet-controller.ts';
import { FleetOverviewReader } from './fleet-overview.ts';
import { LoadHistory } from './load-history.ts';
import { startPodDeathNotices } from './pod-death-notices.ts';
import { fleetRoutes } from './routes.ts';
import { SessionQueueStats } from './session-queue-stats.ts';
import { WorkerRegistry } from './worker-registry.ts';

export interface FleetServices {
  /** The workers' heartbeats (media and render). */
  workers: WorkerRegistry;
  /** The `sessions` queue as the scaler and the dashboard read it. */
  sessionQueue: SessionQueueStats;
  /** The fleet's load over the last hour, sampled by the leader. */
  loadHistory: LoadHistory;
  fleetOverview: FleetOverviewReader;
}

/** The media and render workers as the api sees them: registry, load history, dashboard, scaler. */
export const fleetModule = {
  name: 'fleet',
  build: (deps: Platform): FleetServices => {
    const workers = new WorkerRegistry(deps.redis);
    const sessionQueue = new SessionQueueStats(deps.redis);
    const loadHistory = new LoadHistory(deps.redis, deps.config.FLEET_TICK_MS);
    return {
      workers,
      sessionQueue,
      loadHistory,
      fleetOverview: new FleetOverviewReader(deps.redis, workers, sessionQueue, loadHistory, deps.config.FLEET_TICK_MS),
    };
  },
  http: {
    dashboard: {
      endpoints: fleetEndpoints,
      mount: (c: Platform & FleetServices & { resolveSession: SessionResolver }) =>
        fleetRoutes({ db: c.db, fleetOverview: c.fleetOverview, resolveSession: c.resolveSession }),
    },
  },
  jobs: {
    // Every replica runs it; only the one holding the Redis lease samples load and scales.
    controller: {
      name: 'fleet controller',
      start: (c: Platform & FleetServices): Running => {
        const fleet = createFleetController(c);
        fleet.start();
        return { close: () => fleet.stop() };
      },
    },
    // Where the scaler runs: a media-worker pod reported gone hands its sessions over at once (issue 54).
    podDeaths: {
      name: 'media-worker pod deaths',
      start: (c: Platform) => startPodDeathNotices(c),
    },
  },
};
