import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyScenePatch, newProjectDocument, planEntitlements, type ChatOnScreen, type SceneDocument } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { initialChatOnScreenState, useChatOnScreenStore } from '../stores/index.ts';
import { chatOnScreenLayerOps, receiveChatOnScreen, toggleChatOnScreen } from './chat-on-screen.ts';

const projectId = '00000000-0000-4000-8000-0000000000aa';
const messageId = '00000000-0000-4000-8000-0000000000c1';
const overlayUrl = `https://onair.example/overlay/chat-on-screen/${projectId}?key=k&sig=s1`;
let n = 0;
const newId = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

function doc(): SceneDocument {
  return newProjectDocument({ projectId, sceneId: newId(), resolution: '720p', watermarkSourceId: newId(), watermarkLayerId: newId() });
}
function apply(d: SceneDocument, ops: ReturnType<typeof chatOnScreenLayerOps>): SceneDocument {
  // A public address: the rules for OnAir's own pages on a private origin are the api's (own-page-urls.ts).
  const result = applyScenePatch(d, { baseVersion: d.version, ops }, planEntitlements.Premium);
  if (!result.ok) throw new Error(result.rejection.code);
  return result.document;
}

const onScreen = (id: string): ChatOnScreen => ({
  kind: 'platform',
  messageId: id,
  platform: 'twitch',
  displayName: 'Kappa_Fan',
  text: '<b>x</b>',
  shownAt: new Date(0).toISOString(),
  remainingMs: 15_000,
});

describe('chatOnScreenLayerOps', () => {
  it('adds the overlay over the whole scene on air the first time, then nothing', () => {
    const before = doc();
    const ops = chatOnScreenLayerOps(before, overlayUrl, newId);
    expect(ops.map((o) => o.op)).toEqual(['addSource', 'addLayer']);
    expect(ops[1]).toMatchObject({ layer: { x: 0, y: 0, width: 1280, height: 720 } });
    const after = apply(before, ops);
    expect(chatOnScreenLayerOps(after, overlayUrl, newId)).toEqual([]);
  });

  it('shows a hidden layer again, takes today’s signed address, and adds a layer to another scene once it is on air', () => {
    let d = apply(doc(), []);
    d = apply(d, chatOnScreenLayerOps(d, overlayUrl, newId));
    const sceneId = d.activeSceneId!;
    const layer = d.scenes[0]!.layers.at(-1)!;
    d = apply(d, [{ op: 'updateLayer', sceneId, layerId: layer.id, changes: { visible: false } }]);
    const resigned = overlayUrl.replace('sig=s1', 'sig=s2');
    expect(chatOnScreenLayerOps(d, resigned, newId).map((o) => o.op)).toEqual(['updateSource', 'updateLayer']);
    const second = newId();
    d = apply(d, [
      { op: 'addScene', sceneId: second, name: 'Second' },
      { op: 'setActiveScene', sceneId: second },
    ]);
    const ops = chatOnScreenLayerOps(d, overlayUrl, newId);
    expect(ops.map((o) => o.op)).toEqual(['addLayer']);
    expect(ops[0]).toMatchObject({ sceneId: second });
  });
});

describe('putting a message on screen', () => {
  let server: TestServer | undefined;
  const requests: { method: string; url: string; body: unknown }[] = [];
  beforeEach(async () => {
    requests.length = 0;
    useChatOnScreenStore.setState({ ...initialChatOnScreenState(), projectId, overlayUrl, duration: 30_000 });
    server = await startTestServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        requests.push({ method: req.method!, url: req.url!, body: raw ? JSON.parse(raw) : undefined });
        sendJson(res, 200, { onScreen: req.method === 'PUT' ? onScreen(messageId) : null, overlayUrl });
      });
    });
  });
  afterEach(async () => {
    await server?.close();
  });
  const client = () => createHttpClient({ baseUrl: server?.baseUrl ?? '', timeoutMs: 2000 });

  it('a click shows it for the chosen time; a click on the message shown takes it off, only if it is still the one', async () => {
    await toggleChatOnScreen('platform', messageId, client());
    expect(requests[0]).toEqual({
      method: 'PUT',
      url: `/api/v1/projects/${projectId}/chat/on-screen`,
      body: { kind: 'platform', messageId, durationMs: 30_000 },
    });
    expect(useChatOnScreenStore.getState().onScreen?.messageId).toBe(messageId);
    await toggleChatOnScreen('platform', messageId, client());
    expect(requests[1]).toMatchObject({ method: 'DELETE', url: `/api/v1/projects/${projectId}/chat/on-screen?messageId=${messageId}` });
    expect(useChatOnScreenStore.getState().onScreen).toBeNull();
    expect(useChatOnScreenStore.getState().pending).toBeNull();
  });

  it('follows what another studio did, for its own project only', () => {
    receiveChatOnScreen({ type: 'chat.onScreen', projectId: '00000000-0000-4000-8000-0000000000bb', onScreen: onScreen(messageId) });
    expect(useChatOnScreenStore.getState().onScreen).toBeNull();
    receiveChatOnScreen({ type: 'chat.onScreen', projectId, onScreen: onScreen(messageId) });
    expect(useChatOnScreenStore.getState().onScreen?.messageId).toBe(messageId);
  });
});
