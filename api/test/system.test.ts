import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, readinessSchema } from '@onair/protocol';
import { createLogger, HeartbeatPublisher } from '@onair/runtime';
import { startTestApi, type TestApi } from './helpers/api-server.ts';

const idleLoad = () => ({ sessions: 0, outputs: 0, pages: 0, bitrateKbps: 0, fps: 0, droppedFrames: 0 });

describe('api system endpoints', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers /healthz', async () => {
    const res = await fetch(`${api.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true });
  });

  it('is not ready without workers, and ready once one media and one render worker beat', async () => {
    // Other test files share this Redis: clear the registry so the first answer is known.
    const stale = await api.redis.keys('onair:workers:*');
    if (stale.length) await api.redis.del(...stale);

    const before = await fetch(`${api.url}/readyz`);
    expect(before.status).toBe(503);
    const notReady = readinessSchema.parse(await before.json());
    expect(notReady.ready).toBe(false);
    expect(notReady.checks.database.ok).toBe(true);
    expect(notReady.checks.redis.ok).toBe(true);
    expect(notReady.checks.mediaWorkers).toMatchObject({ ok: false, count: 0 });
    // The api itself can serve (the Kubernetes readiness probe asks this), with the workers reported.
    const apiOnly = await fetch(`${api.url}/readyz?scope=api`);
    expect(apiOnly.status).toBe(200);
    expect(readinessSchema.parse(await apiOnly.json())).toMatchObject({ ready: true, checks: { mediaWorkers: { ok: false, count: 0 } } });
    expect((await fetch(`${api.url}/readyz?scope=everything`)).status).toBe(400);

    const logger = createLogger('test', 'silent');
    const media = new HeartbeatPublisher({ redis: api.redis, kind: 'media', id: 'media-a', version: 't', logger, load: idleLoad, intervalMs: 200 });
    const render = new HeartbeatPublisher({ redis: api.redis, kind: 'render', id: 'render-a', version: 't', logger, load: idleLoad, intervalMs: 200 });
    await media.start();
    await render.start();
    try {
      const after = await fetch(`${api.url}/readyz`);
      expect(after.status).toBe(200);
      expect(readinessSchema.parse(await after.json())).toMatchObject({ ready: true, checks: { mediaWorkers: { count: 1 }, renderWorkers: { count: 1 } } });

      // A draining worker takes no new work, so it does not make the system ready.
      await media.drain();
      expect((await fetch(`${api.url}/readyz`)).status).toBe(503);

      const metrics = await (await fetch(`${api.url}/metrics`)).text();
      expect(metrics).toContain('onair_fleet_workers{kind="render",state="running"} 1');
      // The api runs on Node 24 LTS: Node's own version metric says so.
      expect(metrics).toMatch(/nodejs_version_info\{version="v24\.\d+\.\d+",major="24"/);
      expect(metrics).toContain('onair_fleet_workers{kind="media",state="draining"} 1');
    } finally {
      await media.stop();
      await render.stop();
    }
  });

  it('serves an OpenAPI 3.1 document generated from the endpoint contracts', async () => {
    const res = await fetch(`${api.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/readyz']?.get?.operationId).toBe('readyz');
    expect(Object.keys(doc.paths['/readyz']?.get?.responses ?? {})).toEqual(expect.arrayContaining(['200', '503', 'default']));
  });

  it('answers unknown API paths, malformed JSON and oversized bodies with the one error format', async () => {
    const cases: [RequestInit & { path: string }, number, string][] = [
      [{ path: '/api/v1/no-such-thing' }, 404, 'NOT_FOUND'],
      [{ path: '/api/v1/anything', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"broken":' }, 400, 'MALFORMED_JSON'],
      [
        {
          path: '/api/v1/anything',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ blob: 'x'.repeat(2 * 1024 * 1024) }),
        },
        413,
        'PAYLOAD_TOO_LARGE',
      ],
    ];
    for (const [{ path, ...init }, status, code] of cases) {
      const res = await fetch(`${api.url}${path}`, init);
      expect(res.status, path).toBe(status);
      const body = errorBodySchema.parse(await res.json());
      expect(body.error.code).toBe(code);
      expect(body.error.message.length).toBeGreaterThan(0);
    }
  });
});
