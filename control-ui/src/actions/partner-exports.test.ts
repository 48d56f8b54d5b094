import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DataExport } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import { initialPartnerSettingsState, usePartnerSettingsStore, useToastStore } from '../stores/index.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { openDataExports, refreshDataExports, requestDataExport } from './partner-exports.ts';

const queued: DataExport = {
  id: 'e1',
  state: 'queued',
  progress: 0,
  createdAt: '2026-11-27T10:00:00.000Z',
  expiresAt: null,
  expired: false,
  sizeBytes: null,
  downloadUrl: null,
};

let server: TestServer | undefined;
let requests: string[];
let reply: (method: string) => { status: number; body: unknown };

beforeEach(async () => {
  usePartnerSettingsStore.setState(initialPartnerSettingsState());
  useToastStore.setState({ toasts: [] });
  requests = [];
  server = await startTestServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      const r = reply(req.method ?? '');
      sendJson(res, r.status, r.body);
    });
  });
});
afterEach(async () => {
  await server?.close();
});

const client = () => createHttpClient({ baseUrl: server?.baseUrl ?? '', timeoutMs: 2000 });

describe('data exports in the partner-settings store', () => {
  it('opening reads the list into the store', async () => {
    reply = () => ({ status: 200, body: { exports: [], linkHours: 24 } });
    await openDataExports(client());
    expect(usePartnerSettingsStore.getState()).toMatchObject({ exports: { exports: [], linkHours: 24 }, exportsFailed: false });
  });

  it('a failed read is kept, with the list it had, until the section opens again', async () => {
    reply = () => ({ status: 200, body: { exports: [queued], linkHours: 24 } });
    await openDataExports(client());
    reply = () => ({ status: 500, body: { error: { code: 'INTERNAL', message: 'down' } } });
    await refreshDataExports(client());
    expect(usePartnerSettingsStore.getState()).toMatchObject({ exports: { exports: [queued] }, exportsFailed: true });
    reply = () => ({ status: 200, body: { exports: [], linkHours: 24 } });
    await openDataExports(client());
    expect(usePartnerSettingsStore.getState()).toMatchObject({ exports: { exports: [] }, exportsFailed: false });
  });

  it('a request reads the list again, so the new export shows', async () => {
    reply = (method) => (method === 'POST' ? { status: 202, body: queued } : { status: 200, body: { exports: [queued], linkHours: 24 } });
    expect(await requestDataExport(client())).toBe(true);
    expect(requests).toEqual(['POST /api/v1/partner/exports', 'GET /api/v1/partner/exports']);
    expect(usePartnerSettingsStore.getState().exports?.exports).toEqual([queued]);
  });
});
