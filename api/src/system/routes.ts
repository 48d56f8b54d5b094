import { Router } from 'express';
import type { Redis } from 'ioredis';
import { healthzEndpoint, readyzEndpoint, type Readiness } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { WorkerRegistry } from '../fleet/worker-registry.ts';
import { mount, Reply } from '../http/mount.ts';

async function check(probe: () => Promise<unknown>): Promise<{ ok: boolean; detail?: string }> {
  try {
    await probe();
    return { ok: true };
  } catch (err) {
    return { ok: false, detail: (err as Error).message };
  }
}

export function systemRoutes(deps: { db: Db; redis: Redis; workers: WorkerRegistry }): Router {
  const router = Router();
  mount(router, healthzEndpoint, async () => ({ ok: true as const, uptimeSeconds: process.uptime() }));
  mount(router, readyzEndpoint, async ({ query }) => {
    const [database, redis, media, render] = await Promise.all([
      check(() => deps.db.$queryRaw`SELECT 1`),
      check(() => deps.redis.ping()),
      deps.workers.list('media').catch(() => []),
      deps.workers.list('render').catch(() => []),
    ]);
    const running = (ws: { state: string }[]) => ws.filter((w) => w.state === 'running').length;
    const mediaCount = running(media);
    const renderCount = running(render);
    const body: Readiness = {
      ready: database.ok && redis.ok && (query.scope === 'api' || (mediaCount > 0 && renderCount > 0)),
      checks: {
        database,
        redis,
        mediaWorkers: { ok: mediaCount > 0, count: mediaCount, ...(mediaCount ? {} : { detail: 'no live media worker' }) },
        renderWorkers: { ok: renderCount > 0, count: renderCount, ...(renderCount ? {} : { detail: 'no live render worker' }) },
      },
    };
    return body.ready ? body : new Reply(503, body);
  });
  return router;
}
