import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BroadcastView, Recording } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import { initialDestinationsState, initialRecordingsState, useDestinationsStore, useRecordingsStore, useToastStore } from '../stores/index.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { goLive } from './destinations.ts';
import { deleteRecording, loadRecordings } from './recordings.ts';

const projectId = '00000000-0000-4000-8000-0000000000aa';
const recording: Recording = {
  id: '00000000-0000-4000-8000-0000000000cc',
  projectId,
  broadcastId: '00000000-0000-4000-8000-0000000000dd',
  state: 'ready',
  startedAt: '2026-11-25T10:00:00.000Z',
  endedAt: '2026-11-25T10:01:00.000Z',
  durationSeconds: 60.02,
  sizeBytes: 9_000_000,
  parts: [{ number: 1, sizeBytes: 9_000_000, durationSeconds: 60.02 }],
  expiresAt: '2026-12-25T10:01:00.000Z',
};
const live: BroadcastView = {
  id: recording.broadcastId,
  projectId,
  state: 'live',
  failureReason: null,
  startedAt: recording.startedAt,
  endedAt: null,
  endsAt: null,
  outputs: [],
  recordingId: recording.id,
};

let server: TestServer | undefined;
let requests: { method: string; url: string; body: unknown }[];
let reply: (method: string, url: string) => { status: number; body?: unknown };

beforeEach(async () => {
  useRecordingsStore.setState(initialRecordingsState());
  useDestinationsStore.setState({ ...initialDestinationsState(), projectId });
  useToastStore.setState({ toasts: [] });
  requests = [];
  server = await startTestServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      requests.push({ method: req.method ?? '', url: req.url ?? '', body: text ? JSON.parse(text) : undefined });
      const r = reply(req.method ?? '', req.url ?? '');
      if (r.status === 204) res.writeHead(204).end();
      else sendJson(res, r.status, r.body);
    });
  });
});
afterEach(async () => {
  await server?.close();
});

const client = () => createHttpClient({ baseUrl: server?.baseUrl ?? '', timeoutMs: 2000 });
const base = `/api/v1/projects/${projectId}`;

describe('recordings', () => {
  it('lists the recordings, and deletes one from the list', async () => {
    reply = (method) => (method === 'GET' ? { status: 200, body: { recordings: [recording] } } : { status: 204 });
    await loadRecordings(projectId, client());
    expect(useRecordingsStore.getState()).toMatchObject({ status: 'ready', recordings: [recording] });
    await deleteRecording(projectId, recording.id, client());
    expect(requests.at(-1)).toMatchObject({ method: 'DELETE', url: `${base}/recordings/${recording.id}` });
    expect(useRecordingsStore.getState().recordings).toEqual([]);
  });

  it("says why the list cannot be read (the server's words)", async () => {
    reply = () => ({
      status: 403,
      body: { error: { code: 'FORBIDDEN', message: 'Your role in this project (viewer) does not allow you to manage the broadcast.' } },
    });
    await loadRecordings(projectId, client());
    expect(useRecordingsStore.getState()).toMatchObject({
      status: 'failed',
      error: 'Your role in this project (viewer) does not allow you to manage the broadcast.',
    });
  });

  it('Go Live asks for a recording only with Record switched on, and shows a refusal in words', async () => {
    reply = () => ({ status: 201, body: live });
    await goLive(client());
    expect(requests.at(-1)).toMatchObject({ method: 'POST', url: `${base}/broadcast`, body: undefined });
    useDestinationsStore.setState({ record: true, broadcast: null });
    await goLive(client());
    expect(requests.at(-1)).toMatchObject({ method: 'POST', url: `${base}/broadcast`, body: { record: true } });
    expect(useDestinationsStore.getState().broadcast?.recordingId).toBe(recording.id);
    // Padding goes with it when chosen (off, and left out, by default).
    useDestinationsStore.setState({ record: false, preRollSeconds: 5, postRollSeconds: 3, broadcast: null });
    await goLive(client());
    expect(requests.at(-1)).toMatchObject({ body: { preRollSeconds: 5, postRollSeconds: 3 } });
    expect((requests.at(-1)!.body as Record<string, unknown>).record).toBeUndefined();

    useDestinationsStore.setState({ broadcast: null });
    reply = () => ({
      status: 403,
      body: { error: { code: 'PLAN_LIMIT_REACHED', message: 'Your plan does not include recording. Upgrade to record your broadcasts.' } },
    });
    await goLive(client());
    expect(useToastStore.getState().toasts.at(-1)).toMatchObject({
      title: 'Could not go live',
      description: 'Your plan does not include recording. Upgrade to record your broadcasts.',
    });
  });
});
