import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LocalStream } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import { initialLocalStreamState, useLocalStreamStore, useToastStore } from '../stores/index.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { closeLocalWatch, loadLocalStream, openLocalWatch, rotateLocalStream, setLocalWatchState, toggleLocalStreamShown } from './local-stream.ts';

const projectId = '00000000-0000-4000-8000-000000000002';
const destinationId = '00000000-0000-4000-8000-000000000001';
const view: LocalStream = {
  destinationId,
  playUrl: 'rtmp://127.0.0.1:19350/live/local_abc',
  hlsUrl: `/api/v1/projects/${projectId}/destinations/${destinationId}/watch/index.m3u8`,
  watchDelaySeconds: 6,
};

let server: TestServer | undefined;
let status = 200;
beforeEach(async () => {
  useLocalStreamStore.setState(initialLocalStreamState());
  status = 200;
  server = await startTestServer((req, res) => {
    if (req.url === `/api/v1/projects/${projectId}/destinations/${destinationId}/local-stream` && req.method === 'POST') {
      if (status === 409) sendJson(res, 409, { error: { code: 'CONFLICT', message: 'This stream is live. End the broadcast, then give it a new address.' } });
      else sendJson(res, 200, { ...view, playUrl: 'rtmp://127.0.0.1:19350/live/local_new' });
    } else if (req.url === `/api/v1/projects/${projectId}/destinations/${destinationId}/local-stream` && status === 200) sendJson(res, 200, view);
    else sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'This destination does not exist.' } });
  });
});
afterEach(async () => {
  await server?.close();
});
const client = () => createHttpClient({ baseUrl: server?.baseUrl ?? '', timeoutMs: 2000 });

describe("a Local destination's stream in the studio", () => {
  it('gets a new address, or says why not (live) and keeps the old one', async () => {
    await loadLocalStream(projectId, destinationId, client());
    status = 409;
    await rotateLocalStream(projectId, destinationId, client());
    expect(useLocalStreamStore.getState().streams[destinationId]?.view?.playUrl).toBe(view.playUrl);
    expect(useToastStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'error',
      description: 'This stream is live. End the broadcast, then give it a new address.',
    });
    status = 200;
    await rotateLocalStream(projectId, destinationId, client());
    expect(useLocalStreamStore.getState().streams[destinationId]?.view?.playUrl).toBe('rtmp://127.0.0.1:19350/live/local_new');
    expect(useToastStore.getState().toasts.at(-1)).toMatchObject({ kind: 'success', title: 'New Local address' });
  });

  it('loads its address and Watch player, or keeps why it could not', async () => {
    await loadLocalStream(projectId, destinationId, client());
    expect(useLocalStreamStore.getState().streams[destinationId]).toEqual({ status: 'ready', view, error: null });
    status = 404;
    await loadLocalStream(projectId, destinationId, client());
    expect(useLocalStreamStore.getState().streams[destinationId]).toEqual({ status: 'error', view: null, error: 'This destination does not exist.' });
  });

  it('shows the stream name only when asked, per destination', () => {
    toggleLocalStreamShown(destinationId);
    expect(useLocalStreamStore.getState().shown).toEqual({ [destinationId]: true });
    toggleLocalStreamShown(destinationId);
    expect(useLocalStreamStore.getState().shown[destinationId]).toBe(false);
  });

  it("opens the Watch player connecting, takes the player's reports for that destination only, and closes it", () => {
    openLocalWatch(destinationId);
    expect(useLocalStreamStore.getState().watch).toEqual({ destinationId, state: 'connecting', error: null });
    setLocalWatchState(destinationId, 'offline');
    setLocalWatchState('00000000-0000-4000-8000-000000000009', 'playing');
    expect(useLocalStreamStore.getState().watch?.state).toBe('offline');
    setLocalWatchState(destinationId, 'playing');
    expect(useLocalStreamStore.getState().watch?.state).toBe('playing');
    closeLocalWatch();
    expect(useLocalStreamStore.getState().watch).toBeNull();
    setLocalWatchState(destinationId, 'playing');
    expect(useLocalStreamStore.getState().watch).toBeNull();
  });
});
