import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptedScenePatchSchema,
  arrangeTiles,
  followLayoutOps,
  layoutTiles,
  projectChannels,
  sceneDocumentSchema,
  type AcceptedScenePatch,
  type SceneDocument,
  type SceneOp,
} from '@onair/protocol';
import { testRedisUrl } from '@onair/embedded/test-services';
import { call, createTestUser, guestLinkOf, joinAsGuest, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let user: TestUser;
let listener: Redis | undefined;

beforeAll(async () => {
  api = await startStudioApi();
  user = await createTestUser(api);
});
afterEach(() => {
  listener?.disconnect();
  listener = undefined;
});
afterAll(async () => {
  await api?.close();
});

async function newProject(): Promise<SceneDocument> {
  const { body } = await call(api, user, 'POST', '/api/v1/projects', { name: `p-${randomUUID()}` });
  return getDoc((body as { id: string }).id);
}

async function getDoc(projectId: string): Promise<SceneDocument> {
  const res = await call(api, user, 'GET', `/api/v1/projects/${projectId}/scene`);
  expect(res.status).toBe(200);
  return sceneDocumentSchema.parse(res.body);
}

const patch = (projectId: string, baseVersion: number, ops: SceneOp[]) => call(api, user, 'PATCH', `/api/v1/projects/${projectId}/scene`, { baseVersion, ops });

/** Collects what the api publishes for a project, as the media worker will receive it. */
async function listen(projectId: string): Promise<AcceptedScenePatch[]> {
  listener = new Redis(testRedisUrl());
  const received: AcceptedScenePatch[] = [];
  listener.on('message', (_channel: string, message: string) => received.push(acceptedScenePatchSchema.parse(JSON.parse(message))));
  await listener.subscribe(projectChannels.scene(projectId));
  return received;
}

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const addCamera = (sceneId: string, name: string, extra: { volume?: number } = {}): SceneOp[] => {
  const sourceId = randomUUID();
  return [
    { op: 'addSource', source: { id: sourceId, kind: 'webcam', name, settings: extra } },
    { op: 'addLayer', sceneId, layer: { id: randomUUID(), sourceId } },
  ];
};

describe('PATCH /api/v1/projects/:projectId/scene', () => {
  it('persists an accepted patch, bumps the version and publishes the normalised ops with it', async () => {
    const doc = await newProject();
    const published = await listen(doc.projectId);
    const sceneId = doc.activeSceneId!;
    const pageId = randomUUID();
    const res = await patch(doc.projectId, 0, [
      ...addCamera(sceneId, 'Me', { volume: 4 }),
      { op: 'addSource', source: { id: pageId, kind: 'webpage', settings: { config: { url: 'https://example.com/alerts' } } } },
      { op: 'addLayer', sceneId, layer: { id: randomUUID(), sourceId: pageId } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 1 });

    const stored = await getDoc(doc.projectId);
    expect(stored.version).toBe(1);
    expect(stored.sources.find((s) => s.name === 'Me')?.settings).toMatchObject({ volume: 1, microphoneDeviceId: 'default' });
    expect(stored.scenes[0]?.layers.map((l) => [l.x, l.y, l.width, l.height, l.zIndex])).toEqual([
      // A new project's camera (Beam: full frame) and logo, then the two layers added.
      [0, 0, 1280, 720, 0],
      [30, 30, 237, 62, 1],
      [40, 40, 640, 360, 2],
      [200, 36, 852, 480, 3],
    ]);

    await until(() => published.length === 1);
    expect(published[0]).toEqual({ projectId: doc.projectId, version: 1, ops: (res.body as { ops: SceneOp[] }).ops });
    expect(published[0]?.ops[0]).toMatchObject({ op: 'addSource', source: { settings: { volume: 1, mirrorCamera: false } } });
  });

  it('keeps the vertical layout (issue 20): a vertical move is stored for the layer, the derived boxes of the others are fixed, the horizontal layout is untouched', async () => {
    const doc = await newProject();
    const sceneId = doc.activeSceneId!;
    const [camera, logo] = doc.scenes[0]!.layers;
    const res = await patch(doc.projectId, 0, [
      { op: 'updateLayerVertical', sceneId, layerId: camera!.id, changes: { x: 60, y: 700, width: 600, height: 338 } },
    ]);
    expect(res.status).toBe(200);
    const stored = await getDoc(doc.projectId);
    const [storedCamera, storedLogo] = stored.scenes[0]!.layers;
    expect(storedCamera).toMatchObject({
      x: 0,
      y: 0,
      width: 1280,
      height: 720,
      vertical: { x: 60, y: 700, width: 600, height: 338, crop: { top: 0, right: 0, bottom: 0, left: 0 } },
    });
    expect(storedLogo).toMatchObject({ x: logo!.x, y: logo!.y, vertical: { x: 17, y: 17, width: 237, height: 62 } });
    // A vertical box of nothing is refused like a horizontal one.
    const empty = await patch(doc.projectId, 1, [{ op: 'updateLayerVertical', sceneId, layerId: camera!.id, changes: { height: 0 } }]);
    expect(empty).toMatchObject({ status: 422, body: { error: { code: 'SCENE_RULE_VIOLATED' } } });
    expect(await getDoc(doc.projectId)).toEqual(stored);
  });

  it('two editors on the same version: one lands, the other gets 409 with the current version, reapplies, and nothing is lost', async () => {
    const doc = await newProject();
    const published = await listen(doc.projectId);
    const sceneId = doc.activeSceneId!;
    const [a, b] = await Promise.all([patch(doc.projectId, 0, addCamera(sceneId, 'Editor A')), patch(doc.projectId, 0, addCamera(sceneId, 'Editor B'))]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body).toMatchObject({ error: { code: 'CONFLICT', details: { rule: 'stale-version', currentVersion: 1 } } });

    const loserName = loser === a ? 'Editor A' : 'Editor B';
    const current = (loser.body as { error: { details: { currentVersion: number } } }).error.details.currentVersion;
    const retried = await patch(doc.projectId, current, addCamera(sceneId, loserName));
    expect(retried).toMatchObject({ status: 200, body: { version: 2 } });

    const stored = await getDoc(doc.projectId);
    expect(stored.version).toBe(2);
    expect(stored.sources.map((s) => s.name).sort()).toEqual(['Camera', 'Editor A', 'Editor B', 'Watermark']);
    expect(stored.scenes[0]?.layers).toHaveLength(4);
    await until(() => published.length === 2);
    expect(published.map((m) => m.version).sort()).toEqual([1, 2]);
  });

  it('many editors retrying on 409 all land, each version exactly once, none lost', async () => {
    const doc = await newProject();
    const published = await listen(doc.projectId);
    const sceneId = doc.activeSceneId!;
    const editors = 6;
    const landed: number[] = [];
    let conflicts = 0;
    await Promise.all(
      Array.from({ length: editors }, async (_, i) => {
        let base = 0;
        for (;;) {
          const res = await call(api, user, 'PATCH', `/api/v1/projects/${doc.projectId}/scene`, {
            baseVersion: base,
            ops: [{ op: 'updateLayer', sceneId, layerId: doc.scenes[0]!.layers[0]!.id, changes: { x: 30 + i } }, ...addCamera(sceneId, `cam-${i}`).slice(0, 1)],
          });
          if (res.status === 200) {
            landed.push((res.body as { version: number }).version);
            return;
          }
          expect(res.status).toBe(409);
          conflicts += 1;
          base = (res.body as { error: { details: { currentVersion: number } } }).error.details.currentVersion;
        }
      }),
    );
    expect(landed.sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(conflicts).toBeGreaterThan(0);
    const stored = await getDoc(doc.projectId);
    expect(stored.version).toBe(editors);
    expect(stored.sources.filter((s) => s.name.startsWith('cam-'))).toHaveLength(editors);
    await until(() => published.length === editors);
    expect(published.map((m) => m.version).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('a scene that follows its layout (issue 38)', () => {
  const box = (l: { x: number; y: number; width: number; height: number }) => ({ x: l.x, y: l.y, width: l.width, height: l.height });

  it('a guest added to the scene falls into place: the api re-flows the scene in the same version and publishes the re-flow with it', async () => {
    const host = await createTestUser(api, { plan: 'Premium' });
    const created = await call(api, host, 'POST', '/api/v1/projects', { name: 'Talk' });
    const projectId = (created.body as { id: string }).id;
    const read = async () => sceneDocumentSchema.parse((await call(api, host, 'GET', `/api/v1/projects/${projectId}/scene`)).body);
    const doc = await read();
    const sceneId = doc.activeSceneId!;
    const camera = doc.scenes[0]!.layers.find((l) => doc.sources.find((s) => s.id === l.sourceId)?.kind === 'webcam')!;

    // The layout bar: Grid, followed, built around the host's camera.
    const followed = await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/scene`, {
      baseVersion: doc.version,
      ops: followLayoutOps(doc, sceneId, 'grid', { focusLayerId: camera.id }),
    });
    expect(followed.status).toBe(200);
    const following = await read();
    expect(following.scenes[0]!.followedLayout).toEqual({ layout: 'grid', mainLayerId: camera.id });

    // A guest joins by link and the host adds them to the scene: only the guest's source and layer are sent.
    const joined = await joinAsGuest(api, projectId, await guestLinkOf(api, host, projectId), { displayName: 'Grace', ip: '203.0.113.38' });
    expect(joined.status).toBe(201);
    const published = await listen(projectId);
    const sourceId = randomUUID();
    const layerId = randomUUID();
    const added = await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/scene`, {
      baseVersion: following.version,
      ops: [
        { op: 'addSource', source: { id: sourceId, kind: 'participant', name: 'Grace', settings: { userId: joined.guest!.id, displayName: 'Grace' } } },
        { op: 'addLayer', sceneId, layer: { id: layerId, sourceId } },
      ],
    });
    expect(added.status).toBe(200);
    const accepted = added.body as { version: number; ops: SceneOp[] };
    expect(accepted.version).toBe(following.version + 1);
    expect(accepted.ops.slice(0, 2).map((op) => op.op)).toEqual(['addSource', 'addLayer']);
    expect(accepted.ops.slice(2).length).toBeGreaterThan(0);

    const after = await read();
    expect(after.version).toBe(following.version + 1);
    const layers = after.scenes[0]!.layers;
    // A grid of two is two halves, the host on the left; and the same on the vertical canvas.
    expect(box(layers.find((l) => l.id === camera.id)!)).toEqual({ x: 0, y: 180, width: 640, height: 360 });
    expect(box(layers.find((l) => l.id === layerId)!)).toEqual({ x: 640, y: 180, width: 640, height: 360 });
    const { placed } = arrangeTiles('grid', layoutTiles(after.scenes[0]!, after.sources), { focusLayerId: camera.id });
    for (const p of placed) expect(layers.find((l) => l.id === p.layerId)!.vertical).toMatchObject(p.vertical);
    // One publish, the re-flow in it: a worker and the other studios replay exactly this.
    await until(() => published.length === 1);
    expect(published).toEqual([{ projectId, version: accepted.version, ops: accepted.ops }]);

    // The guest leaves the scene: the host's camera takes the whole frame again, one more version.
    const removed = await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/scene`, {
      baseVersion: after.version,
      ops: [{ op: 'removeLayer', sceneId, layerId }],
    });
    expect(removed).toMatchObject({ status: 200, body: { version: after.version + 1 } });
    expect(box((await read()).scenes[0]!.layers.find((l) => l.id === camera.id)!)).toEqual({ x: 0, y: 0, width: 1280, height: 720 });
  });

  it('a guest who leaves the room is taken out of a following scene: their tile hidden, the rest re-flowed in one published version', async () => {
    const host = await createTestUser(api, { plan: 'Premium' });
    const created = await call(api, host, 'POST', '/api/v1/projects', { name: 'Leaving' });
    const projectId = (created.body as { id: string }).id;
    const read = async () => sceneDocumentSchema.parse((await call(api, host, 'GET', `/api/v1/projects/${projectId}/scene`)).body);
    const doc = await read();
    const sceneId = doc.activeSceneId!;
    const camera = doc.scenes[0]!.layers.find((l) => doc.sources.find((s) => s.id === l.sourceId)?.kind === 'webcam')!;
    expect(
      (
        await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/scene`, {
          baseVersion: doc.version,
          ops: followLayoutOps(doc, sceneId, 'grid', { focusLayerId: camera.id }),
        })
      ).status,
    ).toBe(200);
    const joined = await joinAsGuest(api, projectId, await guestLinkOf(api, host, projectId), { displayName: 'Grace', ip: '203.0.113.39' });
    const sourceId = randomUUID();
    const layerId = randomUUID();
    const following = await read();
    const added = await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/scene`, {
      baseVersion: following.version,
      ops: [
        { op: 'addSource', source: { id: sourceId, kind: 'participant', name: 'Grace', settings: { userId: joined.guest!.id, displayName: 'Grace' } } },
        { op: 'addLayer', sceneId, layer: { id: layerId, sourceId } },
      ],
    });
    expect(added.status).toBe(200);
    const withGuest = await read();
    expect(box(withGuest.scenes[0]!.layers.find((l) => l.id === camera.id)!)).toEqual({ x: 0, y: 180, width: 640, height: 360 });

    const published = await listen(projectId);
    expect((await call(api, joined.guest!, 'POST', `/api/v1/projects/${projectId}/guests/leave`)).status).toBe(204);
    const after = await read();
    expect(after.version).toBe(withGuest.version + 1);
    expect(after.scenes[0]!.layers.find((l) => l.id === layerId)!.visible).toBe(false);
    // The host's camera alone takes the whole frame again.
    expect(box(after.scenes[0]!.layers.find((l) => l.id === camera.id)!)).toEqual({ x: 0, y: 0, width: 1280, height: 720 });
    await until(() => published.length === 1);
    expect(published[0]).toMatchObject({ projectId, version: after.version });
    expect(published[0]!.ops[0]).toEqual({ op: 'updateLayer', sceneId, layerId, changes: { visible: false } });
  });

  it('following and stopping are scene edits: a contributor may, a viewer and a guest may not, a stranger does not see the project', async () => {
    const host = await createTestUser(api, { plan: 'Premium' });
    const created = await call(api, host, 'POST', '/api/v1/projects', { name: 'Roles' });
    const projectId = (created.body as { id: string }).id;
    const read = async () => sceneDocumentSchema.parse((await call(api, host, 'GET', `/api/v1/projects/${projectId}/scene`)).body);
    const doc = await read();
    const body = (baseVersion: number) => ({
      baseVersion,
      ops: [{ op: 'followLayout', sceneId: doc.activeSceneId!, followedLayout: { layout: 'speaker', mainLayerId: null } }],
    });

    const viewer = await createTestUser(api);
    await api.db.projectMember.create({ data: { projectId, userId: viewer.id, role: 'viewer' } });
    expect(await call(api, viewer, 'PATCH', `/api/v1/projects/${projectId}/scene`, body(doc.version))).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN' } },
    });
    const joined = await joinAsGuest(api, projectId, await guestLinkOf(api, host, projectId), { displayName: 'Gus', ip: '203.0.113.39' });
    expect(await call(api, joined.guest!, 'PATCH', `/api/v1/projects/${projectId}/scene`, body(doc.version))).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN' } },
    });
    const stranger = await createTestUser(api);
    expect(await call(api, stranger, 'PATCH', `/api/v1/projects/${projectId}/scene`, body(doc.version))).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
    expect(await read()).toEqual(doc);

    const contributor = await createTestUser(api);
    await api.db.projectMember.create({ data: { projectId, userId: contributor.id, role: 'contributor' } });
    expect((await call(api, contributor, 'PATCH', `/api/v1/projects/${projectId}/scene`, body(doc.version))).status).toBe(200);
    expect((await read()).scenes[0]!.followedLayout).toEqual({ layout: 'speaker', mainLayerId: null });
    const stop = await call(api, contributor, 'PATCH', `/api/v1/projects/${projectId}/scene`, {
      baseVersion: doc.version + 1,
      ops: [{ op: 'followLayout', sceneId: doc.activeSceneId!, followedLayout: null }],
    });
    expect(stop.status).toBe(200);
    expect((await read()).scenes[0]!.followedLayout).toBeUndefined();

    // A layout built around a layer of another scene, or a layout that does not exist, is refused with words.
    const foreign = await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/scene`, {
      baseVersion: doc.version + 2,
      ops: [{ op: 'followLayout', sceneId: doc.activeSceneId!, followedLayout: { layout: 'grid', mainLayerId: randomUUID() } }],
    });
    expect(foreign).toMatchObject({
      status: 422,
      body: { error: { code: 'SCENE_RULE_VIOLATED', message: 'This source is not in the scene.', details: { rule: 'layer-not-found' } } },
    });
    const unknown = await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/scene`, {
      baseVersion: doc.version + 2,
      ops: [{ op: 'followLayout', sceneId: doc.activeSceneId!, followedLayout: { layout: 'mosaic', mainLayerId: null } }],
    });
    expect(unknown).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED' } } });
  });
});

describe('bad input gets a clear 4xx and leaves the document unchanged', () => {
  async function expectUnchanged(doc: SceneDocument, res: { status: number; body: unknown }, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ error: { code, message: expect.any(String) } });
    expect(await getDoc(doc.projectId)).toEqual(doc);
  }

  it('an unknown source kind', async () => {
    const doc = await newProject();
    const res = await patch(doc.projectId, 0, [{ op: 'addSource', source: { id: randomUUID(), kind: 'hologram' } } as unknown as SceneOp]);
    await expectUnchanged(doc, res, 400, 'VALIDATION_FAILED');
    expect((res.body as { error: { message: string } }).error.message).toContain('body.ops.0.source.kind');
  });

  it('a negative size', async () => {
    const doc = await newProject();
    const layerId = doc.scenes[0]!.layers[0]!.id;
    const res = await patch(doc.projectId, 0, [{ op: 'updateLayer', sceneId: doc.activeSceneId!, layerId, changes: { width: -5 } }]);
    await expectUnchanged(doc, res, 400, 'VALIDATION_FAILED');
    expect(res.body).toMatchObject({ error: { details: { issues: [{ path: ['ops', '0', 'changes', 'width'] }] } } });
  });

  it('a patch on a deleted scene', async () => {
    const created = await newProject();
    const sceneId = created.activeSceneId!;
    const second = randomUUID();
    const watermark = created.sources.find((s) => s.kind === 'watermark')!.id;
    const setup = await patch(created.projectId, 0, [
      { op: 'addScene', sceneId: second, name: 'Second' },
      { op: 'addLayer', sceneId: second, layer: { id: randomUUID(), sourceId: watermark } },
      { op: 'removeScene', sceneId },
    ]);
    expect(setup.status).toBe(200);
    const doc = await getDoc(created.projectId);
    expect(doc.scenes.find((s) => s.id === sceneId)?.deletedAt).toEqual(expect.any(String));
    expect(doc.activeSceneId).toBe(second);
    const res = await patch(doc.projectId, doc.version, [{ op: 'renameScene', sceneId, name: 'Back' }]);
    await expectUnchanged(doc, res, 422, 'SCENE_RULE_VIOLATED');
    expect(res.body).toMatchObject({ error: { message: 'This scene was deleted.', details: { rule: 'scene-deleted', opIndex: 0, sceneId } } });
  });

  it('a 2 MB body', async () => {
    const doc = await newProject();
    const huge = JSON.stringify({ baseVersion: 0, ops: [{ op: 'renameScene', sceneId: doc.activeSceneId, name: 'x'.repeat(2 * 1024 * 1024) }] });
    const res = await call(api, user, 'PATCH', `/api/v1/projects/${doc.projectId}/scene`, huge);
    await expectUnchanged(doc, res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('malformed JSON', async () => {
    const doc = await newProject();
    await expectUnchanged(doc, await call(api, user, 'PATCH', `/api/v1/projects/${doc.projectId}/scene`, '{"baseVersion": 0, "ops": ['), 400, 'MALFORMED_JSON');
  });

  it("a second game source, with the spec's words", async () => {
    const created = await newProject();
    const sceneId = created.activeSceneId!;
    const game = (): SceneOp[] => {
      const id = randomUUID();
      return [
        { op: 'addSource', source: { id, kind: 'game' } },
        { op: 'addLayer', sceneId, layer: { id: randomUUID(), sourceId: id } },
      ];
    };
    expect((await patch(created.projectId, 0, game())).status).toBe(200);
    const doc = await getDoc(created.projectId);
    const res = await patch(doc.projectId, 1, game());
    await expectUnchanged(doc, res, 422, 'SCENE_RULE_VIOLATED');
    expect(res.body).toMatchObject({ error: { message: 'You can only add one game source to each scene', details: { rule: 'one-game-source-per-scene' } } });
  });

  it('a fourth scene on Free, and hiding the logo', async () => {
    const doc0 = await newProject();
    const watermark = doc0.sources.find((s) => s.kind === 'watermark')!.id;
    const scene = (): SceneOp[] => {
      const id = randomUUID();
      return [
        { op: 'addScene', sceneId: id, name: 'More' },
        { op: 'addLayer', sceneId: id, layer: { id: randomUUID(), sourceId: watermark } },
      ];
    };
    expect((await patch(doc0.projectId, 0, [...scene(), ...scene()])).status).toBe(200);
    const doc = await getDoc(doc0.projectId);
    const more = await patch(doc.projectId, 1, scene());
    await expectUnchanged(doc, more, 403, 'PLAN_LIMIT_REACHED');
    expect(more.body).toMatchObject({
      error: { message: 'Your plan allows up to 3 scenes. Upgrade to add more.', details: { rule: 'scene-limit-reached', limit: 3 } },
    });
    const logoLayer = doc.scenes[0]!.layers.find((l) => l.sourceId === watermark)!.id;
    const hide = await patch(doc.projectId, 1, [{ op: 'updateLayer', sceneId: doc.activeSceneId!, layerId: logoLayer, changes: { visible: false } }]);
    await expectUnchanged(doc, hide, 403, 'PLAN_LIMIT_REACHED');
  });

  it('a stale base version', async () => {
    const created = await newProject();
    expect((await patch(created.projectId, 0, [{ op: 'renameScene', sceneId: created.activeSceneId!, name: 'One' }])).status).toBe(200);
    const doc = await getDoc(created.projectId);
    const res = await patch(doc.projectId, 0, [{ op: 'renameScene', sceneId: doc.activeSceneId!, name: 'Two' }]);
    await expectUnchanged(doc, res, 409, 'CONFLICT');
  });
});
