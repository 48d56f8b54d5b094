import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Readiness } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import { useSystemStore, useToastStore } from '../stores/index.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { refreshReadiness } from './system.ts';

function readiness(ready: boolean): Readiness {
  return {
    ready,
    checks: {
      database: { ok: true },
      redis: { ok: true },
      mediaWorkers: ready ? { ok: true, count: 1 } : { ok: false, count: 0, detail: 'no media worker heartbeat' },
      renderWorkers: { ok: true, count: 1 },
    },
  };
}

let server: TestServer | undefined;
let answer: { status: number; body: unknown; delayMs?: number };

beforeEach(async () => {
  useSystemStore.setState({ readiness: { kind: 'checking' } });
  useToastStore.setState({ toasts: [] });
  answer = { status: 200, body: readiness(true) };
  server = await startTestServer((req, res) => {
    expect(req.url).toBe('/readyz');
    const { status, body, delayMs = 0 } = answer;
    setTimeout(() => sendJson(res, status, body), delayMs);
  });
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = () => createHttpClient({ baseUrl: server?.baseUrl ?? '', timeoutMs: 2000 });

describe('refreshReadiness', () => {
  it('records a ready system without a toast on the first answer', async () => {
    const status = await refreshReadiness(client());
    expect(status.kind).toBe('ready');
    expect(useSystemStore.getState().readiness).toMatchObject({ kind: 'ready', readiness: readiness(true) });
    expect(useToastStore.getState().toasts).toEqual([]);
  });

  it('records a 503 answer as degraded and warns when that is a change', async () => {
    await refreshReadiness(client());
    answer = { status: 503, body: readiness(false) };
    const status = await refreshReadiness(client());
    expect(status.kind).toBe('degraded');
    expect(useToastStore.getState().toasts).toMatchObject([
      { kind: 'warning', title: 'Some OnAir services are down', description: 'Media workers (0) is down.' },
    ]);
  });

  it('records an unusable answer as unreachable', async () => {
    answer = { status: 500, body: { error: 'boom' } };
    const status = await refreshReadiness(client());
    expect(status).toMatchObject({ kind: 'unreachable', reason: 'Request failed with status 500' });
  });

  it('announces recovery once the api is ready again', async () => {
    answer = { status: 503, body: readiness(false) };
    await refreshReadiness(client());
    answer = { status: 200, body: readiness(true) };
    await refreshReadiness(client());
    expect(useToastStore.getState().toasts.map((toast) => toast.kind)).toEqual(['success']);
  });

  it('lets a newer check win over an older one that answers later', async () => {
    answer = { status: 503, body: readiness(false), delayMs: 300 };
    const older = refreshReadiness(client());
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer = { status: 200, body: readiness(true) };
    await refreshReadiness(client());
    await older;
    expect(useSystemStore.getState().readiness.kind).toBe('ready');
  });
});
