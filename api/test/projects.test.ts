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

  it("creates a project from the Beam template by default (the host's camera full frame under the logo on Free), and lists it", async () => {
    const created = await call(api, alice, 'POST', '/api/v1/projects', { name: 'Friday stream' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Friday stream', resolution: '720p', version: 0 });
    const { id } = created.body as { id: string };

    const listed = await call(api, alice, 'GET', '/api/v1/projects');
    expect(listed.status).toBe(200);
    expect((listed.body as { projects: { id: string }[] }).projects.map((p) => p.id)).toContain(id);
    // Issue 52: the list marks a project that is on air (a creator back from checkout in another tab sees it).
    const liveOf = async () => (await call(api, alice, 'GET', '/api/v1/projects')).body as { projects: { id: string; live: boolean }[] };
    expect((await liveOf()).projects.find((p) => p.id === id)?.live).toBe(false);
    const broadcast = await api.db.broadcast.create({ data: { projectId: id, state: 'live', startedAt: new Date() } });
    expect((await liveOf()).projects.find((p) => p.id === id)?.live).toBe(true);
    await api.db.broadcast.update({ where: { id: broadcast.id }, data: { state: 'ended', endedAt: new Date() } });
    expect((await liveOf()).projects.find((p) => p.id === id)?.live).toBe(false);

    const scene = await call(api, alice, 'GET', `/api/v1/projects/${id}/scene`);
    expect(scene.status).toBe(200);
    const doc: SceneDocument = sceneDocumentSchema.parse(scene.body);
    expect(doc).toMatchObject({ projectId: id, version: 0, resolution: '720p', activeSceneId: doc.scenes[0]?.id });
    expect(doc.scenes).toHaveLength(1);
    expect(doc.scenes[0]).toMatchObject({ name: 'Scene 1', order: 0, deletedAt: null });
    const camera = doc.sources.find((s) => s.kind === 'webcam');
    const watermark = doc.sources.find((s) => s.kind === 'watermark');
    expect(doc.sources).toHaveLength(2);
    // Spec §3 webcam defaults; the owner's first camera ('default') and default microphone.
    expect(camera).toEqual({
      id: expect.any(String),
      kind: 'webcam',
      name: 'Camera',
      settings: {
        opacity: 1,
        volume: 1,
        muted: false,
        webcamDeviceId: 'default',
        microphoneDeviceId: 'default',
        displayName: '',
        userId: alice.id,
        mirrorCamera: false,
      },
    });
    expect(watermark).toEqual({ id: expect.any(String), kind: 'watermark', name: 'Watermark', settings: {} });
    // Beam: the camera fills the canvas; the logo 237x62 at 30,30 (spec §9), on top.
    const noCrop = { top: 0, right: 0, bottom: 0, left: 0 };
    const layers = [...(doc.scenes[0]?.layers ?? [])].sort((a, b) => a.zIndex - b.zIndex);
    expect(layers).toEqual([
      { id: expect.any(String), sourceId: camera?.id, x: 0, y: 0, width: 1280, height: 720, crop: noCrop, zIndex: 0, opacity: 1, visible: true },
      { id: expect.any(String), sourceId: watermark?.id, x: 30, y: 30, width: 237, height: 62, crop: noCrop, zIndex: 1, opacity: 1, visible: true },
    ]);
  });

  it('lists the scene templates, creates a project from one named, and refuses a template that does not exist', async () => {
    const list = await call(api, alice, 'GET', '/api/v1/scene-templates');
    expect(list.status).toBe(200);
    const { templates, defaultTemplate } = list.body as { templates: { id: string; category: string; sceneNames: string[] }[]; defaultTemplate: string };
    expect(defaultTemplate).toBe('Beam');
    expect(templates.map((t) => t.id)).toEqual(expect.arrayContaining(['Beam', 'Just chatting', 'Interview', 'Podcast']));
    expect(templates.filter((t) => t.category === 'gameplay')).toHaveLength(5);
    expect((await call(api, null, 'GET', '/api/v1/scene-templates')).status).toBe(401);

    const created = await call(api, alice, 'POST', '/api/v1/projects', { name: 'Game night', template: 'Gameplay' });
    expect(created.status).toBe(201);
    const doc = sceneDocumentSchema.parse((await call(api, alice, 'GET', `/api/v1/projects/${(created.body as { id: string }).id}/scene`)).body);
    expect(doc.scenes.map((s) => s.name)).toEqual(['Gameplay', 'Be right back']);
    expect(doc.sources.map((s) => s.kind).sort()).toEqual(['game', 'image', 'watermark', 'webcam', 'webpage', 'webpage']);

    expect(await call(api, alice, 'POST', '/api/v1/projects', { name: 'Nope', template: 'Hologram' })).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_FAILED' } },
    });
  });

  it("copies a template's scenes into a project as one patch, reusing the host's camera; a viewer and a stranger may not", async () => {
    const host = await createTestUser(api, { plan: 'Premium' });
    const { body } = await call(api, host, 'POST', '/api/v1/projects', { name: 'Talk show' });
    const id = (body as { id: string }).id;
    const before = sceneDocumentSchema.parse((await call(api, host, 'GET', `/api/v1/projects/${id}/scene`)).body);

    const copied = await call(api, host, 'POST', `/api/v1/projects/${id}/templates/copy`, { templateId: 'Interview' });
    expect(copied.status).toBe(200);
    expect((copied.body as { version: number }).version).toBe(before.version + 1);
    const after = sceneDocumentSchema.parse((await call(api, host, 'GET', `/api/v1/projects/${id}/scene`)).body);
    expect(after.scenes.map((s) => s.name)).toEqual(['Scene 1', 'Interview', 'Panel']);
    expect(after.activeSceneId).toBe(before.activeSceneId);
    expect(after.sources.filter((s) => s.kind === 'webcam')).toHaveLength(1);
    expect(
      after.sources
        .filter((s) => s.kind === 'participant')
        .map((s) => s.name)
        .sort(),
    ).toEqual(['Guest 1', 'Guest 2', 'Guest 3', 'Guest 4']);
    // Premium may hide the logo: the template's scenes come without it.
    expect(after.scenes.slice(1).every((s) => s.layers.every((l) => after.sources.find((x) => x.id === l.sourceId)?.kind !== 'watermark'))).toBe(true);

    const viewer = await createTestUser(api);
    await api.db.projectMember.create({ data: { projectId: id, userId: viewer.id, role: 'viewer' } });
    const refused = await call(api, viewer, 'POST', `/api/v1/projects/${id}/templates/copy`, { templateId: 'Podcast' });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    const stranger = await createTestUser(api);
    expect((await call(api, stranger, 'POST', `/api/v1/projects/${id}/templates/copy`, { templateId: 'Podcast' })).status).toBe(404);
    expect((await call(api, host, 'GET', `/api/v1/projects/${id}/scene`)).body).toMatchObject({ version: after.version });
  });

  it("refuses a template that would take a Free project over its three scenes, with the plan's words", async () => {
    const { body } = await call(api, alice, 'POST', '/api/v1/projects', { name: 'Chat', template: 'Just chatting' });
    const id = (body as { id: string }).id;
    const refused = await call(api, alice, 'POST', `/api/v1/projects/${id}/templates/copy`, { templateId: 'Podcast' });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'PLAN_LIMIT_REACHED', details: { rule: 'scene-limit-reached' } } } });
  });

  it("shows a project with the caller's role, and renames it", async () => {
    const { body } = await call(api, alice, 'POST', '/api/v1/projects', { name: 'Untitled' });
    const id = (body as { id: string }).id;
    expect(await call(api, alice, 'GET', `/api/v1/projects/${id}`)).toMatchObject({ status: 200, body: { id, name: 'Untitled', role: 'host' } });

    const renamed = await call(api, alice, 'PATCH', `/api/v1/projects/${id}`, { name: '  Saturday speedrun  ' });
    expect(renamed).toMatchObject({ status: 200, body: { id, name: 'Saturday speedrun', role: 'host' } });
    expect((await call(api, alice, 'GET', `/api/v1/projects/${id}`)).body).toMatchObject({ name: 'Saturday speedrun' });
    const listed = (await call(api, alice, 'GET', '/api/v1/projects')).body as { projects: { id: string; name: string }[] };
    expect(listed.projects.find((p) => p.id === id)?.name).toBe('Saturday speedrun');

    // Bad names are refused and change nothing.
    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const res = await call(api, alice, 'PATCH', `/api/v1/projects/${id}`, { name });
      expect(res).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED', details: { where: 'body' } } } });
    }
    expect((await call(api, alice, 'PATCH', `/api/v1/projects/${id}`, { name: 'Ok', owner: 'me' })).status).toBe(400);
    expect((await call(api, alice, 'GET', `/api/v1/projects/${id}`)).body).toMatchObject({ name: 'Saturday speedrun' });

    // A viewer reads the name but may not change it; a stranger does not see the project at all.
    const viewer = await createTestUser(api);
    await api.db.projectMember.create({ data: { projectId: id, userId: viewer.id, role: 'viewer' } });
    expect(await call(api, viewer, 'GET', `/api/v1/projects/${id}`)).toMatchObject({ status: 200, body: { name: 'Saturday speedrun', role: 'viewer' } });
    expect(await call(api, viewer, 'PATCH', `/api/v1/projects/${id}`, { name: 'Mine now' })).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN' } },
    });
    const stranger = await createTestUser(api);
    expect(await call(api, stranger, 'PATCH', `/api/v1/projects/${id}`, { name: 'Mine now' })).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
    expect((await call(api, alice, 'GET', `/api/v1/projects/${id}`)).body).toMatchObject({ name: 'Saturday speedrun' });
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
    expect((await call(api, bob, 'PATCH', `/api/v1/projects/${id}/scene`, { baseVersion: 0, ops: [{ op: 'setResolution', resolution: '480p' }] })).status).toBe(
      404,
    );
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
    expect(paths['/api/v1/projects/{projectId}']?.get?.operationId).toBe('getProject');
    expect(paths['/api/v1/projects/{projectId}']?.patch?.operationId).toBe('renameProject');
    expect(paths['/api/v1/projects/{projectId}/scene']?.patch?.operationId).toBe('patchScene');
    expect(paths['/api/v1/projects/{projectId}/scene']?.get?.operationId).toBe('getSceneDocument');
    expect(paths['/api/v1/projects/{projectId}/resolutions']?.get?.operationId).toBe('getResolutionChoices');
  });
});
