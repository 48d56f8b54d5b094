import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sceneDocumentSchema, sessionKeys, sessionStatusSchema, SESSIONS_QUEUE, type SceneDocument } from '@onair/protocol';
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
    const waiting = await api.redis.lrange(`bull:${SESSIONS_QUEUE}:wait`, 0, -1);
    expect(waiting.filter((id) => id === doc.projectId)).toHaveLength(1);

    // The worker's copy of the document is there before any worker takes the session.
    expect(await snapshot(doc.projectId)).toEqual(doc);

    const closed = await call(api, alice, 'DELETE', path);
    expect(closed.status).toBe(200);
    expect(sessionStatusSchema.parse((await call(api, alice, 'GET', path)).body).state).toBe('stopped');
    expect(await api.redis.lrange(`bull:${SESSIONS_QUEUE}:wait`, 0, -1)).not.toContain(doc.projectId);
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
