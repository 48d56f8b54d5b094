import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sceneDocumentSchema, sessionJobSchema, sessionKeys, sessionStatusSchema, queues, type SceneDocument } from '@onair/protocol';
import { SecretBox } from '@onair/runtime';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let alice: TestUser;

beforeAll(async () => {
  // A key to seal the stream keys of the destinations the admission test adds.
  api = await startStudioApi({ env: { SECRETS_KEY: SecretBox.generateKey() } });
  alice = await createTestUser(api);
});
afterAll(async () => {
  await api?.close();
});

async function newProject(user: TestUser): Promise<SceneDocument> {
  const created = await call(api, user, 'POST', '/api/v1/projects', { name: 'Session test' });
  const id = (created.body as { id: string }).id;
  return sceneDocumentSchema.parse((await call(api, user, 'GET', `/api/v1/projects/${id}/scene`)).body);
}

async function snapshot(projectId: string): Promise<SceneDocument> {
  const raw = await api.redis.hget(sessionKeys.document(projectId), 'document');
  return sceneDocumentSchema.parse(JSON.parse(raw!));
}

describe('studio sessions', () => {
  it('queues a session once however often it is opened, and says it waits while no worker has room', async () => {
    const doc = await newProject(alice);
    const path = `/api/v1/projects/${doc.projectId}/session`;
    expect(sessionStatusSchema.parse((await call(api, alice, 'GET', path)).body).state).toBe('stopped');

    const opened = await call(api, alice, 'POST', path);
    expect(opened.status).toBe(202);
    expect(sessionStatusSchema.parse(opened.body)).toMatchObject({ projectId: doc.projectId, state: 'waiting', workerId: null });
    await call(api, alice, 'POST', path);
    const waiting = await api.redis.lrange(`bull:${queues.sessions.name}:wait`, 0, -1);
    expect(waiting.filter((id) => id === doc.projectId)).toHaveLength(1);

    // The worker's copy of the document is there before any worker takes the session.
    expect(await snapshot(doc.projectId)).toEqual(doc);

    const closed = await call(api, alice, 'DELETE', path);
    expect(closed.status).toBe(200);
    expect(sessionStatusSchema.parse((await call(api, alice, 'GET', path)).body).state).toBe('stopped');
    expect(await api.redis.lrange(`bull:${queues.sessions.name}:wait`, 0, -1)).not.toContain(doc.projectId);
  });

  it('tells the workers a session will need the vertical canvas when an enabled destination takes it (admission, issue 20)', async () => {
    const premium = await createTestUser(api, { plan: 'Premium' });
    const jobOf = async (projectId: string) => sessionJobSchema.parse(JSON.parse((await api.redis.hget(`bull:${queues.sessions.name}:${projectId}`, 'data'))!));
    const wide = await newProject(premium);
    await call(api, premium, 'POST', `/api/v1/projects/${wide.projectId}/destinations`, {
      type: 'CustomRTMP',
      name: 'Wide',
      rtmpUrl: 'rtmp://93.184.216.34/live',
      streamKey: 'k1',
    });
    await call(api, premium, 'POST', `/api/v1/projects/${wide.projectId}/session`);
    expect((await jobOf(wide.projectId)).vertical).toBeUndefined();

    const tall = await newProject(premium);
    const { status, body } = await call(api, premium, 'POST', `/api/v1/projects/${tall.projectId}/destinations`, {
      type: 'TikTok',
      rtmpUrl: 'rtmp://93.184.216.34/live',
      streamKey: 'k2',
    });
    expect(status).toBe(201);
    await call(api, premium, 'POST', `/api/v1/projects/${tall.projectId}/session`);
    expect((await jobOf(tall.projectId)).vertical).toBe(true);
    await call(api, premium, 'DELETE', `/api/v1/projects/${tall.projectId}/session`);
    // Switched off, it no longer counts.
    await call(api, premium, 'PATCH', `/api/v1/projects/${tall.projectId}/destinations/${(body as { id: string }).id}`, { enabled: false });
    await call(api, premium, 'POST', `/api/v1/projects/${tall.projectId}/session`);
    expect((await jobOf(tall.projectId)).vertical).toBeUndefined();
    for (const projectId of [wide.projectId, tall.projectId]) await call(api, premium, 'DELETE', `/api/v1/projects/${projectId}/session`);
  });

  it('keeps the workers’ document snapshot at the newest accepted version', async () => {
    const doc = await newProject(alice);
    await call(api, alice, 'POST', `/api/v1/projects/${doc.projectId}/session`);
    const scene = doc.scenes[0]!;
    const patched = await call(api, alice, 'PATCH', `/api/v1/projects/${doc.projectId}/scene`, {
      baseVersion: doc.version,
      ops: [{ op: 'renameScene', sceneId: scene.id, name: 'Starting soon' }],
    });
    expect(patched.status).toBe(200);
    const latest = await snapshot(doc.projectId);
    expect(latest.version).toBe(doc.version + 1);
    expect(latest.scenes[0]!.name).toBe('Starting soon');
    await call(api, alice, 'DELETE', `/api/v1/projects/${doc.projectId}/session`);
  });

  it("refuses someone else's project and a caller without a session", async () => {
    const doc = await newProject(alice);
    const bob = await createTestUser(api);
    const path = `/api/v1/projects/${doc.projectId}/session`;
    expect((await call(api, bob, 'POST', path)).status).toBe(404);
    expect((await call(api, null, 'POST', path)).status).toBe(401);
    expect((await call(api, alice, 'POST', '/api/v1/projects/not-a-uuid/session')).status).toBe(400);
  });
});
