import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestMessage } from './helpers/browser.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let host: TestUser;
let friend: TestUser;
let projectId = '';

beforeAll(async () => {
  api = await startStudioApi();
  host = await createTestUser(api, { plan: 'Premium' });
  friend = await createTestUser(api);
  projectId = ((await call(api, host, 'POST', '/api/v1/projects', { name: 'Together' })).body as { id: string }).id;
});
afterAll(async () => {
  await api?.close();
});

const emailOf = (u: TestUser) => `${u.id}@example.test`;

describe('the people of a project', () => {
  it('gives a role by e-mail (told by mail), lists it, changes it and takes it back; the owner stays host', async () => {
    const added = await call(api, host, 'POST', `/api/v1/projects/${projectId}/members`, { email: emailOf(friend).toUpperCase(), role: 'contributor' });
    expect(added).toMatchObject({ status: 201, body: { userId: friend.id, role: 'contributor', owner: false } });
    expect((await latestMessage(api.url, emailOf(friend))).subject).toBe('You are a contributor of Together on OnAir');

    // The project is now in the friend's list, and they may edit it (not manage its destinations).
    expect(((await call(api, friend, 'GET', '/api/v1/projects')).body as { projects: { id: string }[] }).projects.map((p) => p.id)).toContain(projectId);
    expect((await call(api, friend, 'GET', `/api/v1/projects/${projectId}/scene`)).status).toBe(200);
    expect(await call(api, friend, 'POST', `/api/v1/projects/${projectId}/members`, { email: emailOf(friend), role: 'cohost' })).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });

    const listed = (await call(api, friend, 'GET', `/api/v1/projects/${projectId}/members`)).body as { members: { userId: string; role: string; owner: boolean }[] };
    expect(listed.members.map((m) => [m.userId, m.role, m.owner])).toEqual([[host.id, 'host', true], [friend.id, 'contributor', false]]);

    expect(await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/members/${friend.id}`, { role: 'cohost' })).toMatchObject({ status: 200, body: { role: 'cohost' } });
    // A co-host manages the people too, but the owner's role is fixed.
    expect(await call(api, friend, 'PATCH', `/api/v1/projects/${projectId}/members/${host.id}`, { role: 'viewer' })).toMatchObject({ status: 422, body: { error: { code: 'OWNER_ROLE_FIXED' } } });
    expect(await call(api, friend, 'DELETE', `/api/v1/projects/${projectId}/members/${host.id}`)).toMatchObject({ status: 422 });
    expect((await call(api, host, 'DELETE', `/api/v1/projects/${projectId}/members/${friend.id}`)).status).toBe(204);
    expect(await call(api, friend, 'GET', `/api/v1/projects/${projectId}/scene`)).toMatchObject({ status: 404, body: { error: { message: 'This project does not exist.' } } });
  });

  it('refuses what cannot be given with words', async () => {
    expect(await call(api, host, 'POST', `/api/v1/projects/${projectId}/members`, { email: `${randomUUID()}@example.test`, role: 'cohost' })).toMatchObject({
      status: 404,
      body: { error: { code: 'MEMBER_ACCOUNT_NOT_FOUND', message: 'No OnAir account uses that e-mail address yet. Ask them to sign up first, then add them.' } },
    });
    expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/members`, { email: emailOf(friend), role: 'impersonate' })).status).toBe(400);
    expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/members`, { email: emailOf(host), role: 'viewer' })).status).toBe(422);
  });

  it('edits a shared project with its owner\'s plan, whatever the editor\'s own', async () => {
    await call(api, host, 'POST', `/api/v1/projects/${projectId}/members`, { email: emailOf(friend), role: 'cohost' });
    const doc = (await call(api, friend, 'GET', `/api/v1/projects/${projectId}/scene`)).body as { version: number };
    // 1080p is a Premium resolution: the Free co-host may pick it on the Premium owner's project.
    const res = await call(api, friend, 'PATCH', `/api/v1/projects/${projectId}/scene`, { baseVersion: doc.version, ops: [{ op: 'setResolution', resolution: '1080p' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
