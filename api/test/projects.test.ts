import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sceneDocumentSchema, type SceneDocument } from '@onair/protocol';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let alice: TestUser;

beforeAll(async () => {
  api = await startStudioApi();
  alice = await createTestUser(api);
});
afterAll(async () => {
  await api?.close();
});

describe('projects', () => {
  it('refuses a caller without a session, or with an expired one', async () => {
    const none = await call(api, null, 'GET', '/api/v1/projects');
    expect(none).toEqual({ status: 401, body: { error: { code: 'UNAUTHENTICATED', message: 'You need to sign in first.' } } });
    const expired = await createTestUser(api, { expiresInMs: -1000 });
    expect((await call(api, expired, 'GET', '/api/v1/projects')).status).toBe(401);
    const forged = { ...alice, cookie: 'onair.session_token=not-a-session' };
    expect((await call(api, forged, 'GET', '/api/v1/projects')).status).toBe(401);
    const unsigned = { ...alice, cookie: `onair.session_token=${alice.token}` };
    expect((await call(api, unsigned, 'GET', '/api/v1/projects')).status).toBe(401);
    expect((await call(api, alice, 'GET', '/api/v1/projects')).status).toBe(200);
  });

  it('creates a project with one active scene that shows the logo, and lists it', async () => {
    const created = await call(api, alice, 'POST', '/api/v1/projects', { name: 'Friday stream' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Friday stream', resolution: '720p', version: 0 });
    const { id } = created.body as { id: string };

    const listed = await call(api, alice, 'GET', '/api/v1/projects');
    expect(listed.status).toBe(200);
    expect((listed.body as { projects: { id: string }[] }).projects.map((p) => p.id)).toContain(id);

    const scene = await call(api, alice, 'GET', `/api/v1/projects/${id}/scene`);
    expect(scene.status).toBe(200);
    const doc: SceneDocument = sceneDocumentSchema.parse(scene.body);
    expect(doc).toMatchObject({ projectId: id, version: 0, resolution: '720p', activeSceneId: doc.scenes[0]?.id });
    expect(doc.scenes).toHaveLength(1);
    expect(doc.scenes[0]).toMatchObject({ name: 'Scene 1', order: 0, deletedAt: null });
    expect(doc.sources).toEqual([{ id: expect.any(String), kind: 'watermark', name: 'Watermark', settings: {} }]);
    expect(doc.scenes[0]?.layers).toEqual([
      { id: expect.any(String), sourceId: doc.sources[0]?.id, x: 30, y: 30, width: 237, height: 62, crop: { top: 0, right: 0, bottom: 0, left: 0 }, zIndex: 0, opacity: 1, visible: true },
    ]);
  });

  it('refuses an empty name with the error body of the catalogue', async () => {
    const res = await call(api, alice, 'POST', '/api/v1/projects', { name: '   ' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: { where: 'body' } } });
  });

  it("hides other users' projects", async () => {
    const bob = await createTestUser(api);
    const { body } = await call(api, alice, 'POST', '/api/v1/projects', { name: 'Private' });
    const id = (body as { id: string }).id;
    const res = await call(api, bob, 'GET', `/api/v1/projects/${id}/scene`);
    expect(res).toEqual({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'This project does not exist.' } } });
    expect((await call(api, bob, 'PATCH', `/api/v1/projects/${id}/scene`, { baseVersion: 0, ops: [{ op: 'setResolution', resolution: '480p' }] })).status).toBe(404);
    expect((await call(api, bob, 'GET', '/api/v1/projects')).body).toEqual({ projects: [] });
  });
});

describe('resolution selector (spec §9)', () => {
  it('offers Free 480p and 720p and locks 1080p with the upgrade tooltip', async () => {
    const { body } = await call(api, alice, 'POST', '/api/v1/projects', { name: 'Res' });
    const id = (body as { id: string }).id;
    const res = await call(api, alice, 'GET', `/api/v1/projects/${id}/resolutions`);
    expect(res).toEqual({
      status: 200,
      body: {
        current: '720p',
        options: [
          { id: '480p', width: 854, height: 480, fps: 30, available: true, upgradeTooltip: null },
          { id: '720p', width: 1280, height: 720, fps: 30, available: true, upgradeTooltip: null },
          { id: '1080p', width: 1920, height: 1080, fps: 30, available: false, upgradeTooltip: 'Stream at 1080p' },
        ],
      },
    });
    const refused = await call(api, alice, 'PATCH', `/api/v1/projects/${id}/scene`, { baseVersion: 0, ops: [{ op: 'setResolution', resolution: '1080p' }] });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'PLAN_LIMIT_REACHED', details: { rule: 'resolution-not-in-plan' } } } });
    const lowered = await call(api, alice, 'PATCH', `/api/v1/projects/${id}/scene`, { baseVersion: 0, ops: [{ op: 'setResolution', resolution: '480p' }] });
    expect(lowered.status).toBe(200);
    expect((await call(api, alice, 'GET', `/api/v1/projects/${id}/resolutions`)).body).toMatchObject({ current: '480p' });
  });

  it('starts a Premium project at 1080p, read from the subscription entitlements', async () => {
    const premium = await createTestUser(api, { plan: 'Premium' });
    const created = await call(api, premium, 'POST', '/api/v1/projects', { name: 'HD' });
    expect(created.body).toMatchObject({ resolution: '1080p' });
    const id = (created.body as { id: string }).id;
    const res = await call(api, premium, 'GET', `/api/v1/projects/${id}/resolutions`);
    expect((res.body as { options: { available: boolean }[] }).options.every((o) => o.available)).toBe(true);
  });
});

describe('OpenAPI', () => {
  it('documents the project and scene endpoints', async () => {
    const res = await call(api, null, 'GET', '/api/v1/openapi.json');
    const paths = (res.body as { paths: Record<string, Record<string, { operationId: string }>> }).paths;
    expect(paths['/api/v1/projects']?.post?.operationId).toBe('createProject');
    expect(paths['/api/v1/projects']?.get?.operationId).toBe('listProjects');
    expect(paths['/api/v1/projects/{projectId}/scene']?.patch?.operationId).toBe('patchScene');
    expect(paths['/api/v1/projects/{projectId}/scene']?.get?.operationId).toBe('getSceneDocument');
    expect(paths['/api/v1/projects/{projectId}/resolutions']?.get?.operationId).toBe('getResolutionChoices');
  });
});
