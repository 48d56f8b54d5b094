import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry, collectDefaultMetrics } from 'prom-client';

/** A process's own Prometheus registry, with Node's default metrics under the given prefix. */
export function createMetricsRegistry(prefix: string): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix });
  return registry;
}

/**
 * The small HTTP endpoint a worker exposes: `/metrics` for Prometheus, `/healthz` for the
 * orchestrator's liveness probe. Workers have no other HTTP surface.
 */
export async function startMetricsServer(registry: Registry, port: number, host = '0.0.0.0'): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    if (req.url === '/metrics') {
      registry
        .metrics()
        .then((body) => {
          res.writeHead(200, { 'content-type': registry.contentType });
          res.end(body);
        })
        .catch(() => {
          res.writeHead(500);
          res.end();
        });
      return;
    }
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, uptimeSeconds: process.uptime() }));
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
