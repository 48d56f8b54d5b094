import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IngestView } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import { initialIngestState, useIngestStore, useToastStore } from '../stores/index.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { closeConsoleGuide, loadIngest, openConsoleGuide, receiveIngestMessage, regenerateIngestKey, setAutoLive } from './ingest.ts';

const projectId = '00000000-0000-4000-8000-000000000002';
const base = `/api/v1/projects/${projectId}`;
const view = (over: Partial<IngestView> = {}): IngestView => ({
  serverUrl: 'rtmp://localhost/ingest',
  streamKey: 'live_first',
  consoleServerUrl: 'rtmp://localhost/app',
  autoLive: false,
  twitchEnabled: true,
  graceSeconds: 60,
  status: { state: 'waiting', via: null, since: null, graceEndsAt: null },
  feed: null,
  guideLinks: { tutorialUrl: 'https://example.test/tutorial', helpCenterUrl: 'https://example.test/help' },
  ...over,
});

let server: TestServer | undefined;
let requests: { method: string; url: string; body: unknown }[];
let reply: (method: string, url: string) => { status: number; body?: unknown };

beforeEach(async () => {
  useIngestStore.setState(initialIngestState());
  useToastStore.setState({ toasts: [] });
  requests = [];
  reply = (method, url) =>
    method === 'GET' && url === `${base}/ingest` ? { status: 200, body: view() } : { status: 404, body: { error: { code: 'NOT_FOUND', message: 'no' } } };
  server = await startTestServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      requests.push({ method: req.method ?? '', url: req.url ?? '', body: text ? JSON.parse(text) : undefined });
      const r = reply(req.method ?? '', req.url ?? '');
      sendJson(res, r.status, r.body);
    });
  });
});
afterEach(async () => {
  await server?.close();
});

const client = () => createHttpClient({ baseUrl: server?.baseUrl ?? '', timeoutMs: 2000 });

describe('the Auto Live block', () => {
  it('loads the ingest, switches Auto Live and regenerates the key, showing the new one', async () => {
    await loadIngest(projectId, client());
    expect(useIngestStore.getState()).toMatchObject({ status: 'ready', keyShown: false, view: { streamKey: 'live_first' } });
    reply = (method, url) => {
      if (method === 'PUT' && url === `${base}/auto-live`) return { status: 200, body: view({ autoLive: true }) };
      if (method === 'POST' && url === `${base}/ingest/key`) return { status: 200, body: view({ autoLive: true, streamKey: 'live_second' }) };
      return { status: 500, body: { error: { code: 'INTERNAL', message: 'no' } } };
    };
    await setAutoLive(true, client());
    expect(requests.at(-1)).toEqual({ method: 'PUT', url: `${base}/auto-live`, body: { enabled: true } });
    expect(useIngestStore.getState().view?.autoLive).toBe(true);
    await regenerateIngestKey(client());
    expect(useIngestStore.getState()).toMatchObject({ keyShown: true, regenerating: false, view: { streamKey: 'live_second' } });
  });

  it("says why Auto Live did not switch on ('Twitch required')", async () => {
    await loadIngest(projectId, client());
    const message = "Twitch required: You must broadcast to your console's Twitch channel so that we can receive your game feed.";
    reply = () => ({ status: 409, body: { error: { code: 'CONFLICT', message, details: { rule: 'twitch-required' } } } });
    await setAutoLive(true, client());
    expect(useIngestStore.getState()).toMatchObject({ switching: false, view: { autoLive: false } });
    expect(useToastStore.getState().toasts).toEqual([expect.objectContaining({ kind: 'error', title: 'Auto Live was not turned on', description: message })]);
  });

  it('follows the feed from /ws, and only for its own project', async () => {
    await loadIngest(projectId, client());
    const at = '2026-11-25T10:00:00.000Z';
    receiveIngestMessage({ type: 'ingest.status', projectId, autoLive: true, status: { state: 'receiving', via: 'console', since: at, graceEndsAt: null } });
    receiveIngestMessage({
      type: 'ingest.feed',
      projectId,
      feed: { state: 'flowing', videoCodec: 'h264', audioCodec: 'aac', width: 1920, height: 1080, fps: 60, bitrateKbps: 6000, at },
    });
    receiveIngestMessage({
      type: 'ingest.status',
      projectId: '00000000-0000-4000-8000-000000000099',
      autoLive: false,
      status: { state: 'waiting', via: null, since: null, graceEndsAt: null },
    });
    expect(useIngestStore.getState().view).toMatchObject({ autoLive: true, status: { state: 'receiving', via: 'console' }, feed: { width: 1920, fps: 60 } });
  });

  it('opens and closes a console guide', () => {
    openConsoleGuide('playstation');
    expect(useIngestStore.getState().guide).toBe('playstation');
    closeConsoleGuide();
    expect(useIngestStore.getState().guide).toBeNull();
  });
});
