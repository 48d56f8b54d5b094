import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatCountdown, newProjectDocument, type SceneDocument } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import { initialStudioState, useStudioStore } from '../stores/index.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { followCountdown } from './countdown.ts';

const ids = {
  projectId: '8f5b3c2e-1a4d-4b6e-9c7f-0a1b2c3d4e5f',
  sceneId: '1b2c3d4e-5f60-4718-8a9b-0c1d2e3f4a5b',
  watermarkSourceId: '2c3d4e5f-6071-4829-9bac-1d2e3f4a5b6c',
  watermarkLayerId: '3d4e5f60-7182-493a-acbd-2e3f4a5b6c7d',
};
const countdownSceneId = '4e5f6071-8293-4a4b-bdce-3f4a5b6c7d8e';

/** The project with a countdown scene, showing `active`. */
function documentShowing(active: string): SceneDocument {
  const doc = newProjectDocument({ ...ids, resolution: '720p' });
  doc.scenes.push({
    id: countdownSceneId,
    name: 'Countdown',
    order: 1,
    kind: 'countdown',
    countdown: { seconds: 60, nextSceneId: ids.sceneId },
    deletedAt: null,
    layers: [],
  });
  return { ...doc, activeSceneId: active };
}

let server: TestServer | undefined;
let requests: string[];
let remainingMs = 42_000;

beforeEach(async () => {
  requests = [];
  server = await startTestServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    sendJson(res, 200, { countdown: { sceneId: countdownSceneId, endsAt: new Date(Date.now() + remainingMs).toISOString(), remainingMs } });
  });
});
afterEach(async () => {
  await server?.close();
});
const client = () => createHttpClient({ baseUrl: server?.baseUrl ?? '', timeoutMs: 2000 });

describe('the countdown in the studio', () => {
  it('asks the server for the time left when a countdown scene is shown, and keeps it on its own clock', async () => {
    const doc = documentShowing(countdownSceneId);
    useStudioStore.setState({ ...initialStudioState(), projectId: ids.projectId, confirmed: doc, document: doc });
    const before = Date.now();
    await followCountdown(client());
    const after = Date.now();
    expect(requests).toEqual([`GET /api/v1/projects/${ids.projectId}/countdown`]);
    const countdown = useStudioStore.getState().countdown!;
    expect(countdown.sceneId).toBe(countdownSceneId);
    expect(countdown.endsAt).toBeGreaterThanOrEqual(before + remainingMs);
    expect(countdown.endsAt).toBeLessThanOrEqual(after + remainingMs);
    expect(formatCountdown(countdown.endsAt - after)).toBe('00:42');
  });

  it('clears it, without asking, when another scene is shown', async () => {
    const doc = documentShowing(ids.sceneId);
    useStudioStore.setState({
      ...initialStudioState(),
      projectId: ids.projectId,
      confirmed: doc,
      document: doc,
      countdown: { sceneId: countdownSceneId, endsAt: Date.now() + 5000 },
    });
    await followCountdown(client());
    expect(requests).toEqual([]);
    expect(useStudioStore.getState().countdown).toBeNull();
  });

  it('shows no time for a countdown the server is not timing (another scene named)', async () => {
    remainingMs = 1000;
    const doc = documentShowing(countdownSceneId);
    const other = {
      ...doc,
      scenes: doc.scenes.map((s) => (s.id === countdownSceneId ? { ...s, id: '5f607182-93a4-4b5c-8def-4a5b6c7d8e9f' } : s)),
      activeSceneId: '5f607182-93a4-4b5c-8def-4a5b6c7d8e9f',
    };
    useStudioStore.setState({ ...initialStudioState(), projectId: ids.projectId, confirmed: other, document: other });
    await followCountdown(client());
    expect(useStudioStore.getState().countdown).toBeNull();
  });
});
