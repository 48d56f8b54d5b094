import type { IncomingMessage } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyScenePatch, newProjectDocument, planEntitlements, scenePatchSchema, type SceneDocument, type SceneOp } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import { initialStudioState, useStudioStore, useToastStore } from '../stores/index.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { addGuestToScene } from './guest-panel.ts';
import { addScene, editScene } from './scene-edits.ts';

const ids = {
  projectId: '0b6c2a9e-4f1d-4c3b-9a8e-7d6f5e4c3b2a',
  sceneId: '1c7d3b0f-5a2e-4d4c-8b9f-8e7a6f5d4c3b',
  watermarkSourceId: '2d8e4c1a-6b3f-4e5d-9ca0-9f8b7a6e5d4c',
  watermarkLayerId: '3e9f5d2b-7c4a-4f6e-8db1-a09c8b7f6e5d',
};

/**
 * A stand-in for the api's scene endpoints with the real rules: the same applyScenePatch, a
 * Free plan, 409 on a stale base version. `otherEditor` changes the document as a second
 * studio would, between the studio's edit and its arrival.
 */
let server: TestServer | undefined;
let stored: SceneDocument;
let patches = 0;
let otherEditor: (() => void) | null = null;
let delayMs = 0;

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return JSON.parse(text);
}

beforeEach(async () => {
  stored = newProjectDocument({ ...ids, resolution: '720p' });
  patches = 0;
  otherEditor = null;
  delayMs = 0;
  useToastStore.setState({ toasts: [] });
  server = await startTestServer((req, res) => {
    void (async () => {
      if (req.method === 'GET' && req.url === `/api/v1/projects/${ids.projectId}/scene`) {
        sendJson(res, 200, stored);
        return;
      }
      if (req.method === 'PATCH' && req.url === `/api/v1/projects/${ids.projectId}/scene`) {
        patches += 1;
        const patch = scenePatchSchema.parse(await bodyOf(req));
        otherEditor?.();
        otherEditor = null;
        await new Promise((r) => setTimeout(r, delayMs));
        const result = applyScenePatch(stored, patch, planEntitlements.Free);
        if (!result.ok) {
          const status = result.rejection.error === 'CONFLICT' ? 409 : result.rejection.error === 'PLAN_LIMIT_REACHED' ? 403 : 422;
          sendJson(res, status, {
            error: { code: result.rejection.error, message: result.rejection.message, details: { rule: result.rejection.code, ...result.rejection.details } },
          });
          return;
        }
        stored = result.document;
        sendJson(res, 200, { version: stored.version, ops: result.ops });
        return;
      }
      sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'Nothing was found at this address.' } });
    })();
  });
  useStudioStore.setState({
    ...initialStudioState(),
    projectId: ids.projectId,
    status: 'ready',
    confirmed: stored,
    document: stored,
    entitlements: planEntitlements.Free,
  });
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = () => createHttpClient({ baseUrl: server?.baseUrl ?? '', timeoutMs: 2000 });

async function settled(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { pending, sending } = useStudioStore.getState();
    if (pending.length === 0 && sending === null) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('edits never settled');
}

const rename = (name: string): SceneOp[] => [{ op: 'renameScene', sceneId: ids.sceneId, name }];
const shownName = () => useStudioStore.getState().document?.scenes[0]?.name;

describe('editScene', () => {
  it('shows the edit at once and confirms it with the server version', async () => {
    delayMs = 100;
    expect(editScene(rename('Intro'), client())).toBe(true);
    expect(shownName()).toBe('Intro');
    expect(useStudioStore.getState().confirmed?.version).toBe(0);
    await settled();
    expect(useStudioStore.getState().confirmed).toEqual(stored);
    expect(stored.scenes[0]?.name).toBe('Intro');
  });

  it('after a 409 reloads the document and replays the edit on it, so both editors keep their change', async () => {
    const cameraId = '4fa06e3c-8d5b-4a7f-9ec2-b1ad9c8a7f6e';
    otherEditor = () => {
      const other = applyScenePatch(
        stored,
        { baseVersion: stored.version, ops: [{ op: 'addSource', source: { id: cameraId, kind: 'webcam' } }] },
        planEntitlements.Free,
      );
      if (other.ok) stored = other.document;
    };
    editScene(rename('Mine'), client());
    await settled();
    expect(patches).toBe(2);
    expect(stored.version).toBe(2);
    expect(stored.scenes[0]?.name).toBe('Mine');
    expect(stored.sources.some((s) => s.id === cameraId)).toBe(true);
    expect(useStudioStore.getState().document).toEqual(stored);
  });

  it("undoes an edit the server refuses and shows the server's words", async () => {
    editScene([{ op: 'updateLayer', sceneId: ids.sceneId, layerId: ids.watermarkLayerId, changes: { visible: false } }], client());
    expect(useStudioStore.getState().document?.scenes[0]?.layers[0]?.visible).toBe(false);
    await settled();
    expect(useStudioStore.getState().document?.scenes[0]?.layers[0]?.visible).toBe(true);
    expect(stored.version).toBe(0);
    expect(useToastStore.getState().toasts).toMatchObject([
      { kind: 'warning', title: 'Your plan shows the OnAir logo on all streams. Upgrade to hide or replace it.' },
    ]);
  });

  it('refuses a second game source before sending anything', async () => {
    const game = (n: string): SceneOp[] => [
      { op: 'addSource', source: { id: `5b1${n}7f4d-9e6c-4b8a-8fd3-c2be0d9b8a7f`, kind: 'game' } },
      { op: 'addLayer', sceneId: ids.sceneId, layer: { id: `6c2${n}8a5e-af7d-4c9b-9ae4-d3cf1eac9b8a`, sourceId: `5b1${n}7f4d-9e6c-4b8a-8fd3-c2be0d9b8a7f` } },
    ];
    expect(editScene(game('a'), client())).toBe(true);
    await settled();
    expect(editScene(game('b'), client())).toBe(false);
    expect(patches).toBe(1);
    expect(useToastStore.getState().toasts).toMatchObject([{ title: 'You can only add one game source to each scene' }]);
  });

  it('a Free scene comes with the logo the server requires, and the fourth is refused with the plan limit', async () => {
    expect(addScene('Two', client())).toBe(true);
    await settled();
    expect(addScene('Three', client())).toBe(true);
    await settled();
    expect(stored.scenes.map((s) => [s.name, s.layers.map((l) => l.sourceId)])).toEqual([
      ['Scene 1', [ids.watermarkSourceId]],
      ['Two', [ids.watermarkSourceId]],
      ['Three', [ids.watermarkSourceId]],
    ]);
    expect(addScene('Four', client())).toBe(false);
    expect(patches).toBe(2);
    expect(useToastStore.getState().toasts).toMatchObject([{ title: 'Your plan allows up to 3 scenes. Upgrade to add more.' }]);
  });
});

describe('a guest added to the scene (issue 52)', () => {
  it("is named by the guest's display name, not 'Guest'", () => {
    addGuestToScene('5a0b6f4d-9e6c-4b8a-8fd2-c2be0d9b8a7f', '  Grace Hopper ');
    const guest = useStudioStore.getState().document?.sources.find((s) => s.kind === 'participant');
    expect(guest?.name).toBe('Grace Hopper');
    expect(guest?.settings).toMatchObject({ displayName: '  Grace Hopper ' });
  });
});
