import { Router } from 'express';
import { healthzEndpoint, readyzEndpoint, reportClientErrorEndpoint } from '@onair/protocol';
import type { WorkerRegistry } from '../fleet/worker-registry.ts';
import { middleware, type Platform } from '../module.ts';
import { createApiMetrics, type ApiMetrics } from './metrics.ts';
import { clientErrorRoutes } from './client-errors.ts';
import { systemRoutes } from './routes.ts';

export interface SystemServices {
  /** The api's Prometheus metrics (HTTP and the fleet's workers). */
  metrics: ApiMetrics;
}

/** Health, readiness and metrics of the api process. */
export const systemModule = {
  name: 'system',
  build: (deps: { workers: WorkerRegistry }): SystemServices => ({ metrics: createApiMetrics(deps.workers) }),
  http: {
    requestMetrics: middleware((c: SystemServices) => c.metrics.httpMiddleware),
    health: {
      endpoints: [healthzEndpoint, readyzEndpoint],
      mount: (c: Platform & { workers: WorkerRegistry }) => systemRoutes({ db: c.db, redis: c.redis, workers: c.workers }),
    },
    /** The web app's error boundaries report here (after the JSON parser). */
    clientErrors: {
      endpoints: [reportClientErrorEndpoint],
      mount: (c: Platform & SystemServices) =>
        clientErrorRoutes({ redis: c.redis, logger: c.logger, metrics: c.metrics, perMinute: c.config.CLIENT_ERRORS_PER_MINUTE }),
    },
    metrics: middleware((c: SystemServices) =>
      Router().get('/metrics', async (_req, res) => {
        res.type(c.metrics.registry.contentType).send(await c.metrics.registry.metrics());
      }),
    ),
  },
};
