import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FleetLoadHistory, FleetOverview } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import { initialFleetState, useFleetStore } from '../stores/index.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { refreshFleet, refreshFleetHistory, watchFleet } from './fleet.ts';

const now = new Date().toISOString();
const overview: FleetOverview = {
  at: now,
  workers: [
    {
      id: 'media-1',
      kind: 'media',
      host: 'pod-a',
      pid: 10,
      version: '0.1.0',
      node: '24.21.0',
      startedAt: now,
      sentAt: now,
      state: 'running',
      cores: 8,
      cpuCores: 2,
      rssBytes: 200 * 1024 * 1024,
      sessions: 1,
      outputs: 2,
      pages: 0,
      bitrateKbps: 4500,
      fps: 30,
      droppedFrames: 0,
      sessionIds: ['4b7a3c1e-1f7e-4c7a-9f7e-0a1b2c3d4e5f'],
    },
  ],
  queue: { waiting: 1, delayed: 0, active: 1, oldestWaitingMs: 1200 },
  failedOutputs: [],
  failovers: [],
  leader: 'api-0',
};
const history: FleetLoadHistory = {
  intervalSeconds: 5,
  samples: [{ at: now, mediaWorkers: 1, drainingWorkers: 0, renderWorkers: 1, sessions: 1, queued: 1, cpuCores: 2, cores: 8, outputs: 2, bitrateKbps: 4500 }],
};

let server: TestServer | undefined;
let answers: Record<string, { status: number; body: unknown }>;
const requests: string[] = [];

beforeEach(async () => {
  useFleetStore.setState(initialFleetState);
  requests.length = 0;
  answers = { '/api/v1/admin/fleet': { status: 200, body: overview }, '/api/v1/admin/fleet/history': { status: 200, body: history } };
  server = await startTestServer((req, res) => {
    requests.push(req.url ?? '');
    const answer = answers[req.url ?? ''] ?? { status: 404, body: { error: { code: 'NOT_FOUND', message: 'no' } } };
    sendJson(res, answer.status, answer.body);
  });
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = () => createHttpClient({ baseUrl: server?.baseUrl ?? '', timeoutMs: 2000 });

describe('fleet actions', () => {
  it('stores the overview and the history the api returns', async () => {
    expect(await refreshFleet(client())).toMatchObject({ kind: 'ready', overview });
    await refreshFleetHistory(client());
    const state = useFleetStore.getState();
    expect(state.status).toMatchObject({ kind: 'ready', overview });
    expect(state.history).toEqual(history.samples);
  });

  it('tells a non-administrator (403) and a signed-out visitor (401) apart', async () => {
    answers['/api/v1/admin/fleet'] = { status: 403, body: { error: { code: 'FORBIDDEN', message: 'no' } } };
    expect(await refreshFleet(client())).toEqual({ kind: 'forbidden' });
    answers['/api/v1/admin/fleet'] = { status: 401, body: { error: { code: 'UNAUTHENTICATED', message: 'no' } } };
    expect(await refreshFleet(client())).toEqual({ kind: 'signed-out' });
  });

  it('keeps the last overview when the api stops answering', async () => {
    await refreshFleet(client());
    answers['/api/v1/admin/fleet'] = { status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } };
    const status = await refreshFleet(client());
    expect(status).toMatchObject({ kind: 'unreachable', lastOverview: overview });
    // A body that breaks the contract is an error too, not data.
    answers['/api/v1/admin/fleet'] = { status: 200, body: { ...overview, workers: 'none' } };
    expect((await refreshFleet(client())).kind).toBe('unreachable');
  });

  it('polls at the given interval and stops polling on 403', async () => {
    const stop = watchFleet(client(), 50, 10_000);
    try {
      await new Promise((r) => setTimeout(r, 220));
      expect(requests.filter((u) => u === '/api/v1/admin/fleet').length).toBeGreaterThanOrEqual(3);
      answers['/api/v1/admin/fleet'] = { status: 403, body: { error: { code: 'FORBIDDEN', message: 'no' } } };
      const live = () => requests.filter((u) => u === '/api/v1/admin/fleet').length;
      // Polls already on their way when the first 403 lands may still arrive; then nothing more.
      await new Promise((r) => setTimeout(r, 300));
      const count = live();
      await new Promise((r) => setTimeout(r, 250));
      expect(live()).toBe(count);
      expect(useFleetStore.getState().status).toEqual({ kind: 'forbidden' });
    } finally {
      stop();
    }
  });
});
