import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { workerKinds } from '@onair/protocol';
import { createMetricsRegistry } from '@onair/runtime';
import type { WorkerRegistry } from '../fleet/worker-registry.ts';

export interface ApiMetrics {
  registry: Registry;
  httpMiddleware: RequestHandler;
  /** Rendering failures the web app reported (POST /api/v1/client-errors). */
  clientErrors: Counter;
}

export function createApiMetrics(workers: WorkerRegistry): ApiMetrics {
  const registry = createMetricsRegistry('onair_api_');
  const duration = new Histogram({
    name: 'onair_api_http_request_duration_seconds',
    help: 'Duration of HTTP requests by route template, method and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'onair_api_http_errors_total',
    help: 'HTTP responses with status >= 500.',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'onair_fleet_workers',
    help: 'Live workers in the registry by kind and state.',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const kind of workerKinds) {
        for (const w of await workers.list(kind)) this.inc({ kind, state: w.state });
      }
    },
  });

  const httpMiddleware: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      // The route template, not the raw path, keeps label cardinality bounded.
      const route = (req.route as { path?: string } | undefined)?.path ?? (res.statusCode === 404 ? 'unmatched' : req.baseUrl || 'static');
      end({ method: req.method, route, status: String(res.statusCode) });
      if (res.statusCode >= 500) errors.inc({ route });
    });
    next();
  };
  const clientErrors = new Counter({
    name: 'onair_api_client_errors_total',
    help: 'Rendering failures reported by the web app (client_error log lines).',
    registers: [registry],
  });
  return { registry, httpMiddleware, clientErrors };
}
